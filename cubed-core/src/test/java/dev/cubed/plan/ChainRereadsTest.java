package dev.cubed.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.Xp;
import dev.cubed.nd.DType;
import dev.cubed.nd.Index;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.PlanConfig;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.MemoryStore;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fused array whose blocks the consuming op's tasks would compute more than once deep in its
 * chain ({@link ChainRereads}) is stored instead: a row of a stored array broadcast over another
 * reads the row's chunks once, not once per block-row of the other.
 */
class ChainRereadsTest {
  @TempDir Path dir;

  Spec spec() {
    return Spec.builder().workDir(dir).allowedMem("1GB").reservedMem(1000).build();
  }

  /**
   * A (rows x cols) float64 Zarr array in memory, chunks 10 x 10, element (i, j) = i * cols + j +
   * seed.
   */
  static ZarrArray stored(String name, long rows, long cols, double seed) {
    ZarrArray z =
        ZarrArray.create(new MemoryStore(), name)
            .shape(new long[] {rows, cols})
            .chunks(new long[] {10, 10})
            .dtype(DType.FLOAT64)
            .build();
    double[] v = new double[(int) (rows * cols)];
    for (int i = 0; i < v.length; i++) {
      v[i] = i + seed;
    }
    z.write(new long[] {0, 0}, NDArray.of(v, rows, cols));
    return z;
  }

  @Test
  void broadcastRowOfStoredArrayReadsItsChunksOnce() {
    CubedArray a = Cubed.fromZarr(stored("a", 60, 40, 0), spec());
    CubedArray b = Cubed.fromZarr(stored("b", 30, 40, 0.5), spec());
    CubedArray y = Xp.sum(Xp.multiply(a, Xp.getItem(b, Index.at(0), Index.all())));
    PlanSummary s = y.plan();
    long chunk = 10 * 10 * 8;
    // A's 24 chunks and B's 4 chunks of row 0, each read once; then the row (4 blocks of 10
    // elements) read once per block of A, and the partial sums
    long stored = 24 * chunk + 4 * chunk;
    assertThat(s.totalBytesRead()).isBetween(stored, stored + 24 * 10 * 8 + 1000);
    PlanSummary.OpInfo row = s.ops().get(0);
    assertThat(row.tasks()).isEqualTo(4);
    assertThat(row.bytesRead()).isEqualTo(4 * chunk);
    double want = 0;
    for (int i = 0; i < 60; i++) {
      for (int j = 0; j < 40; j++) {
        want += (i * 40.0 + j) * (j + 0.5);
      }
    }
    assertThat(y.compute().getDouble(0)).isEqualTo(want);
  }

  @Test
  void sharedBlockNeededTwiceInOneTaskStaysFused() {
    CubedArray x = Cubed.fromZarr(stored("x", 40, 40, 0), spec());
    CubedArray a = Xp.multiply(x, 2.0);
    CubedArray y = Xp.sum(Xp.add(Xp.multiply(a, a), a));
    PlanSummary s = y.plan();
    assertThat(s.ops().get(0).tasks()).isEqualTo(16);
    // a (a multiply) stays fused in the first op beside multiply(a, a) and add: nothing stored
    assertThat(new HashSet<>(s.ops().get(0).fused()))
        .filteredOn(n -> n.startsWith("multiply"))
        .hasSize(2);
  }

  /** Calls of the key functions of {@link #planningAnArrayOfTenMillionBlocksWalksABoundedPart}. */
  static final AtomicLong KEY_CALLS = new AtomicLong();

  /** An elementwise op over one input: block k of the output reads block k of the input. */
  static ArrayNode.Computed elementwise(String name, ArrayNode in) {
    Blockwise op =
        new Blockwise(
            name,
            k -> {
              KEY_CALLS.incrementAndGet();
              return List.of(new BlockKeys.One(k));
            },
            (args, k) -> (NDArray) args.get(0),
            new int[] {1},
            new int[] {1},
            0);
    return new ArrayNode.Computed(op, List.of(in), in.shape(), in.chunks(), in.dtype(), null);
  }

  /**
   * Planning a chain four ops deep over 10^7 one-element blocks walks a bounded part of the tasks
   * looking for rereads deep in the chain, not every task through the whole chain: one key call per
   * task for the direct input's rereads ({@code Plan.rereads}) and at most {@link
   * ChainRereads#MAX_VISITS} more, not tasks x chain (4 x 10^7 key calls before the bound).
   */
  @Test
  void planningAnArrayOfTenMillionBlocksWalksABoundedPart() {
    long blocks = 10_000_000L;
    ArrayNode v =
        new ArrayNode.Virtual(
            "ones",
            new long[] {blocks},
            new long[] {1},
            DType.FLOAT64,
            (coords, shape) -> NDArray.of(new double[] {1}, 1));
    ArrayNode out = v;
    for (String name : List.of("neg", "abs", "sqrt", "exp")) {
      out = elementwise(name, out);
    }
    KEY_CALLS.set(0);
    Plan plan = Plan.of(List.of(out), PlanConfig.builder(dir).build());
    assertThat(plan.summary().ops()).hasSize(1);
    assertThat(KEY_CALLS.get()).isLessThanOrEqualTo(blocks + 2 * ChainRereads.MAX_VISITS);
  }
}
