package dev.cubed.zarr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.store.FileSystemStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many threads (four per core, at least 8) reading strided selections and boxes of one zstd array
 * at once, released together: the decoders' per-thread buffers and the strided sinks share nothing
 * between reads, so every read equals the same read made alone beforehand.
 */
class StridedReadStressTest {
  @TempDir Path dir;

  @Test
  void concurrentStridedAndBoxReadsOfOneArrayEqualTheSequentialOnes() throws Exception {
    long[] shape = {90, 70};
    ZarrArray z =
        ZarrArray.create(new FileSystemStore(dir), "a")
            .shape(shape)
            .chunks(32, 24)
            .dtype(DType.FLOAT64)
            .compression(Compression.zstd(1))
            .build();
    Random r = new Random(42);
    NDArray a = NDArray.zeros(DType.FLOAT64, shape);
    for (int i = 0; i < a.size(); i++) {
      a.setDouble(i, r.nextDouble());
    }
    z.write(new long[2], a);
    assertThat(z.readsBoxes()).isTrue();
    int reads = 64;
    long[][][] sel = new long[reads][][];
    NDArray[] alone = new NDArray[reads];
    for (int k = 0; k < reads; k++) {
      long[] start = {r.nextInt(90), r.nextInt(70)};
      long[] step = {1 + r.nextInt(5), 1 + r.nextInt(5)};
      long[] count = {
        1 + r.nextInt((int) ((89 - start[0]) / step[0] + 1)),
        1 + r.nextInt((int) ((69 - start[1]) / step[1] + 1))
      };
      sel[k] = new long[][] {start, step, count};
      alone[k] = read(z, sel[k], k);
    }
    int threads = Math.max(8, 4 * Runtime.getRuntime().availableProcessors());
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      for (int round = 0; round < 5; round++) {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Boolean>> fs = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          int first = t;
          fs.add(
              pool.submit(
                  () -> {
                    go.await();
                    boolean same = true;
                    for (int j = 0; j < reads; j++) {
                      int k = (first + j * 7) % reads;
                      same &= read(z, sel[k], k).equals(alone[k]);
                    }
                    return same;
                  }));
        }
        go.countDown();
        for (Future<Boolean> f : fs) {
          assertThat(f.get()).as("round " + round).isTrue();
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** Even selections strided, odd ones the box they span. */
  private static NDArray read(ZarrArray z, long[][] s, int k) {
    if (k % 2 == 0) {
      return z.readStrided(s[0], s[1], s[2]);
    }
    long[] box = {(s[2][0] - 1) * s[1][0] + 1, (s[2][1] - 1) * s[1][1] + 1};
    return z.read(s[0], box);
  }
}
