package dev.cubed.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.ComputeOptions;
import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.Xp;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
import dev.cubed.runtime.Executor;
import dev.cubed.runtime.ThreadsExecutor;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.Stores;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An in-memory input ({@link Cubed#fromArray}, regular and irregular chunks) combined with a stored
 * Zarr array, computed on an executor whose tasks run elsewhere (Spark, Beam) and compared exactly
 * with the threads executor's answer. Shared by those executors' tests through cubed-core's
 * test-jar.
 */
public final class FromArrayCase {
  private FromArrayCase() {}

  /** The in-memory array (120 x 90 float64). */
  public static NDArray data() {
    double[] v = new double[120 * 90];
    for (int i = 0; i < v.length; i++) {
      v[i] = (i * 7919L) % 1000 - 500;
    }
    return NDArray.of(v, 120, 90);
  }

  /** Writes the stored input (120 x 90 float64, chunks 40 x 30) at {@code location}. */
  public static void writeStored(String location) {
    NDArray a = NDArray.zeros(DType.FLOAT64, 120, 90);
    for (int i = 0; i < a.size(); i++) {
      a.setDouble(i, (i % 37) * 0.5);
    }
    ZarrArray.create(Stores.open(location), "")
        .shape(120, 90)
        .chunks(40, 30)
        .dtype(DType.FLOAT64)
        .build()
        .write(new long[2], a);
  }

  /** The expressions: each combines the in-memory input with the stored one. */
  public static List<CubedArray> expressions(String stored, Spec spec) {
    CubedArray x = Cubed.fromArray(data(), new long[] {30, 45}, spec);
    CubedArray irregular = Cubed.fromArray(data(), new long[][] {{50, 70}, {90}}, spec);
    CubedArray s = Cubed.fromZarr(stored, spec);
    return List.of(
        Xp.sum(Xp.multiply(Xp.add(x, s), x), 0), Xp.rechunk(Xp.subtract(s, irregular), 120, 10));
  }

  /**
   * Computes each expression on {@code executor} and on the threads executor and asserts equal
   * results.
   *
   * @return the task-end events of the runs on {@code executor} (at least one)
   */
  public static List<Events.TaskEnd> checkAgainstThreads(
      Executor executor, String stored, Spec spec) {
    return checkAgainstThreads(
        ComputeOptions.executor(executor), executor.getClass().getSimpleName(), stored, spec);
  }

  /**
   * Computes each expression with {@code options} (without an executor: the spec's) and on the
   * threads executor and asserts equal results.
   *
   * @return the task-end events of the runs with {@code options} (at least one)
   */
  public static List<Events.TaskEnd> checkAgainstThreads(
      ComputeOptions options, String label, String stored, Spec spec) {
    List<Events.TaskEnd> ends = new CopyOnWriteArrayList<>();
    Callback record =
        new Callback() {
          @Override
          public void onTaskEnd(Events.TaskEnd e) {
            ends.add(e);
          }
        };
    for (CubedArray e : expressions(stored, spec)) {
      NDArray got = e.compute(options.withCallback(record));
      NDArray want = e.compute(ComputeOptions.executor(new ThreadsExecutor(2, 1)));
      NDAssert.assertExact(want, got, label + " vs threads");
    }
    assertThat(ends).isNotEmpty();
    return ends;
  }
}
