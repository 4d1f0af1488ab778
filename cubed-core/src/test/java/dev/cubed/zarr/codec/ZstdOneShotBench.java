package dev.cubed.zarr.codec;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

/**
 * Wall time of reading one zstd chunk from a file (a 2000 x 2000 float64 chunk, 32 MB decoded, of
 * smooth values with noise, written with the frame's content size as zarr-python does), decoded in
 * one call ({@link OneShotZstd}) against streamed ({@link StreamedDecode}), interleaved: each round
 * times {@code reps} reads of each path in turn, and the medians over rounds are printed with their
 * ratio. Args: {@code [rounds] [reps] [side]}.
 */
public final class ZstdOneShotBench {
  private ZstdOneShotBench() {}

  /** Thread CPU time instead of wall time ({@code -Dcpu=true}): waits for a core do not count. */
  private static final boolean CPU = Boolean.getBoolean("cpu");

  /** Full-precision noise ({@code -Dnoise=true}, nearly incompressible) or values to 0.1. */
  private static final boolean NOISE = Boolean.getBoolean("noise");

  /** Runs the comparison and prints the medians. */
  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 9;
    int reps = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    int side = args.length > 2 ? Integer.parseInt(args[2]) : 2000;
    Path dir = Files.createTempDirectory("zstd-one-shot");
    FileSystemStore fs = new FileSystemStore(dir);
    ZarrArray z =
        ZarrArray.create(fs, "a")
            .shape(side, side)
            .chunks(side, side)
            .dtype(DType.FLOAT64)
            .compression(Compression.zstd(0))
            .build();
    NDArray x = NDArray.zeros(DType.FLOAT64, side, side);
    double[] d = (double[]) x.data();
    Random r = new Random(1);
    for (int i = 0; i < d.length; i++) {
      d[i] =
          NOISE
              ? 280 + 10 * Math.sin(i / 5000.0) + r.nextGaussian()
              : Math.round(2800 + 100 * Math.sin(i / 5000.0) + 3 * r.nextGaussian()) / 10.0;
    }
    z.write(new long[2], x);
    ZarrArray back = ZarrArray.open(fs, "a");
    System.out.printf(
        "chunk %d x %d float64, %d bytes stored%n", side, side, Files.size(dir.resolve("a/c/0/0")));
    double[] one = new double[rounds];
    double[] streamed = new double[rounds];
    for (int w = 0; w < 3; w++) {
      time(back, true, reps);
      time(back, false, reps);
    }
    for (int k = 0; k < rounds; k++) {
      boolean first = k % 2 == 0;
      double a = time(back, first, reps);
      double b = time(back, !first, reps);
      one[k] = first ? a : b;
      streamed[k] = first ? b : a;
    }
    StreamedDecode.oneShot = false;
    double mo = median(one);
    double ms = median(streamed);
    System.out.printf(
        "one call %.2f ms, streamed %.2f ms per chunk (medians of %d rounds of %d reads);"
            + " one call / streamed = %.3f%n",
        mo, ms, rounds, reps, mo / ms);
    System.out.println("one call rounds " + Arrays.toString(one));
    System.out.println("streamed rounds " + Arrays.toString(streamed));
  }

  private static double time(ZarrArray z, boolean oneShot, int reps) {
    StreamedDecode.oneShot = oneShot;
    java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
    long t0 = CPU ? mx.getCurrentThreadCpuTime() : System.nanoTime();
    double sink = 0;
    for (int i = 0; i < reps; i++) {
      sink += z.readChunk(0, 0).getDouble(1);
    }
    long t1 = CPU ? mx.getCurrentThreadCpuTime() : System.nanoTime();
    if (sink == 42) {
      System.out.print("");
    }
    return Math.round((t1 - t0) / 1e4 / reps) / 100.0;
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }
}
