package dev.cubed.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.Spec;
import dev.cubed.runtime.ThreadsExecutor;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Workloads#planHeap}: the heap a bench run needs is derived from its plans without running
 * them, and the run then fits that heap at full concurrency.
 */
class PlanHeapTest {
  @TempDir Path dir;

  /**
   * add plans two computes (write C, then sum C read back); probing plans both without running: C
   * gets its metadata but no chunk, and the need is at least the first plan's heapNeeded at the
   * run's workers and at most that plus the slack.
   */
  @Test
  void addIsPlannedNotRun() throws Exception {
    BenchContext ctx = new BenchContext("threads", 3, 300_000_000L, dir);
    Map<String, Long> p = Workloads.params("n", 40, "m", 40, "c", 10);
    long heap = Workloads.planHeap(new Add(), p, ctx);
    long block = 10 * 10 * 8;
    long reserved = Spec.fromEnv().reservedMem();
    // at least three tasks' own part (each holds more than one block); reservedMem is the JVM's
    // own overhead, not heap
    assertThat(heap).isGreaterThan(3 * block);
    // and no more than three whole projections (reserved counted three times) plus the slack
    long spec = ThreadsExecutor.heapNeeded(3, 300_000_000L, 0, 0);
    assertThat(heap).isLessThan(spec);
    ZarrArray c =
        ZarrArray.open(
            new FileSystemStore(ctx.outputsDir().resolve(InputCache.key("add", "out", p))), "C");
    assertThat(c.shape()).containsExactly(40, 40);
    for (long i = 0; i < 4; i++) {
      for (long j = 0; j < 4; j++) {
        assertThat(c.chunkExists(i, j))
            .as("chunk %d.%d of C written while probing", i, j)
            .isFalse();
      }
    }
  }

  /** The need grows with the workers by the tasks' own part, reservedMem not counted. */
  @Test
  void needGrowsWithWorkersByTheTasksOwnPart() throws Exception {
    Map<String, Long> p = Workloads.params("n", 400, "m", 400, "c", 200);
    // both probed beside the same heap in use: the heap in use at the moment of each probe moves
    // by tens of MB with the collector (a CI run saw -27 MB), which is not what is measured here
    BenchContext ctx1 = new BenchContext("threads", 1, 300_000_000L, dir);
    BenchContext ctx4 = new BenchContext("threads", 4, 300_000_000L, dir);
    Workloads.planHeap(new Matmul(), p, ctx1); // prepares the inputs and the library
    Workloads.planHeap(new Matmul(), p, ctx4);
    long baseline = 64L << 20;
    long one = Workloads.planHeapBeside(new Matmul(), p, ctx1, baseline);
    long four = Workloads.planHeapBeside(new Matmul(), p, ctx4, baseline);
    long reserved = Spec.fromEnv().reservedMem();
    long block = 200 * 200 * 8;
    // a matmul task holds its running sum and one block of each operand: 3 blocks of its own
    long grow = four - one;
    assertThat(grow).isBetween(3 * 3 * block - (8L << 20), 3 * 3 * block + (8L << 20));
    assertThat(grow).as("reservedMem not counted per worker").isLessThan(3 * reserved);
  }
}
