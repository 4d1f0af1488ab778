package dev.cubed.zarr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.zarr.codec.ChunkElements;
import dev.cubed.zarr.codec.ChunkRuns;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.store.MemoryStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Chunks written from runs ({@link ZarrArray#writeChunk(long[], ChunkElements)}) store exactly the
 * bytes a write of the whole chunk stores, for every dtype, full and edge chunks, v2 and v3,
 * streaming and non-streaming codecs, incompressible data (encoded twice) and all-fill chunks; a
 * failing source stores nothing and its exception reaches the caller.
 */
class ChunkElementsWriteTest {
  private static final DType[] DTYPES = {
    DType.FLOAT64,
    DType.FLOAT32,
    DType.INT32,
    DType.INT64,
    DType.INT8,
    DType.UINT16,
    DType.BOOL,
    DType.COMPLEX128,
    DType.COMPLEX64
  };

  /** The runs of {@code a} (C order), each a fresh 1-D copy; records what was asked. */
  private static final class Runs implements ChunkElements {
    final NDArray a;
    final List<long[]> asked = new ArrayList<>();

    Runs(NDArray a) {
      this.a = a;
    }

    @Override
    public NDArray run(long start, int count) {
      asked.add(new long[] {start, count});
      NDArray r = NDArray.zeros(a.dtype(), new long[] {count});
      int slots = a.dtype().isComplex() ? 2 : 1;
      System.arraycopy(a.data(), (int) start * slots, r.data(), 0, count * slots);
      return r;
    }
  }

  private static NDArray random(DType t, long[] shape, Random r, boolean smooth) {
    NDArray a = NDArray.zeros(t, shape);
    for (int i = 0; i < a.size(); i++) {
      switch (t.kind()) {
        case BOOL -> a.setBoolean(i, r.nextInt(3) == 0);
        case FLOAT, COMPLEX ->
            a.setDouble(i, smooth ? 0.5 + 0.5 * Math.sin(0.01 * i) : r.nextDouble() * 1e6 - 5e5);
        default -> a.setLong(i, smooth ? i % 7 : r.nextInt(100) - 50);
      }
    }
    return a;
  }

  private static ZarrArrayBuilder builder(
      MemoryStore s, String path, DType t, long[] shape, long[] chunks, int format, Compression c) {
    ZarrArrayBuilder b =
        ZarrArray.create(s, path)
            .shape(shape)
            .chunks(chunks)
            .dtype(t)
            .zarrFormat(format)
            .emptyChunks(EmptyChunks.WRITE);
    return c == null ? b : b.compression(c);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18})
  void runsStoreTheBytesOfTheWholeChunk(int seed) throws Exception {
    Random r = new Random(seed);
    DType t = DTYPES[(seed - 1) % DTYPES.length];
    int nd = 1 + r.nextInt(3);
    long[] shape = new long[nd];
    long[] chunks = new long[nd];
    for (int d = 0; d < nd; d++) {
      chunks[d] = 1 + r.nextInt(d == nd - 1 ? 300 : 12);
      shape[d] = chunks[d] * (1 + r.nextInt(2)) - r.nextInt((int) chunks[d]); // edges too
    }
    int format = seed % 3 == 0 ? 2 : 3;
    // the default (streams), zstd (streams in v3, zarr-python 3's default; whole chunk in v2),
    // gzip (whole chunk), a small block size (many runs)
    Compression[] codecs = {
      null,
      Compression.zstd(1),
      Compression.gzip(1),
      Compression.blosc(Compression.BloscCodec.LZ4, 5, Compression.Shuffle.BYTE)
    };
    for (Compression c : codecs) {
      MemoryStore s = new MemoryStore();
      ZarrArray whole = builder(s, "whole", t, shape, chunks, format, c).build();
      ZarrArray runs = builder(s, "runs", t, shape, chunks, format, c).build();
      assertEquals(
          c == null
              || c.toString().startsWith("blosc(lz4")
              || c.kind() == Compression.Kind.ZSTD && format == 3,
          runs.streamsWrites(),
          "streams with " + c + " in format " + format);
      long[] grid = whole.chunkGridShape();
      for (long f = 0; f < Shapes.size(grid); f++) {
        long[] key = Shapes.unravel(grid, f);
        NDArray block = random(t, whole.chunkShape(key), r, f % 2 == 0);
        whole.writeChunk(key, block);
        runs.writeChunk(key, new Runs(block));
        assertArrayEquals(
            s.get(whole.chunkKey(key)),
            s.get(runs.chunkKey(key)),
            "chunk "
                + Arrays.toString(key)
                + " of "
                + t
                + " "
                + Shapes.format(shape)
                + " chunks "
                + Shapes.format(chunks)
                + " v"
                + format
                + " "
                + c);
      }
      assertEquals(whole.read(), runs.read(), "read back");
    }
  }

  @Test
  void incompressibleChunkIsEncodedTwiceFromItsRuns() throws Exception {
    // random float64 bits do not compress: the codec stores the chunk as it is, asking the source
    // for every run again
    Random r = new Random(7);
    long[] shape = {300, 200};
    NDArray a = NDArray.zeros(DType.FLOAT64, shape);
    double[] d = (double[]) a.data();
    for (int i = 0; i < d.length; i++) {
      d[i] = Double.longBitsToDouble(r.nextLong() & 0x7FEFFFFFFFFFFFFFL);
    }
    MemoryStore s = new MemoryStore();
    ZarrArray whole = builder(s, "whole", DType.FLOAT64, shape, shape, 3, null).build();
    ZarrArray runs = builder(s, "runs", DType.FLOAT64, shape, shape, 3, null).build();
    whole.writeChunk(new long[] {0, 0}, a);
    Runs src = new Runs(a);
    runs.writeChunk(new long[] {0, 0}, src);
    assertArrayEquals(s.get("whole/c/0/0"), s.get("runs/c/0/0"));
    long asked = src.asked.stream().mapToLong(x -> x[1]).sum();
    assertEquals(2L * a.size(), asked, "every element asked for twice");
    assertEquals(a, runs.read());
  }

  @Test
  void allFillChunkIsNotStoredWithSkip() throws Exception {
    MemoryStore s = new MemoryStore();
    ZarrArray z =
        ZarrArray.create(s, "a")
            .shape(10, 10)
            .chunks(4, 4)
            .dtype(DType.FLOAT64)
            .fillValue(2.0)
            .build();
    z.writeChunk(new long[] {0, 0}, NDArray.full(DType.FLOAT64, 5.0, new long[] {4, 4}));
    assertTrue(z.chunkExists(0, 0));
    // an edge chunk all fill: deleted (a stored one) rather than written
    z.writeChunk(new long[] {2, 2}, new Runs(NDArray.full(DType.FLOAT64, 7.0, new long[] {2, 2})));
    assertTrue(z.chunkExists(2, 2));
    z.writeChunk(new long[] {2, 2}, new Runs(NDArray.full(DType.FLOAT64, 2.0, new long[] {2, 2})));
    assertFalse(z.chunkExists(2, 2));
    z.writeChunk(new long[] {0, 0}, new Runs(NDArray.full(DType.FLOAT64, 2.0, new long[] {4, 4})));
    assertFalse(z.chunkExists(0, 0));
    NDArray one = NDArray.full(DType.FLOAT64, 2.0, new long[] {4, 4});
    one.setDouble(15, 3.0); // the last element differs: stored
    z.writeChunk(new long[] {0, 0}, new Runs(one));
    assertTrue(z.chunkExists(0, 0));
    assertEquals(3.0, z.read().getDouble(3 * 10 + 3));
  }

  @Test
  void failingSourceStoresNothingAndRethrows() throws Exception {
    MemoryStore s = new MemoryStore();
    // 800 KB: four runs of a 256 KiB codec block, the second fails
    ZarrArray z =
        ZarrArray.create(s, "a").shape(100_000).chunks(100_000).dtype(DType.FLOAT64).build();
    NDArray before = NDArray.full(DType.FLOAT64, 1.5, new long[] {100_000});
    z.writeChunk(new long[] {0}, before);
    byte[] stored = s.get("a/c/0");
    IOException boom = new IOException("disk gone");
    IOException got =
        assertThrows(
            IOException.class,
            () ->
                z.writeChunk(
                    new long[] {0},
                    (start, count) -> {
                      if (start > 0) {
                        throw boom;
                      }
                      return NDArray.zeros(DType.FLOAT64, new long[] {count});
                    }));
    assertSame(boom, got);
    assertArrayEquals(stored, s.get("a/c/0"), "the earlier chunk is kept");
    // a wrong run: named
    IllegalStateException bad =
        assertThrows(
            IllegalStateException.class,
            () ->
                z.writeChunk(
                    new long[] {0},
                    (start, count) -> NDArray.zeros(DType.FLOAT32, new long[] {count})));
    assertTrue(
        bad.getMessage().contains("float32") || bad.getMessage().contains("FLOAT32"),
        bad.getMessage());
    assertArrayEquals(stored, s.get("a/c/0"));
    // a non-streaming codec: the same failure, nothing stored
    ZarrArray zz =
        ZarrArray.create(s, "b")
            .shape(1000)
            .chunks(1000)
            .dtype(DType.FLOAT64)
            .compression(Compression.gzip(1))
            .build();
    assertFalse(zz.streamsWrites());
    assertThrows(
        IOException.class,
        () ->
            zz.writeChunk(
                new long[] {0},
                (start, count) -> {
                  throw new IOException("no");
                }));
    assertNull(s.get("b/c/0"));
  }

  @Test
  void paddedRunsAskOneClippedRunEach() throws Exception {
    // an edge chunk (3, 5) of a (4, 8) chunk: each run of the full chunk asks the clipped source
    // once, for the clipped rows it touches
    NDArray clip = NDArray.zeros(DType.INT32, new long[] {3, 5});
    for (int i = 0; i < 15; i++) {
      clip.setLong(i, i + 1);
    }
    Runs src = new Runs(clip);
    ChunkElements full =
        ChunkRuns.padded(src, DType.INT32, new long[] {3, 5}, new long[] {4, 8}, -1);
    NDArray all = ChunkRuns.run(full, DType.INT32, 0, 32);
    int[] want = {
      1, 2, 3, 4, 5, -1, -1, -1, 6, 7, 8, 9, 10, -1, -1, -1, 11, 12, 13, 14, 15, -1, -1, -1, -1, -1,
      -1, -1, -1, -1, -1, -1
    };
    assertArrayEquals(want, (int[]) all.data());
    assertEquals(1, src.asked.size());
    NDArray mid = ChunkRuns.run(full, DType.INT32, 6, 5); // -1 -1 6 7 8: rows 0 and 1
    assertArrayEquals(new int[] {-1, -1, 6, 7, 8}, (int[]) mid.data());
    assertArrayEquals(new long[] {0, 10}, src.asked.get(1));
    NDArray pad = ChunkRuns.run(full, DType.INT32, 24, 8); // the padded last row only
    assertArrayEquals(new int[] {-1, -1, -1, -1, -1, -1, -1, -1}, (int[]) pad.data());
    assertEquals(2, src.asked.size(), "no clipped element needed: not asked");
  }
}
