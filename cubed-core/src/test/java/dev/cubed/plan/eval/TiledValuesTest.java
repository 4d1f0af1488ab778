package dev.cubed.plan.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cubed.core.Core;
import dev.cubed.core.Reductions;
import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.nd.elementwise.Elementwise;
import dev.cubed.nd.reduce.Searching;
import dev.cubed.nd.reduce.Statistics;
import dev.cubed.plan.Plan;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.PlanConfig;
import dev.cubed.runtime.ThreadsExecutor;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Pointwise chains with a 0-d input (a value, such as the fill of xarray's {@code where(isnull(x),
 * 0, x)}) are tiled ({@link PointwiseFunction#takesValues}): the value is a leaf whose one block is
 * every tile, read as a value by a function taking scalars (where) and broadcast for the others
 * (multiply). Results equal the whole-block evaluation for seeded random shapes, chunks and tile
 * sizes, for a reduction's chain and for a chain written a run at a time.
 */
class TiledValuesTest {
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

  private NDArray data(long[] shape, Random r) {
    NDArray a = NDArray.zeros(DType.FLOAT64, shape);
    for (int i = 0; i < a.size(); i++) {
      a.setDouble(i, r.nextInt(5) == 0 ? Double.NaN : r.nextDouble() - 0.5);
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

  /** {@code where(isnan(x), 0, x) * 2.5}: the zero and the factor are 0-d arrays. */
  private static ArrayNode filledAndScaled(ArrayNode x) {
    ArrayNode zero = Core.full(new long[0], new long[0], 0.0, DType.FLOAT64);
    ArrayNode factor = Core.full(new long[0], new long[0], 2.5, DType.FLOAT64);
    ArrayNode nan = Core.pointwise("isnan", b -> Elementwise.isnan(b[0]), DType.BOOL, x);
    ArrayNode filled =
        Core.pointwise(
            "where",
            (Core.TakesScalars) b -> Searching.where(b[0], b[1], b[2]),
            DType.FLOAT64,
            nan,
            zero,
            x);
    return Core.pointwise(
        "multiply", b -> Elementwise.multiply(b[0], b[1]), DType.FLOAT64, filled, factor);
  }

  private static NDArray expected(NDArray a) {
    NDArray f = a.copy();
    for (int i = 0; i < f.size(); i++) {
      double v = f.getDouble(i);
      f.setDouble(i, Double.isNaN(v) ? 0.0 : v * 2.5);
    }
    return f;
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5, 6})
  void aReductionOverAChainWithValuesIsTiledAndEqualsTheWholeBlocks(int seed) throws Exception {
    Random r = new Random(seed);
    RandomGrid g = RandomGrid.draw(r, 9, 9);
    NDArray a = data(g.shape(), r);
    ArrayNode x = stored("x", a, g.chunks());
    int axis = r.nextInt(g.shape().length);
    ArrayNode sum =
        Reductions.reduce(filledAndScaled(x), Reductions.Op.SUM, new int[] {axis}, false, 2, 0);
    ArrayNode.Computed initial = (ArrayNode.Computed) ((ArrayNode.Computed) sum).inputs().get(0);
    while (!(initial.op().function() instanceof TileReduction)) {
      initial = (ArrayNode.Computed) initial.inputs().get(0);
    }
    Tiles.Chain ch = Tiles.chain(initial, n -> n instanceof ArrayNode.Computed, 16, null);
    assertNotNull(ch, "a chain with 0-d inputs is tiled");
    assertEquals(3, ch.nodes().size());
    assertEquals(3, ch.leaves().size(), "x and the two values are its leaves");
    NDArray want = Statistics.sum(expected(a), Axes.of(axis));
    for (long tb : new long[] {0, 16, 200, 1 << 20}) {
      NDArray got =
          Plan.of(List.of(sum), cfg(tb)).execute(new ThreadsExecutor(2, 1), List.of()).get(0);
      assertEquals(want.dtype(), got.dtype());
      for (int i = 0; i < want.size(); i++) {
        assertEquals(
            want.getDouble(i),
            got.getDouble(i),
            1e-12,
            "seed " + seed + " " + Shapes.format(g.shape()) + " axis " + axis + " tileBytes " + tb);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void aValueComputedByAReductionIsALeafOfTheChain(int seed) throws Exception {
    Random r = new Random(seed);
    RandomGrid g = RandomGrid.draw(r, 9, 9);
    int nd = g.shape().length;
    NDArray a = NDArray.zeros(DType.FLOAT64, g.shape());
    for (int i = 0; i < a.size(); i++) {
      a.setDouble(i, r.nextDouble());
    }
    ArrayNode x = stored("x", a, g.chunks());
    int[] all = new int[nd];
    for (int d = 0; d < nd; d++) {
      all[d] = d;
    }
    // x - sum(x): the 0-d total is a computed array, a leaf of the chain (never walked into)
    ArrayNode total = Reductions.reduce(x, Reductions.Op.SUM, all, false, 2, 0);
    ArrayNode centred =
        Core.pointwise("subtract", b -> Elementwise.subtract(b[0], b[1]), DType.FLOAT64, x, total);
    ArrayNode out = Reductions.reduce(centred, Reductions.Op.SUM, new int[] {0}, false, 2, 0);
    double t = Statistics.sum(a, Axes.all()).getDouble(0);
    NDArray shifted = a.copy();
    for (int i = 0; i < shifted.size(); i++) {
      shifted.setDouble(i, a.getDouble(i) - t);
    }
    NDArray want = Statistics.sum(shifted, Axes.of(0));
    for (long tb : new long[] {0, 16, 1 << 20}) {
      NDArray got =
          Plan.of(List.of(out), cfg(tb)).execute(new ThreadsExecutor(2, 1), List.of()).get(0);
      for (int i = 0; i < want.size(); i++) {
        assertEquals(want.getDouble(i), got.getDouble(i), 1e-9, "seed " + seed + " tb " + tb);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4})
  void aWrittenChainWithValuesStreamsAndEqualsTheWholeBlocks(int seed) throws Exception {
    Random r = new Random(seed);
    RandomGrid g = RandomGrid.draw(r, 9, 70);
    NDArray a = data(g.shape(), r);
    ArrayNode x = stored("x", a, g.chunks());
    NDArray want = expected(a);
    boolean anyStreamed = false;
    for (long tb : new long[] {0, 8, 1000}) {
      ZarrArray target =
          ZarrArray.create(new FileSystemStore(dir.resolve("out")), "t" + tb)
              .shape(g.shape())
              .chunks(g.chunks())
              .dtype(DType.FLOAT64)
              .build();
      ArrayNode stored = Core.store(filledAndScaled(x), target);
      Plan p = Plan.of(List.of(stored), cfg(tb));
      anyStreamed |= p.writeChain((ArrayNode.Computed) stored) != null;
      p.execute(new ThreadsExecutor(2, 1), List.of());
      assertEquals(
          want,
          ZarrArray.open(new FileSystemStore(dir.resolve("out")), "t" + tb).read(),
          "seed " + seed + " " + Shapes.format(g.shape()) + " tileBytes " + tb);
    }
    assertTrue(anyStreamed || Shapes.size(g.chunks()) * 8 <= 32, "streamed at some run size");
  }
}
