package dev.cubed.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pre-timing library initialization leaves nothing behind and runs once per JVM. */
class LibraryInitTest {
  @TempDir Path dir;

  @Test
  void initializesOnceAndCleansUp() throws Exception {
    BenchContext ctx = new BenchContext("threads", 2, 300_000_000L, dir);
    LibraryInit.ensure(ctx);
    try (Stream<Path> s = Files.list(dir)) {
      assertThat(s.filter(p -> p.getFileName().toString().startsWith("init-"))).isEmpty();
    }
    // a second call is a no-op: it does not even create the work directory's temp folder
    Path other = dir.resolve("other");
    LibraryInit.ensure(new BenchContext("threads", 2, 300_000_000L, other));
    assertThat(Files.exists(other)).isFalse();
  }
}
