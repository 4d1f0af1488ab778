package dev.cubed.plan.eval;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cubed.core.Core;
import dev.cubed.core.Reductions;
import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.elementwise.Elementwise;
import dev.cubed.nd.reduce.Statistics;
import dev.cubed.plan.Plan;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.PlanConfig;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.runtime.ThreadsExecutor;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Tiled pointwise-to-reduction chains ({@link Tiles}): results equal the untiled evaluation for
 * every reduction, dtype and set of reduced axes (seeded random shapes and chunks over real Zarr
 * arrays, tiles small enough to split reduced axes too); projected memory counts tiles instead of
 * the chain's blocks; chains that are not pointwise or broadcast fall back to whole blocks.
 */
class TiledReductionTest {
  @TempDir Path dir;

  private PlanConfig cfg(long allowed) {
    return PlanConfig.builder(dir.resolve("work")).memory(allowed, 1000).copies(1, 1).build();
  }

  /** Plans tiled at {@code tileBytes} (0: untiled), never run inline. */
  private PlanConfig cfg(long allowed, long tileBytes) {
    return cfg(allowed).toBuilder().tileBytes(tileBytes).inlineMaxBytes(0).build();
  }

  private ArrayNode stored(String name, DType t, long[] shape, long[] chunks, Random r) {
    ZarrArray z =
        ZarrArray.create(new FileSystemStore(dir.resolve("in")), name)
            .shape(shape)
            .chunks(chunks)
            .dtype(t)
            .build();
    NDArray a = NDArray.zeros(t, shape);
    for (int i = 0; i < a.size(); i++) {
      switch (t.kind()) {
        case BOOL -> a.setBoolean(i, r.nextInt(3) == 0);
        case FLOAT -> a.setDouble(i, 0.5 + r.nextDouble());
        // few distinct values: ties for min/max/argmin/argmax
        case UNSIGNED -> a.setLong(i, r.nextInt(6));
        default -> a.setLong(i, r.nextInt(9) - 4);
      }
    }
    z.write(new long[shape.length], a);
    return new ArrayNode.Stored(z);
  }

  /** Two pointwise ops over two stored arrays: {@code (x * w - x) + x}, for bool xor then or. */
  private static ArrayNode chain(ArrayNode x, ArrayNode w) {
    boolean bool = x.dtype() == DType.BOOL;
    Core.Pointwise f =
        bool
            ? b -> Elementwise.logicalXor(b[0], b[1])
            : b -> Elementwise.subtract(Elementwise.multiply(b[0], b[1]), b[0]);
    Core.Pointwise g =
        bool ? b -> Elementwise.logicalOr(b[0], b[1]) : b -> Elementwise.add(b[0], b[1]);
    ArrayNode p = Core.pointwise("f", f, dtypeOf(f, x.dtype()), x, w);
    return Core.pointwise("g", g, dtypeOf(g, x.dtype()), p, x);
  }

  private static DType dtypeOf(Core.BlocksFunction f, DType in) {
    try {
      return f.apply(NDArray.ones(in, 1), NDArray.ones(in, 1)).dtype();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static final DType[] DTYPES = {
    DType.FLOAT64, DType.FLOAT32, DType.INT32, DType.INT64, DType.UINT8, DType.BOOL
  };

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
  void tiledResultsEqualUntiledForEveryReduction(int seed) throws Exception {
    Random r = new Random(seed);
    DType t = DTYPES[(seed - 1) % DTYPES.length];
    RandomGrid g = RandomGrid.draw(r, 9, 9);
    int nd = g.shape().length;
    long[] shape = g.shape();
    long[] chunks = g.chunks();
    ArrayNode x = stored("x", t, shape, chunks, r);
    ArrayNode w = stored("w", t, shape, chunks, r);
    ArrayNode c = chain(x, w);
    List<Integer> axes = new ArrayList<>();
    for (int d = 0; d < nd; d++) {
      if (r.nextBoolean()) {
        axes.add(d);
      }
    }
    if (axes.isEmpty()) {
      axes.add(r.nextInt(nd));
    }
    int[] red = axes.stream().mapToInt(Integer::intValue).toArray();
    int argAxis = r.nextInt(nd);
    List<Reductions.Op> ops = new ArrayList<>();
    List<ArrayNode> outs = new ArrayList<>();
    for (Reductions.Op op : Reductions.Op.values()) {
      if (op == Reductions.Op.STD
          || (t == DType.BOOL
              && (op == Reductions.Op.MEAN
                  || op == Reductions.Op.VAR
                  || op == Reductions.Op.NANMEAN
                  || op == Reductions.Op.NANVAR
                  || op == Reductions.Op.NANSTD))) {
        continue;
      }
      boolean arg =
          op == Reductions.Op.ARGMIN
              || op == Reductions.Op.ARGMAX
              || op == Reductions.Op.NANARGMIN
              || op == Reductions.Op.NANARGMAX;
      ops.add(op);
      outs.add(Reductions.reduce(c, op, arg ? new int[] {argAxis} : red, false, 2, 1));
    }
    // every reduction's first round has a tileable chain: both pointwise ops, x and w as leaves
    for (ArrayNode o : outs) {
      Tiles.Chain ch = Tiles.chain(initialOf(o), n -> n instanceof ArrayNode.Computed, 16, null);
      assertNotNull(ch, o.name());
      assertEquals(2, ch.nodes().size());
      assertEquals(List.of(x.name(), w.name()), ch.leaves().stream().map(ArrayNode::name).toList());
    }
    List<NDArray> plain =
        Plan.of(outs, cfg(1L << 30, 0)).execute(new ThreadsExecutor(2, 1), List.of());
    // 16 bytes per tile: at most two elements, so reduced axes are split and states merged;
    // 256 bytes: tiles span the reduced axes where they fit
    for (long tb : new long[] {16, 256}) {
      List<NDArray> tiled =
          Plan.of(outs, cfg(1L << 30, tb)).execute(new ThreadsExecutor(2, 1), List.of());
      for (int i = 0; i < outs.size(); i++) {
        assertClose(
            plain.get(i),
            tiled.get(i),
            ops.get(i)
                + " of "
                + t
                + " shape "
                + Arrays.toString(shape)
                + " chunks "
                + Arrays.toString(chunks)
                + " axes "
                + axes
                + " tileBytes "
                + tb);
      }
    }
  }

  private static ArrayNode.Computed initialOf(ArrayNode n) {
    ArrayNode.Computed c = (ArrayNode.Computed) n;
    while (!(c.op().function() instanceof TileReduction)) {
      c = (ArrayNode.Computed) c.inputs().get(0);
    }
    return c;
  }

  /** Exact for integers, bools and indices; relative 1e-9 for floating results. */
  private static void assertClose(NDArray want, NDArray got, String what) {
    assertEquals(want.dtype(), got.dtype(), what);
    assertArrayEquals(want.shape(), got.shape(), what);
    for (int i = 0; i < want.size(); i++) {
      if (want.dtype().isFloating()) {
        double a = want.getDouble(i);
        double b = got.getDouble(i);
        assertTrue(
            a == b
                || Math.abs(a - b) <= 1e-9 * Math.abs(a) + 1e-12
                || (Double.isNaN(a) && Double.isNaN(b)),
            what + " element " + i + ": " + a + " vs " + b);
      } else {
        assertEquals(want.getObject(i), got.getObject(i), what + " element " + i);
      }
    }
  }

  /** U and V (24, 1, 6, 40) float64 in chunks (4, 1, 6, 40): 7,680 B blocks, 6 along time. */
  private List<ArrayNode> uv() {
    Random r = new Random(5);
    long[] shape = {24, 1, 6, 40};
    long[] chunks = {4, 1, 6, 40};
    return List.of(
        stored("U", DType.FLOAT64, shape, chunks, r), stored("V", DType.FLOAT64, shape, chunks, r));
  }

  private static ArrayNode meanOf(ArrayNode a, ArrayNode b) {
    ArrayNode p =
        Core.pointwise("multiply", bl -> Elementwise.multiply(bl[0], bl[1]), DType.FLOAT64, a, b);
    return Reductions.reduce(p, Reductions.Op.MEAN, new int[] {0}, false, 4, 0);
  }

  private static PlanSummary.OpInfo opFusing(Plan p, String prefix) {
    return p.summary().ops().stream()
        .filter(o -> o.fused().stream().anyMatch(f -> f.startsWith(prefix)))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no op fusing " + prefix + ": " + p.summary()));
  }

  @Test
  void projectionOfAFusedPointwiseToMeanTaskCountsTiles() throws Exception {
    List<ArrayNode> uv = uv();
    ArrayNode mean = meanOf(uv.get(0), uv.get(1));
    // 1,024 B per tile = 128 float64 elements: a (4, 1, 6, 40) block is cut into tiles of
    // (4, 1, 1, 32) (the time axis, reduced, stays whole): 6 x 2 = 12 tiles per block
    Tiles.Chain ch = Tiles.chain(initialOf(mean), n -> n instanceof ArrayNode.Computed, 1024, null);
    assertArrayEquals(new long[] {4, 1, 1, 32}, ch.tileShape());
    assertEquals(12, ch.tiles());
    // a tile of the product, of U and of V (128 x 8 B each) and the tile's mean state (32 x 8: a
    // mean of floats carries one float64 total per element, the count comes from the shape)
    assertEquals(3 * 1024 + 256, ch.tileBytes());
    long block = 4 * 6 * 40 * 8;
    long state = 6 * 40 * 8;
    Plan tiled = Plan.of(List.of(mean), cfg(1L << 30, 1024));
    Plan plain = Plan.of(List.of(mean), cfg(1L << 30, 0));
    // the first partial round (2 tasks streaming 4 first-round states each) is stored; its task:
    // reservedMem + accumulator and output + one first-round state + U and V with a read copy
    // each + (tiled) one tile of each array / (untiled) the product block + the written chunk
    long common = 1000 + 2 * state + state + 4 * block + state;
    PlanSummary.OpInfo t = opFusing(tiled, "mean-initial-");
    PlanSummary.OpInfo u = opFusing(plain, "mean-initial-");
    assertEquals(common + ch.tileBytes(), t.projectedMem(), t.toString());
    assertEquals(common + block, u.projectedMem(), u.toString());
    List<NDArray> got = tiled.execute(new ThreadsExecutor(2, 1), List.of());
    NDArray want =
        Statistics.mean(Elementwise.multiply(read(uv.get(0)), read(uv.get(1))), Axes.of(0));
    assertClose(want, got.get(0), "tiled mean of U*V");
  }

  private static NDArray read(ArrayNode stored) {
    return ((ArrayNode.Stored) stored).array().read();
  }

  @Test
  void foldGroupOfThreeMeansCountsAccumulatorsAndTilesNotProductBlocks() throws Exception {
    List<ArrayNode> uv = uv();
    ArrayNode u = uv.get(0);
    ArrayNode v = uv.get(1);
    List<ArrayNode> outs = List.of(meanOf(u, u), meanOf(v, v), meanOf(u, v));
    Plan tiled = Plan.of(outs, cfg(1L << 30, 1024));
    Plan plain = Plan.of(outs, cfg(1L << 30, 0));
    long block = 4 * 6 * 40 * 8;
    long state = 6 * 40 * 8;
    // U and V decoded + one read copy (reads run one at a time); writes come after the last step
    long sources = 3 * block;
    // u*u and v*v: tiles of the product and of one leaf; u*v: of the product and two leaves;
    // each with a tile state of 32 float64
    long tiles = (2 * 1024 + 256) * 2 + 3 * 1024 + 256;
    PlanSummary.OpInfo t = opFusing(tiled, "mean-initial-");
    assertTrue(t.name().endsWith("+2"), t.name());
    assertEquals(
        1000 + 3 * state + tiles + Math.max(sources, state), t.projectedMem(), t.toString());
    // untiled: per member accumulator, output, first-round state and product block
    PlanSummary.OpInfo p = opFusing(plain, "mean-initial-");
    assertEquals(
        1000 + 3 * (3 * state + block) + Math.max(sources, state), p.projectedMem(), p.toString());
    List<NDArray> a = tiled.execute(new ThreadsExecutor(2, 1), List.of());
    List<NDArray> b = plain.execute(new ThreadsExecutor(2, 1), List.of());
    for (int k = 0; k < 3; k++) {
      assertClose(b.get(k), a.get(k), "mean " + k);
    }
  }

  @Test
  void chainsThatAreNotPointwiseFallBackToWholeBlocksAndBroadcastInputsAreLeaves()
      throws Exception {
    List<ArrayNode> uv = uv();
    ArrayNode u = uv.get(0);
    ArrayNode v = uv.get(1);
    // not declared pointwise (Core.elemwise): whole blocks, the same projection either way
    ArrayNode plainProduct =
        Core.elemwise("multiply", bl -> Elementwise.multiply(bl[0], bl[1]), DType.FLOAT64, u, v);
    ArrayNode m1 = Reductions.reduce(plainProduct, Reductions.Op.SUM, new int[] {0}, false, 4, 0);
    assertNull(Tiles.chain(initialOf(m1), n -> n instanceof ArrayNode.Computed, 1024, null));
    // a broadcast input ((6, 40) against (24, 1, 6, 40)): tiled, the row a broadcast leaf held
    // whole (its tiles repeat it along the leading axes)
    ArrayNode row =
        stored("row", DType.FLOAT64, new long[] {6, 40}, new long[] {6, 40}, new Random(3));
    ArrayNode scaled =
        Core.pointwise("multiply", bl -> Elementwise.multiply(bl[0], bl[1]), DType.FLOAT64, u, row);
    ArrayNode m2 = Reductions.reduce(scaled, Reductions.Op.MAX, new int[] {0, 2}, false, 4, 0);
    Tiles.Chain bch = Tiles.chain(initialOf(m2), n -> n instanceof ArrayNode.Computed, 1024, null);
    assertNotNull(bch);
    assertEquals(
        List.of(u.name(), row.name()), bch.leaves().stream().map(ArrayNode::name).toList());
    assertTrue(bch.broadcastLeaf(row) && !bch.broadcastLeaf(u));
    // a pointwise op over a fused op that is not pointwise: tiled, that op a whole-block leaf
    ArrayNode shifted =
        Core.pointwise("add", bl -> Elementwise.add(bl[0], bl[1]), DType.FLOAT64, plainProduct, u);
    ArrayNode m3 = Reductions.reduce(shifted, Reductions.Op.VAR, new int[] {0}, false, 4, 0);
    Tiles.Chain ch = Tiles.chain(initialOf(m3), n -> n instanceof ArrayNode.Computed, 1024, null);
    assertNotNull(ch);
    assertEquals(
        List.of(plainProduct.name(), u.name()), ch.leaves().stream().map(ArrayNode::name).toList());
    List<ArrayNode> outs = List.of(m1, m2, m3);
    Plan tiled = Plan.of(outs, cfg(1L << 30, 1024));
    Plan plain = Plan.of(outs, cfg(1L << 30, 0));
    assertEquals(
        opFusing(plain, "sum-initial-").projectedMem(),
        opFusing(tiled, "sum-initial-").projectedMem());
    assertTrue(
        opFusing(tiled, "max-initial-").projectedMem()
            < opFusing(plain, "max-initial-").projectedMem(),
        "no block of the product is held");
    List<NDArray> a = tiled.execute(new ThreadsExecutor(2, 1), List.of());
    List<NDArray> b = plain.execute(new ThreadsExecutor(2, 1), List.of());
    NDArray ua = read(u);
    NDArray va = read(v);
    NDArray wantSum = Statistics.sum(Elementwise.multiply(ua, va), Axes.of(0));
    assertClose(wantSum, a.get(0), "sum");
    NDArray wantMax = Statistics.max(Elementwise.multiply(ua, read(row)), Axes.of(0, 2));
    assertClose(wantMax, a.get(1), "max");
    for (int k = 0; k < 3; k++) {
      assertClose(b.get(k), a.get(k), "output " + k);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5, 6})
  void aReductionOverAnInMemoryArrayCutsItsTilesFromTheHeldArray(int seed) throws Exception {
    Random r = new Random(seed);
    RandomGrid g = RandomGrid.draw(r, 9, 9);
    NDArray a = NDArray.zeros(DType.FLOAT64, g.shape());
    for (int i = 0; i < a.size(); i++) {
      a.setDouble(i, r.nextInt(4) == 0 ? Double.NaN : r.nextDouble());
    }
    ArrayNode held = Core.fromArray(a, g.chunks());
    int axis = r.nextInt(g.shape().length);
    List<ArrayNode> outs = new ArrayList<>();
    for (Reductions.Op op :
        new Reductions.Op[] {
          Reductions.Op.NANSUM, Reductions.Op.NANCOUNT, Reductions.Op.NANMEAN, Reductions.Op.MAX
        }) {
      outs.add(Reductions.reduce(held, op, new int[] {axis}, false, 2, 0));
    }
    for (ArrayNode o : outs) {
      Tiles.Chain ch = Tiles.chain(initialOf(o), n -> n instanceof ArrayNode.Computed, 16, null);
      assertNotNull(ch, o.name());
      assertEquals(List.of(held.name()), ch.leaves().stream().map(ArrayNode::name).toList());
      assertTrue(ch.nodes().isEmpty());
      // the memory model still counts the block (a worker JVM reads it whole from a stored copy)
      assertTrue(!ch.regionLeaf(held));
    }
    List<NDArray> plain =
        Plan.of(outs, cfg(1L << 30, 0)).execute(new ThreadsExecutor(2, 1), List.of());
    for (long tb : new long[] {16, 256, 1 << 20}) {
      List<NDArray> tiled =
          Plan.of(outs, cfg(1L << 30, tb)).execute(new ThreadsExecutor(2, 1), List.of());
      for (int i = 0; i < outs.size(); i++) {
        assertClose(plain.get(i), tiled.get(i), outs.get(i).name() + " tileBytes " + tb);
      }
    }
  }
}
