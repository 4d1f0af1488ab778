package dev.cubed.runtime.processes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.Cubed;
import dev.cubed.Spec;
import dev.cubed.runtime.ExecutorSettings;
import dev.cubed.runtime.RecordingExecutorFactory;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The processes executors' settings come from the spec ({@code processes_*}, {@code worker_*}) and
 * reach the worker JVMs on their command line, never through system properties.
 */
class WorkerSettingsTest {
  private static final long MIB = 1L << 20;

  @TempDir Path tmp;

  @Test
  void theSpecsProcessesSettingsReachTheExecutor() {
    Spec spec =
        Spec.builder()
            .workDir(tmp)
            .executor("recording")
            .set(
                Map.of(
                    "processes_keep_alive", "5",
                    "processes_gc_skip", "false",
                    "worker_jvm_options", "-Da=1 -Db=2",
                    "worker_post_task_gc", "false",
                    "worker_stats", "true"))
            .build();
    RecordingExecutorFactory.CREATED.clear();
    Cubed.executor(spec);
    assertThat(RecordingExecutorFactory.CREATED.get(0).processes())
        .isEqualTo(
            new ExecutorSettings.Processes(
                Duration.ofSeconds(5), false, List.of("-Da=1", "-Db=2"), false, true));
    ProcessesExecutor p =
        (ProcessesExecutor)
            Cubed.executor(spec.toBuilder().executor("processes").allowedMem("300MB").build());
    assertThat(p.configuration()[4]).as("keep-alive, ms").isEqualTo(5_000L);
    assertThat(
            ((ProcessesExecutor) Cubed.executor(spec.toBuilder().executor("processes").build()))
                .configuration()[4])
        .isEqualTo(5_000L);
    assertThat(
            ((ProcessesExecutor)
                    Cubed.executor(
                        Spec.builder().workDir(tmp).set("executor", "processes").build()))
                .configuration()[4])
        .as("default keep-alive")
        .isEqualTo(30_000L);
  }

  @Test
  void aWorkersSettingsAreOnItsCommandLine() {
    List<String> c =
        new WorkerProcess.Settings(64 * MIB, List.of("-Dx=1"), 123, false, true).command();
    assertThat(c.subList(c.size() - 4, c.size()))
        .containsExactly(
            WorkerMain.class.getName(), "gcSkipSlack=123", "postTaskGc=false", "stats=true");
    assertThat(c).noneMatch(a -> a.startsWith("-Dcubed."));
    assertThat(WorkerMain.Options.parse(new String[] {"gcSkipSlack=123", "stats=true"}))
        .isEqualTo(new WorkerMain.Options(123, true, true));
    assertThat(WorkerMain.Options.parse(new String[0]))
        .isEqualTo(new WorkerMain.Options(0, true, false));
    assertThatThrownBy(() -> WorkerMain.Options.parse(new String[] {"stats=maybe"}))
        .hasMessageContaining("'stats=maybe': the value must be true or false");
    assertThatThrownBy(() -> WorkerMain.Options.parse(new String[] {"colour=red"}))
        .hasMessageContaining("unknown argument 'colour=red'")
        .hasMessageContaining("gcSkipSlack=N");
  }

  /** A real worker JVM prints its GC counts at exit when its command line says stats=true. */
  @Test
  void aRealWorkerTakesItsSettingsFromItsCommandLine() throws Exception {
    assertThat(workerStderr(true)).contains("cubed worker stats: pre-task GCs run");
    assertThat(workerStderr(false)).doesNotContain("cubed worker stats");
  }

  private static String workerStderr(boolean stats) throws Exception {
    List<String> cmd = new WorkerProcess.Settings(64 * MIB, List.of(), 0, true, stats).command();
    Process p = new ProcessBuilder(cmd).start();
    try {
      DataInputStream in = new DataInputStream(new BufferedInputStream(p.getInputStream()));
      DataOutputStream out = new DataOutputStream(p.getOutputStream());
      assertThat(WorkerProtocol.read(in).type()).isEqualTo(WorkerProtocol.HELLO);
      WorkerProtocol.write(out, WorkerProtocol.EXIT, new byte[0]);
      assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("the worker exits").isTrue();
      return new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      p.destroyForcibly();
    }
  }
}
