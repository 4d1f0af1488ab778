package dev.cubed.plan.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cubed.core.Core;
import dev.cubed.core.Reductions;
import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.nd.elementwise.Elementwise;
import dev.cubed.nd.reduce.Statistics;
import dev.cubed.plan.Plan;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.PlanConfig;
import dev.cubed.runtime.ThreadsExecutor;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Pointwise chains with an input that broadcasts to them (a row {@code b[0, :]} times {@code a}, an
 * array minus its mean kept with {@code keepdims}) are tiled: the broadcast input is a leaf whose
 * block is the one the op's keys name, and each tile repeats that block's region along the
 * broadcast axes ({@link NDArray#broadcastBox}), so no block-sized broadcast copy or product is
 * made. Results equal the whole-block evaluation (tileBytes 0) and NumPy-style broadcasting for
 * seeded random shapes, chunks, broadcast patterns and tile sizes; chains written to a store stay
 * untiled for broadcast inputs (their runs are flat).
 */
class TiledBroadcastTest {
  @TempDir Path dir;

  private PlanConfig cfg(long tileBytes) {
    return PlanConfig.builder(dir.resolve("work"))
        .memory(1L << 30, 1000)
        .copies(1, 1)
        .build()
        .toBuilder()
        .tileBytes(tileBytes)
        .inlineMaxBytes(0)
        .build();
  }

  private static NDArray data(DType dt, long[] shape, Random r) {
    NDArray a = NDArray.zeros(dt, shape);
    for (int i = 0; i < a.size(); i++) {
      a.setDouble(i, r.nextDouble() - 0.5);
    }
    return a;
  }

  private ArrayNode stored(String name, NDArray a, long[] chunks) {
    ZarrArray z =
        ZarrArray.create(new FileSystemStore(dir.resolve("in")), name)
            .shape(a.shape())
            .chunks(chunks)
            .dtype(a.dtype())
            .build();
    z.write(new long[a.shape().length], a);
    return new ArrayNode.Stored(z);
  }

  /** A broadcast shape for x: some leading axes dropped and some others set to 1 (never x's). */
  private static long[][] broadcastOf(long[] shape, long[] chunks, Random r) {
    if (shape.length == 1 && shape[0] == 1) {
      return new long[][] {{}, {}}; // only a 0-d array broadcasts to (1,)
    }
    while (true) {
      int drop = r.nextInt(shape.length);
      int nd = shape.length - drop;
      long[] s = Arrays.copyOfRange(shape, drop, shape.length);
      long[] c = Arrays.copyOfRange(chunks, drop, chunks.length);
      for (int d = 0; d < nd; d++) {
        if (r.nextInt(3) == 0) {
          s[d] = 1;
          c[d] = 1;
        }
      }
      if (!Arrays.equals(s, shape) && nd > 0) {
        return new long[][] {s, c};
      }
      if (drop == 0 && nd > 1) {
        // (1, 1, ...) cannot shrink by ones: drop its first axis
        return new long[][] {Arrays.copyOfRange(s, 1, nd), Arrays.copyOfRange(c, 1, nd)};
      }
    }
  }

  /** A random grid other than (1,), which nothing but a 0-d value broadcasts to. */
  private static RandomGrid drawBroadcastable(Random r, int maxOuter, int maxLast) {
    RandomGrid g = RandomGrid.draw(r, maxOuter, maxLast);
    while (g.shape().length == 1 && g.shape()[0] == 1) {
      g = RandomGrid.draw(r, maxOuter, maxLast);
    }
    return g;
  }

  private static ArrayNode.Computed tileReduction(ArrayNode out) {
    ArrayNode.Computed c = (ArrayNode.Computed) out;
    while (!(c.op().function() instanceof TileReduction)) {
      c = (ArrayNode.Computed) c.inputs().get(0);
    }
    return c;
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
  void aReductionOverABroadcastProductIsTiledAndEqualsTheWholeBlocks(int seed) throws Exception {
    Random r = new Random(seed);
    RandomGrid g = drawBroadcastable(r, 7, 9);
    long[][] bc = broadcastOf(g.shape(), g.chunks(), r);
    NDArray a = data(DType.FLOAT64, g.shape(), r);
    NDArray b = data(DType.FLOAT64, bc[0], r);
    ArrayNode x = stored("x", a, g.chunks());
    ArrayNode y = stored("y", b, bc[1]);
    // (x * y) + x: the broadcast leaf y feeds one op of a two-op chain over x
    ArrayNode prod =
        Core.pointwise("multiply", k -> Elementwise.multiply(k[0], k[1]), DType.FLOAT64, x, y);
    ArrayNode top = Core.pointwise("add", k -> Elementwise.add(k[0], k[1]), DType.FLOAT64, prod, x);
    int axis = r.nextInt(g.shape().length);
    ArrayNode sum = Reductions.reduce(top, Reductions.Op.SUM, new int[] {axis}, false, 2, 0);
    Tiles.Chain ch =
        Tiles.chain(tileReduction(sum), n -> n instanceof ArrayNode.Computed, 16, null);
    assertNotNull(ch, "seed " + seed + ": a chain with a broadcast input is tiled");
    assertEquals(2, ch.nodes().size());
    assertTrue(ch.broadcastLeaf(y), "y is read broadcast");
    assertFalse(ch.broadcastLeaf(x), "x is not");
    assertFalse(ch.regionLeaf(y), "a broadcast leaf is held whole");
    NDArray want =
        Statistics.sum(
            Elementwise.add(Elementwise.multiply(a, b.broadcastTo(g.shape())), a), Axes.of(axis));
    for (long tb : new long[] {0, 8, 16, 200, 1 << 20}) {
      NDArray got =
          Plan.of(List.of(sum), cfg(tb)).execute(new ThreadsExecutor(2, 1), List.of()).get(0);
      assertEquals(want.dtype(), got.dtype());
      assertArrayEquals(
          want,
          got,
          "seed "
              + seed
              + " "
              + Shapes.format(g.shape())
              + " y "
              + Shapes.format(bc[0])
              + " axis "
              + axis
              + " tileBytes "
              + tb);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5})
  void anArrayMinusItsKeptMeanSquaredIsTiled(int seed) throws Exception {
    // std's second pass: mean((x - mean(x, axis, keepdims))**2, axis)
    Random r = new Random(seed);
    RandomGrid g = RandomGrid.draw(r, 7, 9);
    NDArray a = data(DType.FLOAT64, g.shape(), r);
    ArrayNode x = stored("x", a, g.chunks());
    int axis = r.nextInt(g.shape().length);
    ArrayNode m = Reductions.reduce(x, Reductions.Op.MEAN, new int[] {axis}, true, 2, 0);
    ArrayNode dev =
        Core.pointwise("subtract", k -> Elementwise.subtract(k[0], k[1]), DType.FLOAT64, x, m);
    ArrayNode sq =
        Core.pointwise("square", k -> Elementwise.multiply(k[0], k[0]), DType.FLOAT64, dev);
    ArrayNode var = Reductions.reduce(sq, Reductions.Op.MEAN, new int[] {axis}, false, 2, 0);
    long[] kept = g.shape().clone();
    kept[axis] = 1;
    NDArray mean = Statistics.mean(a, Axes.of(axis)).reshape(kept);
    NDArray d = Elementwise.subtract(a, mean.broadcastTo(g.shape()));
    NDArray want = Statistics.mean(Elementwise.multiply(d, d), Axes.of(axis));
    if (g.shape()[axis] > 1) {
      Tiles.Chain ch =
          Tiles.chain(tileReduction(var), n -> n instanceof ArrayNode.Computed, 16, null);
      assertNotNull(ch, "seed " + seed + ": the deviations' chain is tiled");
      assertTrue(ch.leaves().stream().anyMatch(ch::broadcastLeaf), "the kept mean is broadcast");
    }
    for (long tb : new long[] {0, 8, 64, 1 << 20}) {
      NDArray got =
          Plan.of(List.of(var), cfg(tb)).execute(new ThreadsExecutor(2, 1), List.of()).get(0);
      assertArrayEquals(want, got, "seed " + seed + " axis " + axis + " tileBytes " + tb);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4})
  void aComputedBroadcastInputOfAnotherDtypeIsTiledToo(int seed) throws Exception {
    Random r = new Random(seed);
    RandomGrid g = drawBroadcastable(r, 6, 8);
    long[][] bc = broadcastOf(g.shape(), g.chunks(), r);
    NDArray a = data(DType.FLOAT32, g.shape(), r);
    NDArray b = data(DType.FLOAT32, bc[0], r);
    ArrayNode x = stored("xf", a, g.chunks());
    ArrayNode yStored = stored("yf", b, bc[1]);
    // the broadcast input is itself computed (fused into the task): y * y
    ArrayNode y =
        Core.pointwise("square", k -> Elementwise.multiply(k[0], k[0]), DType.FLOAT32, yStored);
    ArrayNode prod =
        Core.pointwise("multiply", k -> Elementwise.multiply(k[0], k[1]), DType.FLOAT32, y, x);
    int axis = r.nextInt(g.shape().length);
    ArrayNode sum = Reductions.reduce(prod, Reductions.Op.SUM, new int[] {axis}, false, 2, 0);
    Tiles.Chain ch =
        Tiles.chain(tileReduction(sum), n -> n instanceof ArrayNode.Computed, 16, null);
    assertNotNull(ch, "seed " + seed);
    assertTrue(ch.leaves().contains(y) && ch.broadcastLeaf(y), "y * y is a broadcast leaf");
    NDArray yy = Elementwise.multiply(b, b);
    NDArray want =
        Statistics.sum(Elementwise.multiply(yy.broadcastTo(g.shape()), a), Axes.of(axis));
    for (long tb : new long[] {0, 16, 1 << 20}) {
      NDArray got =
          Plan.of(List.of(sum), cfg(tb)).execute(new ThreadsExecutor(2, 1), List.of()).get(0);
      assertArrayEquals(want, got, "seed " + seed + " tileBytes " + tb);
    }
  }

  @Test
  void aWrittenChainDoesNotRunABroadcastOpOnRuns() throws Exception {
    Random r = new Random(7);
    NDArray a = data(DType.FLOAT64, new long[] {6, 10}, r);
    NDArray b = data(DType.FLOAT64, new long[] {10}, r);
    ArrayNode x = stored("xw", a, new long[] {4, 4});
    ArrayNode y = stored("yw", b, new long[] {4});
    ArrayNode prod =
        Core.pointwise("multiply", k -> Elementwise.multiply(k[0], k[1]), DType.FLOAT64, x, y);
    ZarrArray target =
        ZarrArray.create(new FileSystemStore(dir.resolve("out")), "w")
            .shape(6, 10)
            .chunks(4, 4)
            .dtype(DType.FLOAT64)
            .build();
    ArrayNode st = Core.store(prod, target);
    Plan p = Plan.of(List.of(st), cfg(16));
    TiledWrites.Chain w = p.writeChain((ArrayNode.Computed) st);
    assertTrue(
        w == null || !w.nodes().contains(prod),
        "runs of a flat chain cannot broadcast: the product is computed whole, a leaf");
    p.execute(new ThreadsExecutor(2, 1), List.of());
    assertEquals(
        Elementwise.multiply(a, b.broadcastTo(6, 10)),
        ZarrArray.open(new FileSystemStore(dir.resolve("out")), "w").read());
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
  void broadcastBoxEqualsTheBroadcastArraysRegion(int seed) {
    Random r = new Random(100 + seed);
    RandomGrid g = RandomGrid.draw(r, 6, 7);
    long[] shape = g.shape();
    long[][] bc = broadcastOf(shape, g.chunks(), r);
    DType dt = r.nextBoolean() ? DType.COMPLEX64 : DType.INT32;
    NDArray src = data(dt, bc[0], r);
    for (int i = 0; i < src.size(); i++) {
      src.setDouble(i, r.nextInt(1000));
    }
    NDArray full = src.broadcastTo(shape);
    long[] start = new long[shape.length];
    long[] box = new long[shape.length];
    for (int d = 0; d < shape.length; d++) {
      start[d] = r.nextInt((int) shape[d]);
      box[d] = 1 + r.nextInt((int) (shape[d] - start[d]));
    }
    NDArray got = NDArray.zeros(dt, box);
    NDArray.broadcastBox(src.data(), src.shape(), start, got.data(), box, dt.isComplex() ? 2 : 1);
    assertEquals(full.getRegion(start, box), got, "seed " + seed);
  }

  @Test
  void broadcastBoxRefusesABoxOutsideAnAxisThatIsNotBroadcast() {
    NDArray src = NDArray.zeros(DType.FLOAT64, 4);
    double[] dst = new double[6];
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                NDArray.broadcastBox(
                    src.data(), src.shape(), new long[] {0, 2}, dst, new long[] {2, 3}, 1));
    assertTrue(e.getMessage().contains("outside"), e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () ->
            NDArray.broadcastBox(
                new double[8], new long[] {2, 4}, new long[] {0}, dst, new long[] {4}, 1));
  }

  private static void assertArrayEquals(NDArray want, NDArray got, String what) {
    assertEquals(want.dtype(), got.dtype(), what);
    assertTrue(Arrays.equals(want.shape(), got.shape()), what);
    int mult = want.dtype().isComplex() ? 2 : 1;
    double[] w =
        (double[]) want.astype(want.dtype().isComplex() ? DType.COMPLEX128 : DType.FLOAT64).data();
    double[] h =
        (double[]) got.astype(want.dtype().isComplex() ? DType.COMPLEX128 : DType.FLOAT64).data();
    assertEquals(w.length, h.length, what);
    for (int i = 0; i < w.length; i++) {
      assertEquals(w[i], h[i], 1e-9 * (1 + Math.abs(w[i])), what + " at " + i / mult);
    }
  }
}
