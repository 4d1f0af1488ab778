package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.NDArray;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
import dev.cubed.runtime.ThreadsExecutor;
import dev.cubed.runtime.processes.ProcessesExecutor;
import dev.cubed.testing.NDAssert;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plans over {@link Cubed#fromArray} data run on worker processes: the client stores the array's
 * blocks once and each worker reads only the blocks of its tasks (the array is never shipped).
 */
class FromArrayProcessesTest {
  @TempDir Path dir;
  private final Set<ProcessHandle> seen = ConcurrentHashMap.newKeySet();

  @AfterEach
  void noWorkerLeftBehind() throws Exception {
    for (ProcessHandle h : seen) {
      h.onExit().get(2, TimeUnit.MINUTES);
      assertThat(h.isAlive()).as("worker " + h.pid() + " outlived its compute").isFalse();
    }
  }

  private ProcessesExecutor processes(Spec spec) {
    ProcessesExecutor p =
        ProcessesExecutor.builder()
            .workers(2)
            .allowedMem(spec.allowedMem())
            .reservedMem(spec.reservedMem())
            .build();
    p.onWorkerStart(seen::addAll);
    return p;
  }

  @Test
  void fromArrayDataComputesOnWorkerProcessesAsOnThreads() {
    Spec spec =
        Spec.builder()
            .workDir(dir.resolve("w"))
            .allowedMem(100_000_000L)
            .reservedMem(10_000_000L)
            .build();
    double[] v = new double[300 * 200];
    for (int i = 0; i < v.length; i++) {
      v[i] = (i * 7919L) % 1000 - 500;
    }
    NDArray data = NDArray.of(v, 300, 200);
    CubedArray x = Cubed.fromArray(data, new long[] {70, 50}, spec);
    CubedArray irregular = Cubed.fromArray(data, new long[][] {{100, 150, 50}, {200}}, spec);
    List<CubedArray> exprs =
        List.of(
            Xp.sum(Xp.multiply(x, x), 0),
            Xp.rechunk(Xp.add(x, irregular), 300, 20),
            Xp.matmul(x, Xp.permuteDims(irregular, 1, 0)));
    List<Events.TaskEnd> ends = new CopyOnWriteArrayList<>();
    Callback record =
        new Callback() {
          @Override
          public void onTaskEnd(Events.TaskEnd e) {
            ends.add(e);
          }
        };
    for (CubedArray e : exprs) {
      NDArray got = e.compute(ComputeOptions.executor(processes(spec)).withCallback(record));
      NDArray want = e.compute(ComputeOptions.executor(new ThreadsExecutor(2, 1)));
      NDAssert.assertExact(want, got, "processes vs threads");
    }
    assertThat(ends).isNotEmpty();
    assertThat(ends).allSatisfy(e -> assertThat(e.worker()).startsWith("worker pid "));
  }

  /**
   * The array (100 MB) is larger than a worker's heap (-Xmx = allowedMem = 64 MB): had it been
   * shipped with the task functions, no worker could even load them. Each task reads one 8 MB
   * block.
   */
  @Test
  void aWorkerHeapSmallerThanTheArrayIsEnough() {
    long allowed = 64L << 20;
    Spec spec =
        Spec.builder().workDir(dir.resolve("w")).allowedMem(allowed).reservedMem(8L << 20).build();
    int n = 12_500_000;
    double[] v = new double[n];
    double want = 0;
    for (int i = 0; i < n; i++) {
      v[i] = i % 1000;
      want += v[i];
    }
    NDArray data = NDArray.of(v, n);
    assertThat((long) n * Double.BYTES).isGreaterThan(allowed);
    CubedArray x = Cubed.fromArray(data, new long[] {1_000_000}, spec);
    NDArray got = Xp.sum(Xp.add(x, x)).compute(ComputeOptions.executor(processes(spec)));
    assertThat(got.getDouble(0)).isEqualTo(2 * want);
  }
}
