package dev.cubed.zarr.codec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.zarr.ChunkReader;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.ZarrRoundTripTest;
import dev.cubed.zarr.store.FileSystemStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Forward zstd readers ({@link ZstdRuns}) on max(8, 4 x cores) threads released together, 5 rounds:
 * each thread keeps three readers of different chunks open at once (a tiled chain's leaves),
 * interleaves their runs, and every run equals the same elements of the chunk read whole; no reader
 * starts again. Fails if two readers (of one thread or of two) shared slices or a zstd context.
 */
class ZstdRunsStressTest {
  @TempDir Path dir;

  @Test
  void readersOnMoreThreadsThanCoresReadTheirOwnChunks() throws Exception {
    long[] shape = {1024, 1200};
    long[] chunks = {512, 600};
    ZarrArray z =
        ZarrArray.create(new FileSystemStore(dir), "s")
            .shape(shape)
            .chunks(chunks)
            .dtype(DType.FLOAT64)
            .compression(Compression.zstd(0))
            .build();
    z.write(new long[2], ZarrRoundTripTest.randomArray(DType.FLOAT64, shape, 31));
    double[][] want = new double[4][];
    for (int c = 0; c < 4; c++) {
      want[c] = (double[]) z.readChunk(c / 2, c % 2).data();
    }
    int threads = Math.max(8, 4 * Runtime.getRuntime().availableProcessors());
    long restarts = ZstdRuns.RESTARTS.sum();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
    try {
      for (int round = 0; round < 5; round++) {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          long seed = round * 1000L + t;
          done.add(
              pool.submit(
                  () -> {
                    go.await();
                    read(z, want, new Random(seed), wrong);
                    return null;
                  }));
        }
        go.countDown();
        for (Future<?> f : done) {
          f.get();
        }
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(wrong).isEmpty();
    assertThat(ZstdRuns.RESTARTS.sum()).isEqualTo(restarts);
  }

  /** Three readers of distinct chunks, runs of each in increasing order, interleaved. */
  private static void read(
      ZarrArray z, double[][] want, Random r, ConcurrentLinkedQueue<String> wrong) {
    int first = r.nextInt(4);
    int[] chunk = {first, (first + 1) % 4, (first + 2) % 4};
    ChunkReader[] readers = new ChunkReader[3];
    int[] at = new int[3];
    int total = 512 * 600;
    try {
      for (int i = 0; i < 3; i++) {
        readers[i] = z.chunkReader(new long[] {chunk[i] / 2, chunk[i] % 2}, 1);
      }
      double[] got = new double[40_000];
      while (at[0] < total || at[1] < total || at[2] < total) {
        int i = r.nextInt(3);
        if (at[i] >= total) {
          continue;
        }
        int n = Math.min(total - at[i], 1 + r.nextInt(got.length));
        readers[i].read(at[i], n, got, 0);
        for (int e = 0; e < n; e++) {
          // bit for bit (the random data holds NaNs and infinities)
          if (Double.doubleToRawLongBits(got[e])
              != Double.doubleToRawLongBits(want[chunk[i]][at[i] + e])) {
            wrong.add("chunk " + chunk[i] + " element " + (at[i] + e));
            break;
          }
        }
        at[i] += n + r.nextInt(2_000);
      }
    } finally {
      for (ChunkReader c : readers) {
        if (c != null) {
          c.close();
        }
      }
    }
  }
}
