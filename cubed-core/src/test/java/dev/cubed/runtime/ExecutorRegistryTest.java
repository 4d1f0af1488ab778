package dev.cubed.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.Cubed;
import dev.cubed.Spec;
import dev.cubed.runtime.processes.ProcessesExecutor;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one registry of named executors: built-ins, factory services and executor services. */
class ExecutorRegistryTest {
  private static final ExecutorSettings SETTINGS =
      new ExecutorSettings(3, 2, 300_000_000L, 10_000_000L, Map.of());

  @Test
  void everyRegisteredNameBuildsAnExecutorOfItsKind() {
    assertThat(ExecutorFactory.available())
        .containsSubsequence("threads", "processes", "processes-strict", "recording");
    for (String name : ExecutorFactory.available()) {
      Executor fromSettings = ExecutorFactory.require(name).create(SETTINGS);
      switch (name) {
        case "threads" -> {
          assertThat(fromSettings).isInstanceOf(ThreadsExecutor.class);
          assertThat(((ThreadsExecutor) fromSettings).configuration())
              .containsExactly(3, 2, 10_000_000L);
          assertThat(Executor.byName(name)).isInstanceOf(ThreadsExecutor.class);
        }
        case "processes", "processes-strict" -> {
          long strict = name.equals("processes-strict") ? 1 : 0;
          assertThat(fromSettings).isInstanceOf(ProcessesExecutor.class);
          assertThat(((ProcessesExecutor) fromSettings).configuration())
              .containsExactly(3, 2, 300_000_000L, 10_000_000L, 30_000L, strict);
          Executor defaults = Executor.byName(name);
          assertThat(defaults).isInstanceOf(ProcessesExecutor.class);
          // the defaults have no allowedMem: the heap bound comes from the plan; the same
          // keep-alive as an executor made from a spec
          assertThat(((ProcessesExecutor) defaults).configuration())
              .containsExactly(
                  Runtime.getRuntime().availableProcessors(), 3, 0L, 0L, 30_000L, strict);
        }
        case "recording" -> {
          assertThat(fromSettings).isInstanceOf(ThreadsExecutor.class);
          assertThat(RecordingExecutorFactory.CREATED).contains(SETTINGS);
          assertThat(Executor.byName("recording")).isInstanceOf(ThreadsExecutor.class);
          assertThat(RecordingExecutorFactory.CREATED).contains(ExecutorSettings.defaults());
        }
        default ->
            throw new AssertionError(
                "cubed-core's test classpath has no executor '"
                    + name
                    + "'; add its expected kind here");
      }
      assertThat(ExecutorFactory.find(name))
          .get()
          .extracting(ExecutorFactory::name)
          .isEqualTo(name);
    }
  }

  /** One construction path: a name and settings give the same configuration both ways. */
  @Test
  void byNameAndCubedExecutorConfigureANameAlike() {
    Spec spec =
        Spec.builder()
            .executor("processes")
            .workers(3)
            .attempts(2)
            .allowedMem("300MB")
            .reservedMem("10MB")
            .build();
    Executor viaSpec = Cubed.executor(spec);
    Executor viaName = Executor.byName("processes", SETTINGS);
    assertThat(((ProcessesExecutor) viaSpec).configuration())
        .containsExactly(((ProcessesExecutor) viaName).configuration());
  }

  @Test
  void unknownNameListsEveryAvailableName() {
    String all = String.join(", ", ExecutorFactory.available());
    assertThat(ExecutorFactory.find("gpu")).isEmpty();
    for (Runnable r :
        new Runnable[] {() -> ExecutorFactory.require("gpu"), () -> Executor.byName("gpu")}) {
      assertThatThrownBy(r::run)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("unknown executor 'gpu'; available: " + all + " (");
    }
  }
}
