package dev.cubed.plan.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cubed.core.Core;
import dev.cubed.core.Reductions;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.nd.elementwise.Elementwise;
import dev.cubed.plan.Plan;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.PlanConfig;
import dev.cubed.runtime.ThreadsExecutor;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Pointwise ops that write into the plan's reused tile buffers ({@link Core.PointwiseInto}, {@link
 * PointwiseFunction#applyTilesInto}) and tile states written into reused arrays and merged in place
 * ({@link TileReduction#tileStateInto}, {@link TileReduction#mergeInPlace}): the same values, bit
 * for bit, as functions that allocate every tile, for every reduction and dtype and for stored
 * chains; one buffer per op and task, reused by every full-size tile; a function that ignores its
 * buffer (or scribbles in it and returns another array) still gives the right answer.
 */
class TileBuffersTest {
  @TempDir Path dir;

  /** Buffers offered to recording functions, by label; and calls with no buffer. */
  static final Map<String, Set<NDArray>> OFFERED = new ConcurrentHashMap<>();

  static final Map<String, AtomicLong> CALLS = new ConcurrentHashMap<>();
  static final Map<String, AtomicLong> NO_BUFFER = new ConcurrentHashMap<>();

  private PlanConfig cfg() {
    return PlanConfig.builder(dir.resolve("work")).memory(1L << 30, 1000).copies(1, 1).build();
  }

  /** Plans tiled at {@code tileBytes} (0: untiled), never run inline. */
  private PlanConfig cfg(long tileBytes) {
    return cfg().toBuilder().tileBytes(tileBytes).inlineMaxBytes(0).build();
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
      if (t.isFloating()) {
        a.setDouble(i, r.nextInt(5) == 0 ? -0.0 : r.nextGaussian());
      } else {
        a.setLong(i, r.nextInt(9) - (t == DType.UINT8 ? 0 : 4));
      }
    }
    z.write(new long[shape.length], a);
    return new ArrayNode.Stored(z);
  }

  /** {@code (x * w - x) + x} through functions that allocate each tile. */
  private static ArrayNode plainChain(ArrayNode x, ArrayNode w) {
    ArrayNode p =
        Core.pointwise(
            "f",
            b -> Elementwise.subtract(Elementwise.multiply(b[0], b[1]), b[0]),
            x.dtype(),
            x,
            w);
    return Core.pointwise("g", b -> Elementwise.add(b[0], b[1]), x.dtype(), p, x);
  }

  /**
   * The same chain in three ops writing into their buffers, recorded under {@code label}; with
   * {@code scribble} the last op fills its buffer with garbage and returns a new array instead.
   */
  private static ArrayNode intoChain(ArrayNode x, ArrayNode w, String label, boolean scribble) {
    OFFERED.put(
        label, Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>())));
    CALLS.put(label, new AtomicLong());
    NO_BUFFER.put(label, new AtomicLong());
    Core.PointwiseInto mul =
        (buf, b) -> {
          record(label, buf);
          return Elementwise.multiply(b[0], b[1], buf);
        };
    Core.PointwiseInto sub = (buf, b) -> Elementwise.subtract(b[0], b[1], buf);
    Core.PointwiseInto add =
        (buf, b) -> {
          if (scribble && buf != null) {
            for (int i = 0; i < buf.size(); i++) {
              if (buf.dtype().isFloating()) {
                buf.setDouble(i, Double.NaN);
              } else {
                buf.setLong(i, 99);
              }
            }
            return Elementwise.add(b[0], b[1]);
          }
          return Elementwise.add(b[0], b[1], buf);
        };
    ArrayNode m = Core.pointwise("m", mul, x.dtype(), x, w);
    ArrayNode s = Core.pointwise("s", sub, x.dtype(), m, x);
    return Core.pointwise("a", add, x.dtype(), s, x);
  }

  private static void record(String label, NDArray buf) {
    CALLS.get(label).incrementAndGet();
    if (buf == null) {
      NO_BUFFER.get(label).incrementAndGet();
    } else {
      OFFERED.get(label).add(buf);
    }
  }

  private static final DType[] DTYPES = {
    DType.FLOAT64, DType.FLOAT32, DType.INT32, DType.INT64, DType.UINT8
  };

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
  void intoChainsReduceToTheSameBitsAsAllocatingOnes(int seed) throws Exception {
    Random r = new Random(seed);
    DType t = DTYPES[(seed - 1) % DTYPES.length];
    RandomGrid g = RandomGrid.draw(r, 12, 12);
    int nd = g.shape().length;
    long[] shape = g.shape();
    long[] chunks = g.chunks();
    ArrayNode x = stored("x", t, shape, chunks, r);
    ArrayNode w = stored("w", t, shape, chunks, r);
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
    String label = "reduce-" + seed;
    ArrayNode plain = plainChain(x, w);
    ArrayNode into = intoChain(x, w, label, seed % 3 == 0);
    List<ArrayNode> outsPlain = new ArrayList<>();
    List<ArrayNode> outsInto = new ArrayList<>();
    List<String> what = new ArrayList<>();
    for (Reductions.Op op : Reductions.Op.values()) {
      if (op == Reductions.Op.STD) {
        continue;
      }
      int[] ax =
          op == Reductions.Op.ARGMIN
                  || op == Reductions.Op.ARGMAX
                  || op == Reductions.Op.NANARGMIN
                  || op == Reductions.Op.NANARGMAX
              ? new int[] {argAxis}
              : red;
      outsPlain.add(Reductions.reduce(plain, op, ax, false, 2, 1));
      outsInto.add(Reductions.reduce(into, op, ax, false, 2, 1));
      what.add(
          op
              + " of "
              + t
              + " "
              + Shapes.format(shape)
              + " chunks "
              + Shapes.format(chunks)
              + " axes "
              + axes);
    }
    // 16 B tiles split the reduced axes (states merged, in place where contiguous); 256 B tiles
    // span them where they fit; 0: untiled
    for (long tb : new long[] {16, 256, 0}) {
      List<NDArray> a = Plan.of(outsPlain, cfg(tb)).execute(new ThreadsExecutor(2, 1), List.of());
      List<NDArray> b = Plan.of(outsInto, cfg(tb)).execute(new ThreadsExecutor(2, 1), List.of());
      for (int i = 0; i < a.size(); i++) {
        assertEquals(a.get(i), b.get(i), what.get(i) + " tileBytes " + tb);
      }
    }
    assertTrue(CALLS.get(label).get() > 0, "the recording op ran");
  }

  /**
   * {@code op} over axis 0 of the chain of two stored float64 arrays of {@code shape} in {@code
   * chunks}: the recording into-chain (label {@code label}) tiled at {@code tileBytes} against the
   * allocating chain untiled ({@code sameTiles}: tiled alike); asserts the two equal.
   */
  private void reduceBoth(
      String label,
      Reductions.Op op,
      long[] shape,
      long[] chunks,
      long tileBytes,
      boolean sameTiles,
      long seed)
      throws Exception {
    Random r = new Random(seed);
    ArrayNode x = stored("x", DType.FLOAT64, shape, chunks, r);
    ArrayNode w = stored("w", DType.FLOAT64, shape, chunks, r);
    ArrayNode into =
        Reductions.reduce(intoChain(x, w, label, false), op, new int[] {0}, false, 2, 1);
    ArrayNode plain = Reductions.reduce(plainChain(x, w), op, new int[] {0}, false, 2, 1);
    NDArray got =
        Plan.of(List.of(into), cfg(tileBytes)).execute(new ThreadsExecutor(2, 1), List.of()).get(0);
    NDArray want =
        Plan.of(List.of(plain), cfg(sameTiles ? tileBytes : 0))
            .execute(new ThreadsExecutor(2, 1), List.of())
            .get(0);
    assertEquals(want, got, label);
  }

  @Test
  void oneBufferPerOpAndTaskReusedByEveryFullTile() throws Exception {
    // 4 blocks of (6, 40) float64; 256 B tiles = 32 elements: (6, 5) tiles (the reduced axis 0
    // whole), 8 per block, all full size
    reduceBoth("reuse", Reductions.Op.SUM, new long[] {12, 80}, new long[] {6, 40}, 256, false, 3);
    // 4 blocks x 8 tiles, each offered a buffer; at most one buffer per block's task
    assertEquals(32, CALLS.get("reuse").get());
    assertEquals(0, NO_BUFFER.get("reuse").get());
    int buffers = OFFERED.get("reuse").size();
    assertTrue(buffers >= 1 && buffers <= 4, buffers + " buffers for 32 tiles");
    for (NDArray b : OFFERED.get("reuse")) {
      assertEquals(DType.FLOAT64, b.dtype());
      assertEquals(List.of(6L, 5L), Arrays.stream(b.shape()).boxed().toList());
    }
  }

  @Test
  void edgeTilesAreOfferedNoBuffer() throws Exception {
    // blocks of (4, 7): 64 B tiles = 8 elements: (4, 2) tiles, the last of each block (4, 1)
    reduceBoth("edge", Reductions.Op.MEAN, new long[] {4, 14}, new long[] {4, 7}, 64, true, 4);
    // 2 blocks x 4 tiles, the last of each narrower
    assertEquals(8, CALLS.get("edge").get());
    assertEquals(2, NO_BUFFER.get("edge").get());
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5, 6})
  void storedIntoChainsEqualAllocatingOnes(int seed) throws Exception {
    Random r = new Random(seed);
    DType t = DTYPES[(seed - 1) % DTYPES.length];
    RandomGrid g = RandomGrid.draw(r, 8, 60);
    long[] shape = g.shape();
    long[] chunks = g.chunks();
    ArrayNode x = stored("x", t, shape, chunks, r);
    ArrayNode w = stored("w", t, shape, chunks, r);
    String label = "store-" + seed;
    ArrayNode into = intoChain(x, w, label, seed % 2 == 0);
    ArrayNode plain = plainChain(x, w);
    for (long tb : new long[] {8, 40, 1L << 20}) {
      ZarrArray ti =
          ZarrArray.create(new FileSystemStore(dir.resolve("out")), "i" + tb)
              .shape(shape)
              .chunks(chunks)
              .dtype(t)
              .build();
      ZarrArray tp =
          ZarrArray.create(new FileSystemStore(dir.resolve("out")), "p" + tb)
              .shape(shape)
              .chunks(chunks)
              .dtype(t)
              .build();
      ArrayNode si = Core.store(into, ti);
      ArrayNode sp = Core.store(plain, tp);
      Plan.of(List.of(si, sp), cfg(tb)).execute(new ThreadsExecutor(2, 1), List.of());
      assertEquals(
          ZarrArray.open(new FileSystemStore(dir.resolve("out")), "p" + tb).read(),
          ZarrArray.open(new FileSystemStore(dir.resolve("out")), "i" + tb).read(),
          t + " " + Shapes.format(shape) + " chunks " + Shapes.format(chunks) + " run bytes " + tb);
    }
    assertTrue(CALLS.get(label).get() > 0);
  }
}
