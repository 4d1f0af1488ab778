package dev.cubed.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.NDArray;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Stored inputs are written once; a cache without its completion marker is rebuilt. */
class InputCacheTest {
  @TempDir Path dir;

  static final AtomicInteger MADE = new AtomicInteger();

  static List<InputCache.StoredInput> inputs() {
    return List.of(
        new InputCache.StoredInput(
            "X",
            new long[] {3, 4, 5},
            new long[] {1, 4, 5},
            (s, b) -> {
              MADE.incrementAndGet();
              return Inputs.txyBlock(
                  false, 3, s[0], s[1], s[2], (int) b[0], (int) b[1], (int) b[2]);
            }));
  }

  @Test
  void writesOnceAndRebuildsAHalfWrittenCache() throws Exception {
    MADE.set(0);
    Path d = InputCache.ensure(dir, "k", inputs(), 2);
    assertThat(MADE.get()).isEqualTo(3);
    assertThat(Files.exists(d.resolve(InputCache.MARKER))).isTrue();
    InputCache.ensure(dir, "k", inputs(), 2);
    assertThat(MADE.get()).as("cached: nothing rewritten").isEqualTo(3);

    Files.delete(d.resolve(InputCache.MARKER));
    Files.writeString(d.resolve("junk"), "half-written");
    InputCache.ensure(dir, "k", inputs(), 1);
    assertThat(MADE.get()).isEqualTo(6);
    assertThat(Files.exists(d.resolve("junk"))).isFalse();
    NDArray x = InputCache.open(d, "X").read();
    assertThat(x.getDouble(1 * 20 + 2 * 5 + 3)).isEqualTo(Inputs.x(1, 2, 3));
  }

  @Test
  void keyNamesWorkloadSizeParametersAndCodec() {
    assertThat(InputCache.key("rechunk", "in", Workloads.params("T", 2, "Y", 3)))
        .startsWith("rechunk-in-T2_Y3_")
        .matches("rechunk-in-T2_Y3_(blosclz4clevel5shuffleshuffle|zstdlevel1)");
  }

  @Test
  void warmReadsEveryFileUnderTheDirectoryAndChangesNothing() throws Exception {
    Path d = Files.createDirectories(dir.resolve("warm/a/b"));
    byte[] big = new byte[(3 << 20) + 17]; // more than one 1 MiB slice
    Arrays.fill(big, (byte) 7);
    Files.write(d.resolve("chunk"), big);
    Files.write(dir.resolve("warm/empty"), new byte[0]);
    InputCache.warm(dir.resolve("warm"));
    assertThat(Files.readAllBytes(d.resolve("chunk"))).isEqualTo(big);
    assertThat(Files.size(dir.resolve("warm/empty"))).isZero();
    Assertions.assertThatThrownBy(() -> InputCache.warm(dir.resolve("none")))
        .isInstanceOf(IOException.class);
  }
}
