package dev.cubed.runtime;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.Cubed;
import dev.cubed.Spec;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The built-in executors take no executor options: one given is refused, never ignored. */
class BuiltInOptionsTest {
  @TempDir Path tmp;

  @Test
  void aSpecWithAnOptionForTheThreadsExecutorIsRefused() {
    Spec spec =
        Spec.builder().workDir(tmp).executor("threads").executorOption("foo", "bar").build();
    assertThatThrownBy(() -> Cubed.executor(spec))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the threads executor takes no executor options, got 'foo'");
  }

  @Test
  void checkOptionsOfEveryBuiltInRefusesAnyOptionAndAcceptsNone() {
    for (String name : new String[] {"threads", "processes", "processes-strict"}) {
      ExecutorFactory f = ExecutorFactory.require(name);
      assertThatThrownBy(() -> f.checkOptions(Map.of("spark.master", "local[2]", "x", "y")))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("the " + name + " executor takes no executor options")
          .hasMessageContaining("(and 1 more)");
      assertThatCode(() -> f.checkOptions(Map.of())).doesNotThrowAnyException();
    }
  }
}
