package dev.cubed.runtime.processes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.elementwise.FastTrig;
import dev.cubed.runtime.InsufficientHeapException;
import dev.cubed.runtime.Operation;
import dev.cubed.runtime.TileJitOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The worker heap bounds of the processes executor: per plan, per op (strict), and the check. */
class WorkerHeapBoundsTest {
  private static final long MIB = 1L << 20;

  static Operation op(String name, long projected) {
    return new Operation(name, List.<long[]>of(new long[] {0}), key -> {}, projected);
  }

  @Test
  void planBoundIsAllowedMemElseLargestProjectionRoundedUpWithAFloor() {
    List<Operation> ops = List.of(op("a", 100 * MIB + 1), op("b", 3 * MIB));
    assertThat(WorkerHeapBounds.forPlan(ops, 500_000_000L)).isEqualTo(500_000_000L);
    assertThat(WorkerHeapBounds.forPlan(ops, 1_000L)).isEqualTo(64 * MIB);
    assertThat(WorkerHeapBounds.forPlan(ops, 0)).isEqualTo(101 * MIB);
    assertThat(WorkerHeapBounds.forPlan(List.of(op("c", 5)), 0)).isEqualTo(64 * MIB);
  }

  @Test
  void opBoundCoversTheProjectionMinusReservedPlusIdleHeapInWholeMiB() {
    long reserved = 50 * MIB;
    long b = WorkerHeapBounds.forOp(op("a", 300 * MIB), reserved);
    assertThat(b % MIB).isZero();
    assertThat(b)
        .isGreaterThanOrEqualTo(
            300 * MIB
                - reserved
                + WorkerHeapBounds.IDLE_HEAP_ALLOWANCE
                + ClassPathIndex.workerHeapBytes());
    // a tiny op still gets room for a fresh worker loading codecs and functions
    assertThat(WorkerHeapBounds.forOp(op("tiny", 4096), 0)).isGreaterThanOrEqualTo(8 * MIB);
  }

  @Test
  void aTaskAboveTheBoundIsRefusedByName() {
    WorkerHeapBounds.checkFits(List.of(op("fits", 64 * MIB)), 64 * MIB);
    assertThatThrownBy(
            () ->
                WorkerHeapBounds.checkFits(
                    List.of(op("fits", MIB), op("big", 64 * MIB + 1)), 64 * MIB))
        .isInstanceOf(InsufficientHeapException.class)
        .hasMessageContaining("operation big is projected to need 67,108,865 bytes")
        .hasMessageContaining("nothing was run");
  }

  /** A worker runs with the Vector API module (when this JVM has it) and FastTrig's JIT options. */
  @Test
  void aWorkersCommandLineCarriesTheVectorModuleAndTrigJitOptions() {
    List<String> c = new WorkerProcess.Settings(64 * MIB, List.of("-Dx=1")).command();
    assertThat(c).contains("-Xmx" + 64 * MIB, "-Dx=1");
    if (ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()) {
      assertThat(c)
          .containsSequence("--add-modules", "jdk.incubator.vector")
          .containsAll(FastTrig.JIT_OPTIONS);
      // quiet first: the JVM would otherwise echo the option on the worker's protocol stream
      assertThat(c.indexOf("-XX:CompileCommand=quiet"))
          .isLessThan(c.indexOf(FastTrig.JIT_OPTIONS.get(1)));
    }
  }

  /** A worker runs tiled reductions: it gets the tile drivers' JIT options, quiet first. */
  @Test
  void aWorkersCommandLineCarriesTheTileDriversJitOptions() {
    List<String> c = new WorkerProcess.Settings(64 * MIB, List.of()).command();
    assertThat(c).containsAll(TileJitOptions.OPTIONS);
    assertThat(c.indexOf("-XX:CompileCommand=quiet"))
        .isLessThan(c.indexOf(TileJitOptions.OPTIONS.get(1)));
  }
}
