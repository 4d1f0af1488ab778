package dev.cubed.plan.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.Xp;
import dev.cubed.core.Reductions;
import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.Index;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.codec.ZstdRuns;
import dev.cubed.zarr.store.FileSystemStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Reductions over stored bytes + zstd arrays (zarr-python 3's default codec) read a tile at a time
 * from chunks decoded forward ({@link ZstdRuns}): straight over the array, through a pointwise
 * chain with a broadcast row, over a concatenation of two stored arrays, over a strided slice, and
 * two reductions of one array in one compute. Each result equals the untiled evaluation (tileBytes
 * 0) for seeded shapes and chunks with edge chunks along the last axis; every chunk is decoded once
 * (one reader per chunk, none decoded twice for the two reductions sharing it) and no reader starts
 * again; the plan counts a reader's slices and window, not the chunk; a truncated chunk fails the
 * compute naming it.
 */
class StreamedTilesTest {
  @TempDir Path dir;

  private ZarrArray write(String name, NDArray a, long[] chunks) {
    ZarrArray z =
        ZarrArray.create(new FileSystemStore(dir.resolve("in")), name)
            .shape(a.shape())
            .chunks(chunks)
            .dtype(a.dtype())
            .compression(Compression.zstd(0))
            .build();
    z.write(new long[a.shape().length], a);
    return z;
  }

  private static NDArray data(long[] shape, Random r) {
    NDArray a = NDArray.zeros(DType.FLOAT64, shape);
    double[] d = (double[]) a.data();
    for (int i = 0; i < d.length; i++) {
      d[i] = r.nextDouble() - 0.3;
    }
    return a;
  }

  /** The default spec (tiles of 256 KiB), or with tiling off (tileBytes 0). */
  private Spec spec(boolean tiled) {
    Spec.Builder b = Spec.builder().workDir(dir.resolve("work")).allowedMem("1GB").workers(2);
    return tiled ? b.build() : b.tileBytes(0).build();
  }

  private static void assertClose(NDArray got, NDArray want, String what) {
    assertThat(got.shape()).as(what).isEqualTo(want.shape());
    assertThat(got.dtype()).as(what).isEqualTo(want.dtype());
    for (int i = 0; i < got.size(); i++) {
      double g = got.getDouble(i);
      double w = want.getDouble(i);
      assertThat(Math.abs(g - w))
          .as("%s element %d: %s vs %s", what, i, g, w)
          .isLessThanOrEqualTo(1e-9 * Math.max(1, Math.abs(w)));
    }
  }

  /** Chunks above a reader's slices and window: (700-900) x (760-900) float64, 4.3-6.5 MB. */
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6})
  void reductionsOverStoredZstdEqualTheUntiledOnesReadingEachChunkOnce(long seed) throws Exception {
    Random r = new Random(seed);
    // an even number of rows per chunk (a[1::2] then has the same rows in every block: a regular
    // grid), whole chunks along the concatenation's axis (a regular grid) and at least two (the
    // two reductions then share the first round's op), edge chunks along the other axis
    long[] chunks = {800 + 2 * r.nextInt(100), 800 + r.nextInt(100)};
    long[] shape = {chunks[0] * (2 + r.nextInt(2)), chunks[1] + 1 + r.nextInt(400)};
    assertThat(Shapes.size(chunks) * 8).isGreaterThan(ZstdRuns.HELD_BYTES);
    NDArray a = data(shape, r);
    NDArray b = data(shape, r);
    ZarrArray za = write("a" + seed, a, chunks);
    ZarrArray zb = write("b" + seed, b, chunks);
    long chunksA = 1;
    for (int d = 0; d < 2; d++) {
      chunksA *= (shape[d] + chunks[d] - 1) / chunks[d];
    }
    List<Case> cases = new ArrayList<>();
    cases.add(new Case("sum(a)", chunksA, (x) -> List.of(Xp.sum(x.get(0)))));
    cases.add(
        new Case(
            "mean(a, 0), argmax(a, 1)",
            chunksA,
            (x) -> List.of(Xp.mean(x.get(0), 0), Xp.argmax(x.get(0), 1))));
    cases.add(
        new Case(
            "sum(a * b[0, :])",
            chunksA,
            (x) -> List.of(Xp.sum(Xp.multiply(x.get(0), row(x.get(1)))))));
    cases.add(
        new Case(
            "sum(concat([a, b]))",
            2 * chunksA,
            (x) -> List.of(Xp.sum(Xp.concat(List.of(x.get(0), x.get(1)), 0)))));
    cases.add(
        new Case(
            "mean(concat([a, b]), 0)",
            2 * chunksA,
            (x) -> List.of(Xp.mean(Xp.concat(List.of(x.get(0), x.get(1)), 0), 0))));
    for (Case c : cases) {
      List<NDArray> want = run(c, za, zb, false);
      long opened = ZstdRuns.OPENED.sum();
      long restarts = ZstdRuns.RESTARTS.sum();
      List<NDArray> got = run(c, za, zb, true);
      long readers = ZstdRuns.OPENED.sum() - opened;
      for (int i = 0; i < want.size(); i++) {
        assertClose(got.get(i), want.get(i), c.name() + " seed " + seed);
      }
      assertThat(readers).as(c.name() + ": chunk readers").isEqualTo(c.chunks());
      assertThat(ZstdRuns.RESTARTS.sum() - restarts).as(c.name()).isZero();
    }
  }

  /**
   * A strided slice's blocks (half a chunk's rows) read from the chunks: chunks of 1,800-2,000 rows
   * of 800, so that half a chunk is more than a reader holds.
   */
  @ParameterizedTest
  @ValueSource(longs = {21, 22})
  void aStridedSliceOfStoredZstdIsReadFromItsChunks(long seed) throws Exception {
    Random r = new Random(seed);
    long[] chunks = {1800 + 2 * r.nextInt(100), 800};
    long[] shape = {2 * chunks[0], 801 + r.nextInt(300)};
    NDArray a = data(shape, r);
    NDArray b = data(new long[] {2, shape[1]}, r);
    ZarrArray za = write("s" + seed, a, chunks);
    ZarrArray zb = write("r" + seed, b, new long[] {1, 800});
    Case c =
        new Case(
            "mean(a[1::2] * b[0, :], 0)",
            4,
            (x) ->
                List.of(
                    Xp.mean(
                        Xp.multiply(
                            Xp.getItem(x.get(0), Index.slice(1, shape[0], 2), Index.all()),
                            row(x.get(1))),
                        0)));
    List<NDArray> want = run(c, za, zb, false);
    long opened = ZstdRuns.OPENED.sum();
    long restarts = ZstdRuns.RESTARTS.sum();
    List<NDArray> got = run(c, za, zb, true);
    assertClose(got.get(0), want.get(0), c.name());
    assertThat(ZstdRuns.OPENED.sum() - opened).as("chunk readers").isEqualTo(4);
    assertThat(ZstdRuns.RESTARTS.sum() - restarts).isZero();
  }

  private record Case(String name, long chunks, Function<List<CubedArray>, List<CubedArray>> f) {}

  private static CubedArray row(CubedArray x) {
    return Xp.getItem(x, Index.at(0), Index.all());
  }

  private List<NDArray> run(Case c, ZarrArray za, ZarrArray zb, boolean tiled) {
    Spec s = spec(tiled);
    List<CubedArray> in = List.of(Cubed.fromZarr(za, s), Cubed.fromZarr(zb, s));
    return Cubed.compute(c.f().apply(in).toArray(new CubedArray[0]));
  }

  @Test
  void thePlanCountsAReadersSlicesNotTheChunk() {
    long[] chunks = {1000, 1000};
    NDArray a = data(new long[] {2000, 2000}, new Random(7));
    ZarrArray za = write("p", a, chunks);
    Spec s = spec(true);
    CubedArray x = Cubed.fromZarr(za, s);
    long tiled = Cubed.plan(List.of(Xp.mean(x, 0), Xp.argmax(x, 1))).summary().maxProjectedMem();
    Spec untiled = spec(false);
    CubedArray y = Cubed.fromZarr(za, untiled);
    long whole = Cubed.plan(List.of(Xp.mean(y, 0), Xp.argmax(y, 1))).summary().maxProjectedMem();
    // the 8 MB chunk is not held: a reader's slices and window (4.75 MiB) and, for each of the
    // two reductions, a tile straight over the array (STRAIGHT_TILES x 256 KiB) and its states
    long tiles = 2 * Tiles.STRAIGHT_TILES * (256L << 10) + (512L << 10);
    assertThat(whole - tiled).isGreaterThan(8_000_000L - ZstdRuns.HELD_BYTES - tiles);
  }

  @Test
  void aTruncatedChunkFailsTheComputeNamingIt() throws IOException {
    long[] chunks = {1000, 1000};
    NDArray a = data(new long[] {2000, 1000}, new Random(8));
    ZarrArray za = write("t", a, chunks);
    Path f = dir.resolve("in").resolve("t").resolve("c").resolve("1").resolve("0");
    byte[] stored = Files.readAllBytes(f);
    Files.write(f, Arrays.copyOf(stored, stored.length - 1000));
    CubedArray x = Cubed.fromZarr(za, spec(true));
    assertThatThrownBy(() -> Xp.sum(x).compute())
        .hasStackTraceContaining("t/c/1/0")
        .hasStackTraceContaining("truncated");
  }

  /**
   * A reduction straight over a zstd array whose chunks are smaller than a reader's slices and
   * window reads each chunk whole and is not tiled (tiles would only copy the block): each chunk is
   * decoded once (no restart), the sums equal the untiled plan's.
   */
  @Test
  void aStraightReductionOverSmallZstdChunksIsNotTiled() {
    long[] chunks = {1, 300, 400}; // 960 kB: below ZstdRuns.HELD_BYTES
    assertThat(Shapes.size(chunks) * 8).isLessThan(ZstdRuns.HELD_BYTES);
    NDArray a = data(new long[] {6, 300, 400}, new Random(11));
    ZarrArray za = write("small", a, chunks);
    CubedArray x = Cubed.fromZarr(za, spec(true));
    CubedArray s = Xp.sum(x);
    ArrayNode.Computed initial =
        (ArrayNode.Computed)
            Reductions.reduce(
                new ArrayNode.Stored(za), Reductions.Op.SUM, new int[] {0, 1, 2}, false, 4, 0);
    while (!(initial.op().function() instanceof TileReduction)) {
      initial = (ArrayNode.Computed) initial.inputs().get(0);
    }
    assertThat(Tiles.chain(initial, n -> false, 256L << 10, null)).isNull();
    long restarts = ZstdRuns.RESTARTS.sum();
    NDArray got = s.compute();
    assertThat(ZstdRuns.RESTARTS.sum() - restarts).as("chunks decoded again").isZero();
    assertClose(got, Xp.sum(Cubed.fromZarr(za, spec(false))).compute(), "sum(a)");
  }

  /**
   * Folds over many small stored chunks decode each chunk into the array of the one before
   * (Evaluator's streamed blocks): every reduction, over either codec, equals the same reduction of
   * the array held in memory.
   */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void foldsOverSmallChunksEqualTheHeldArray(boolean zstd) {
    long[] shape = {23, 30, 20};
    long[] chunks = {1, 30, 20};
    NDArray a = data(shape, new Random(zstd ? 12 : 13));
    ZarrArray z =
        ZarrArray.create(new FileSystemStore(dir.resolve("in")), "fold" + zstd)
            .shape(shape)
            .chunks(chunks)
            .dtype(DType.FLOAT64)
            .compression(zstd ? Compression.zstd(0) : Compression.projectDefault())
            .build();
    z.write(new long[3], a);
    Spec spec = spec(true);
    CubedArray x = Cubed.fromZarr(z, spec);
    CubedArray h = Cubed.fromArray(a, chunks, spec);
    List<Function<CubedArray, CubedArray>> ops =
        List.of(
            Xp::sum,
            v -> Xp.mean(v, 0),
            v -> Xp.max(v, 0),
            v -> Xp.argmax(v, 0),
            v -> Xp.sum(v, Axes.of(0, 2).keepDims(), 3));
    for (int i = 0; i < ops.size(); i++) {
      NDArray got = ops.get(i).apply(x).compute();
      NDArray want = ops.get(i).apply(h).compute();
      assertClose(got, want, "reduction " + i + (zstd ? " (zstd)" : " (default codec)"));
    }
    assertThat(z.read()).as("the stored array").isEqualTo(a);
  }

  @Test
  void forwardTilesAreRunsOfTheBlockInOrder() {
    Random r = new Random(9);
    for (int i = 0; i < 200; i++) {
      int nd = 1 + r.nextInt(4);
      long[] block = new long[nd];
      for (int d = 0; d < nd; d++) {
        block[d] = 1 + r.nextInt(40);
      }
      long max = 1 + r.nextInt(5000);
      long[] t = Tiles.forwardTileShape(block, max);
      assertThat(Tiles.forward(t, block)).as(Arrays.toString(block) + " max " + max).isTrue();
      assertThat(Shapes.size(t)).isLessThanOrEqualTo(Math.max(max, 1));
    }
    // a mean over the leading axis's usual tiles: every time step's rows, not one run
    assertThat(Tiles.forward(new long[] {10, 1, 1, 1920}, new long[] {10, 1, 987, 1920})).isFalse();
    assertThat(Tiles.forward(new long[] {1, 1, 17, 1920}, new long[] {10, 1, 987, 1920})).isTrue();
    assertThat(Tiles.forward(new long[] {16, 2000}, new long[] {2000, 2000})).isTrue();
    assertThat(Tiles.forward(new long[] {2000, 16}, new long[] {2000, 2000})).isFalse();
  }
}
