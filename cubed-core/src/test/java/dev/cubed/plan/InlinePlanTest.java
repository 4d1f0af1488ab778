package dev.cubed.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.ComputeOptions;
import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.Xp;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.runtime.TaskFailedException;
import dev.cubed.runtime.ThreadsExecutor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Tiny plans evaluated in the calling thread ({@link Plan#tiny()}) against the executor path. */
class InlinePlanTest {
  @TempDir Path dir;

  private Spec spec() {
    return Spec.builder().workDir(dir).allowedMem(50_000_000).reservedMem(1000).build();
  }

  private static NDArray random(long seed, long... shape) {
    NDArray a = NDArray.zeros(DType.FLOAT64, shape);
    double[] d = (double[]) a.data();
    Random r = new Random(seed);
    for (int i = 0; i < d.length; i++) {
      d[i] = r.nextDouble();
    }
    return a;
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void tinyPlanGivesTheExecutorsResultWithoutFiles(long seed) throws Exception {
    CubedArray x = Cubed.fromArray(random(seed, 6, 7), (long[]) null, spec());
    // a diamond (x used twice), a reduction and a scalar op
    CubedArray y = Xp.sum(x.multiply(x).add(x), 0);
    CubedArray z = x.add(1.0);
    Plan p = Cubed.plan(List.of(y, z));
    assertThat(p.tiny()).isTrue();
    List<NDArray> inline = Cubed.compute(y, z);
    try (Stream<Path> s = Files.list(dir)) {
      assertThat(s.filter(f -> f.getFileName().toString().startsWith("compute-")).toList())
          .as("no compute directory for an inline plan")
          .isEmpty();
    }
    // the same arrays under a spec that turns the shortcut off (inline_max_bytes=0)
    Spec noInline = spec().toBuilder().set("inline_max_bytes", "0").build();
    CubedArray x0 = Cubed.fromArray(random(seed, 6, 7), (long[]) null, noInline);
    CubedArray y0 = Xp.sum(x0.multiply(x0).add(x0), 0);
    CubedArray z0 = x0.add(1.0);
    assertThat(Cubed.plan(List.of(y0, z0)).tiny()).isFalse();
    List<NDArray> viaExecutor = Cubed.compute(y0, z0);
    assertThat(inline.get(0).data()).isEqualTo(viaExecutor.get(0).data());
    assertThat(inline.get(1).data()).isEqualTo(viaExecutor.get(1).data());
    double[] xd = (double[]) x.compute().data();
    assertThat(((double[]) inline.get(1).data())[5]).isEqualTo(xd[5] + 1.0);
  }

  @Test
  void severalBlocksOrRechunksOrLargeArraysAreNotTiny() {
    Spec s = spec();
    CubedArray chunked = Cubed.fromArray(random(4, 6, 6), new long[] {3, 6}, s);
    assertThat(Cubed.plan(List.of(chunked.add(1.0))).tiny()).isFalse();
    CubedArray one = Cubed.fromArray(random(5, 6, 6), (long[]) null, s);
    // a rechunk read by another op (an output rechunk of an in-memory array is planned as its
    // input: OutputRechunksTest)
    assertThat(Cubed.plan(List.of(one.rechunk(3, 3).add(1.0))).tiny()).isFalse();
    CubedArray big = Cubed.fromArray(NDArray.zeros(DType.FLOAT64, 1 << 20), (long[]) null, s);
    assertThat(Cubed.plan(List.of(big.add(1.0))).tiny()).as("8 MiB > 4 MiB").isFalse();
  }

  @Test
  void aFailingBlockGoesThroughTheExecutorsRetries() {
    CubedArray x = Cubed.fromArray(random(6, 4, 4), (long[]) null, spec());
    AtomicInteger calls = new AtomicInteger();
    CubedArray y =
        Xp.mapBlocks(
            b -> {
              calls.incrementAndGet();
              throw new IllegalStateException("broken block");
            },
            DType.FLOAT64,
            x);
    assertThatThrownBy(() -> y.compute(ComputeOptions.executor(new ThreadsExecutor(1, 2))))
        .isInstanceOf(TaskFailedException.class)
        .hasRootCauseMessage("broken block");
    assertThat(calls.get()).as("one inline try, then the executor's 2 attempts").isEqualTo(3);
  }
}
