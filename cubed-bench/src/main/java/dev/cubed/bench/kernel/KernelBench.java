package dev.cubed.bench.kernel;

import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.elementwise.Elementwise;
import dev.cubed.nd.linalg.Linalg;
import dev.cubed.nd.reduce.Statistics;
import dev.cubed.nd.sort.Sorting;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The kernel operations whose speed issue 2 sets targets for, each timed beside NumPy's timing of
 * the same operation on the same data sizes by {@code scripts/perf/kernel_numpy.py}. Inputs are
 * uniform random doubles in [0, 1) from a fixed seed. Average time per call, milliseconds. The
 * fork's heap is in transparent huge pages, as NumPy's large arrays are on Linux (NumPy asks for
 * them), so both sides stream memory with the same page size; the {@code ./cubed} launcher offers
 * this as an option (docs/cli.md).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
@Fork(
    value = 1,
    jvmArgsAppend = {
      "-Xms8g",
      "-Xmx8g",
      "-XX:+UseParallelGC",
      "-XX:+AlwaysPreTouch",
      "-XX:+UseTransparentHugePages"
    })
public class KernelBench {

  static NDArray random(long seed, long... shape) {
    NDArray a = NDArray.zeros(DType.FLOAT64, shape);
    double[] d = (double[]) a.data();
    SplittableRandom r = new SplittableRandom(seed);
    for (int i = 0; i < d.length; i++) {
      d[i] = r.nextDouble();
    }
    return a;
  }

  /** Two float64 arrays of 16M (2^24) elements. */
  @State(Scope.Benchmark)
  public static class AddState {
    NDArray x;
    NDArray y;

    @Setup
    public void setup() {
      x = random(1, 1L << 24);
      y = random(2, 1L << 24);
    }
  }

  /** A 4000 x 4000 float64 array. */
  @State(Scope.Benchmark)
  public static class SumState {
    NDArray x;

    @Setup
    public void setup() {
      x = random(3, 4000, 4000);
    }
  }

  /** Two 2000 x 2000 float64 matrices. */
  @State(Scope.Benchmark)
  public static class MatmulState {
    NDArray a;
    NDArray b;

    @Setup
    public void setup() {
      a = random(4, 2000, 2000);
      b = random(5, 2000, 2000);
    }
  }

  /** 10M float64 values. */
  @State(Scope.Benchmark)
  public static class SortState {
    NDArray x;

    @Setup
    public void setup() {
      x = random(6, 10_000_000);
    }
  }

  @Benchmark
  public NDArray add_f64_16M(AddState s) {
    return Elementwise.add(s.x, s.y);
  }

  @Benchmark
  public NDArray sum_axis0_f64_4000x4000(SumState s) {
    return Statistics.sum(s.x, Axes.of(0));
  }

  @Benchmark
  public NDArray sum_axis1_f64_4000x4000(SumState s) {
    return Statistics.sum(s.x, Axes.of(1));
  }

  @Benchmark
  @Measurement(iterations = 5, time = 5)
  public NDArray matmul_f64_2000(MatmulState s) {
    return Linalg.matmul(s.a, s.b);
  }

  @Benchmark
  @Measurement(iterations = 5, time = 5)
  public NDArray sort_f64_10M(SortState s) {
    return Sorting.sort(s.x);
  }
}
