package dev.cubed.runtime.processes;

import dev.cubed.runtime.Executor;
import dev.cubed.runtime.ExecutorFactory;
import dev.cubed.runtime.ExecutorSettings;
import java.util.Map;

/**
 * The built-in "processes" executor (and, as {@link Strict}, "processes-strict": heap bound per
 * operation) as a factory service of cubed-core, listed by {@code ExecutorRegistry} among the
 * built-ins. Made from settings, its executor keeps idle workers for {@link
 * ExecutorSettings.Processes#keepAlive()} (the spec's {@code processes_keep_alive}, default 30 s)
 * and takes the other {@link ExecutorSettings.Processes} settings; it takes no executor options.
 */
public class ProcessesExecutorFactory implements ExecutorFactory {
  private final boolean heapPerOp;

  /** The "processes" factory. */
  public ProcessesExecutorFactory() {
    this(false);
  }

  ProcessesExecutorFactory(boolean heapPerOp) {
    this.heapPerOp = heapPerOp;
  }

  @Override
  public String name() {
    return heapPerOp ? "processes-strict" : "processes";
  }

  @Override
  public Executor create(ExecutorSettings s) {
    checkOptions(s.options());
    return ProcessesExecutor.builder()
        .settings(s)
        .keepAlive(s.processes().keepAlive())
        .gcSkip(s.processes().gcSkip())
        .workerJvmArgs(s.processes().workerJvmOptions())
        .postTaskGc(s.processes().postTaskGc())
        .workerStats(s.processes().workerStats())
        .heapPerOp(heapPerOp)
        .build();
  }

  /** Refuses every option: the processes executors take none. */
  @Override
  public void checkOptions(Map<String, String> options) {
    ExecutorFactory.refuseOptions(name(), options);
  }

  /** The "processes-strict" factory: the heap bound is set per operation. */
  public static final class Strict extends ProcessesExecutorFactory {
    /** The "processes-strict" factory. */
    public Strict() {
      super(true);
    }
  }
}
