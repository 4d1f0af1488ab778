package dev.cubed.zarr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.MemoryStore;
import dev.cubed.zarr.store.ZarrFormatException;
import java.lang.reflect.Array;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link ChunkReader}: runs of a stored chunk read a few codec blocks at a time equal the same
 * elements of the decoded chunk, for dtypes, edge chunks (padding), chunks stored uncompressed,
 * small caches (blocks decoded again) and runs across blocks; a chunk not stored reads as fill (an
 * intermediate's is an error); a truncated chunk is named.
 */
class ChunkReaderTest {
  @TempDir Path dir;

  private static final DType[] DTYPES = {
    DType.FLOAT64, DType.FLOAT32, DType.INT16, DType.COMPLEX128, DType.UINT8, DType.INT64
  };

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
  void runsEqualTheDecodedChunk(int seed) {
    Random r = new Random(seed);
    DType t = DTYPES[(seed - 1) % DTYPES.length];
    long[] chunks = {3 + r.nextInt(4), 50 + r.nextInt(400), 100 + r.nextInt(300)};
    long[] shape = {chunks[0] * 2 - 1, chunks[1] + 7, chunks[2] * 2 - 3}; // edge chunks
    boolean noisy = seed % 3 == 0; // random bits: stored uncompressed
    FileSystemStore fs = new FileSystemStore(dir);
    ZarrArray z = ZarrArray.create(fs, "a" + seed).shape(shape).chunks(chunks).dtype(t).build();
    NDArray a = NDArray.zeros(t, shape);
    for (int i = 0; i < a.size(); i++) {
      if (t.kind() == DType.Kind.FLOAT || t.isComplex()) {
        a.setDouble(
            i,
            noisy
                ? Double.longBitsToDouble(r.nextLong() & 0x7FEFFFFFFFFFFFFFL)
                : Math.sin(i * 0.001));
      } else {
        a.setLong(i, noisy ? r.nextLong() : i % 13);
      }
    }
    z.write(new long[3], a);
    assertTrue(z.readsRegions());
    long[] grid = z.chunkGridShape();
    int slots = t.isComplex() ? 2 : 1;
    for (long f = 0; f < Shapes.size(grid); f++) {
      long[] c = Shapes.unravel(grid, f);
      NDArray whole = z.readChunk(c);
      long[] clip = whole.shape();
      NDArray full = NDArray.zeros(t, chunks); // the padded chunk (fill 0)
      full.setRegion(new long[3], whole);
      try (ChunkReader rd = z.chunkReader(c, 1 + r.nextInt(3))) {
        assertNotNull(rd);
        long total = Shapes.size(chunks);
        for (int k = 0; k < 40; k++) {
          long start = (long) (r.nextDouble() * total);
          int count = (int) Math.min(total - start, 1 + r.nextInt(70_000));
          NDArray got = NDArray.zeros(t, new long[] {count + 3});
          rd.read(start, count, got.data(), 3);
          for (int i = 0; i < count * slots; i += Math.max(1, count * slots / 97)) {
            assertEquals(
                Array.get(full.data(), (int) (start * slots + i)),
                Array.get(got.data(), 3 * slots + i),
                "seed "
                    + seed
                    + " chunk "
                    + Arrays.toString(c)
                    + " clip "
                    + Shapes.format(clip)
                    + " element "
                    + (start + i / slots));
          }
        }
      }
    }
  }

  @Test
  void missingChunkReadsAsFillOrIsAnErrorForIntermediates() throws Exception {
    FileSystemStore fs = new FileSystemStore(dir);
    ZarrArray z =
        ZarrArray.create(fs, "m")
            .shape(100, 100)
            .chunks(50, 50)
            .dtype(DType.FLOAT64)
            .fillValue(2.5)
            .build();
    try (ChunkReader rd = z.chunkReader(new long[] {1, 1}, 2)) {
      double[] d = new double[10];
      rd.read(2490, 10, d, 0);
      for (double v : d) {
        assertEquals(2.5, v);
      }
    }
    ZarrArray i = z.asIntermediate();
    assertThrows(MissingChunkException.class, () -> i.chunkReader(new long[] {0, 0}, 2));
    // not a local directory: no reader (read whole)
    ZarrArray mem =
        ZarrArray.create(new MemoryStore(), "m")
            .shape(100, 100)
            .chunks(50, 50)
            .dtype(DType.FLOAT64)
            .build();
    assertFalse(mem.readsRegions());
    assertNull(mem.chunkReader(new long[] {0, 0}, 2));
  }

  @Test
  void truncatedChunkIsNamed() throws Exception {
    FileSystemStore fs = new FileSystemStore(dir);
    ZarrArray z =
        ZarrArray.create(fs, "t").shape(200_000).chunks(200_000).dtype(DType.FLOAT64).build();
    NDArray a = NDArray.zeros(DType.FLOAT64, new long[] {200_000});
    for (int k = 0; k < a.size(); k++) {
      a.setDouble(k, Math.cos(k));
    }
    z.write(new long[1], a);
    Path p = dir.resolve("t/c/0");
    byte[] b = Files.readAllBytes(p);
    Files.write(p, Arrays.copyOf(b, b.length - 1000));
    ZarrFormatException e =
        assertThrows(
            ZarrFormatException.class,
            () -> {
              try (ChunkReader rd = z.chunkReader(new long[] {0}, 2)) {
                double[] d = new double[200_000];
                rd.read(0, 200_000, d, 0);
              }
            });
    assertTrue(e.getMessage().contains("'t/c/0'"), e.getMessage());
    // the same chunk intact reads back
    Files.write(p, b);
    try (ChunkReader rd = z.chunkReader(new long[] {0}, 2)) {
      double[] d = new double[5];
      rd.read(199_995, 5, d, 0);
      assertArrayEquals(Arrays.copyOfRange((double[]) a.data(), 199_995, 200_000), d);
    }
  }

  /**
   * Evicted blocks' arrays are reused for the next block decoded: every element read back in any
   * order equals the chunk's (no element of an earlier block left behind), the shorter last block
   * included (its array is not one of the full blocks').
   */
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void reusedBlockArraysHoldOnlyTheirBlock(int cache) {
    FileSystemStore fs = new FileSystemStore(dir);
    int n = 5 * 32_768 + 1_234; // five full 256 KiB blocks of float64 and a short one
    ZarrArray z = ZarrArray.create(fs, "r" + cache).shape(n).chunks(n).dtype(DType.FLOAT64).build();
    double[] want = new double[n];
    for (int k = 0; k < n; k++) {
      want[k] = Math.sin(k * 0.37) * (1 + k % 7);
    }
    z.write(new long[1], new NDArray(DType.FLOAT64, new long[] {n}, want));
    int[][] orders = {{0, 1, 2, 3, 4, 5}, {5, 4, 3, 2, 1, 0}, {2, 5, 0, 5, 3, 1, 4, 0}};
    for (int[] order : orders) {
      try (ChunkReader rd = z.chunkReader(new long[] {0}, cache)) {
        double[] got = new double[n];
        for (int b : order) {
          int start = b * 32_768;
          int count = Math.min(32_768, n - start);
          rd.read(start, count, got, start);
          assertArrayEquals(
              Arrays.copyOfRange(want, start, start + count),
              Arrays.copyOfRange(got, start, start + count),
              "block " + b + " of order " + Arrays.toString(order) + ", cache " + cache);
        }
        // a run across every block boundary, read last
        double[] across = new double[n - 100];
        rd.read(50, n - 100, across, 0);
        assertArrayEquals(Arrays.copyOfRange(want, 50, n - 50), across);
      }
    }
  }

  /**
   * Float64 in the default (shuffled) codec: runs are unshuffled from the cached shuffled blocks,
   * exactly equal to the decoded chunk for every start offset modulo 8, short and long counts, runs
   * across block boundaries and into the short last block; big-endian float64 and int64 take the
   * decoded path and agree too.
   */
  @ParameterizedTest
  @ValueSource(strings = {"float64", "float64-be", "int64"})
  void shuffledFloat64RunsAreUnshuffledStraightIntoTheirDestination(String kind) {
    FileSystemStore fs = new FileSystemStore(dir);
    int n = 3 * 32_768 + 4_321;
    DType t = kind.equals("int64") ? DType.INT64 : DType.FLOAT64;
    var b = ZarrArray.create(fs, "s" + kind).shape(n).chunks(n).dtype(t);
    if (kind.endsWith("-be")) {
      b = b.byteOrder(ByteOrder.BIG_ENDIAN);
    }
    ZarrArray z = b.build();
    NDArray a = NDArray.zeros(t, new long[] {n});
    for (int k = 0; k < n; k++) {
      if (t == DType.FLOAT64) {
        a.setDouble(k, k % 11 == 0 ? -0.0 : Math.cos(k * 0.013) * (k % 5));
      } else {
        a.setLong(k, (long) k * 977 % 3001 - 1500);
      }
    }
    z.write(new long[1], a);
    Random r = new Random(kind.hashCode());
    try (ChunkReader rd = z.chunkReader(new long[] {0}, 2)) {
      assertEquals(kind.equals("float64"), rd.unshufflesRuns(), kind);
      long[] starts = {
        0, 1, 7, 8, 9, 32_760, 32_767, 32_768, 65_530, 3L * 32_768 - 3, n - 20, n - 1
      };
      for (long start : starts) {
        for (int count : new int[] {1, 2, 7, 8, 9, 15, 16, 17, 100, 40_000}) {
          int c = (int) Math.min(count, n - start);
          NDArray got = NDArray.full(t, 99, new long[] {c + 5});
          rd.read(start, c, got.data(), 5);
          NDArray want = NDArray.full(t, 99, new long[] {c + 5});
          want.setRegion(new long[] {5}, a.getRegion(new long[] {start}, new long[] {c}));
          assertEquals(want, got, kind + " run [" + start + ", " + (start + c) + ")");
        }
      }
      for (int k = 0; k < 200; k++) {
        long start = (long) (r.nextDouble() * n);
        int c = (int) Math.min(n - start, 1 + r.nextInt(70_000));
        NDArray got = NDArray.zeros(t, new long[] {c});
        rd.read(start, c, got.data(), 0);
        assertEquals(a.getRegion(new long[] {start}, new long[] {c}), got, kind + " random run");
      }
    }
  }
}
