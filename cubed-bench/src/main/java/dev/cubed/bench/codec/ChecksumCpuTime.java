package dev.cubed.bench.codec;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ChunkReader;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.ZarrArrayBuilder;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.store.FileSystemStore;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * The cost of crc32c checksums on chunk writes and reads (issue 24), in CPU seconds of the calling
 * thread (a shared machine's waiting for a core does not enter it): an 8 MB float64 chunk (1000 x
 * 1000, smooth values plus noise) written and read through a local directory (files in the page
 * cache), for the default codec (Blosc-LZ4, byte shuffle) and the local rechunk intermediates'
 * codec (Blosc level 0), each without and with crc32c; reads both whole ({@code readChunk}) and
 * through a {@link ChunkReader} (runs of 1000 elements). The variants alternate within each round;
 * prints one line per round and variant ({@code name MB/s}), then the median ratio with/without of
 * each pair. Args: {@code [rounds] [secondsPerOp] [dir]}.
 */
public final class ChecksumCpuTime {
  private ChecksumCpuTime() {}

  /** Runs the measurement; see the class comment. */
  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 2;
    Path dir = args.length > 2 ? Path.of(args[2]) : Files.createTempDirectory("checksum-cpu");
    int side = 1000;
    double[] d = new double[side * side];
    Random r = new Random(42);
    for (int i = 0; i < d.length; i++) {
      d[i] = Math.sin(i * 1e-3) * 100 + Math.round(r.nextGaussian() * 100) / 100.0;
    }
    NDArray chunk = new NDArray(DType.FLOAT64, new long[] {side, side}, d);
    Compression[] codecs = {
      Compression.projectDefault(),
      Compression.blosc(Compression.BloscCodec.LZ4, 0, Compression.Shuffle.NONE)
    };
    String[] codecNames = {"default", "level0"};
    List<String> names = new ArrayList<>();
    List<ZarrArray> arrays = new ArrayList<>();
    for (int c = 0; c < codecs.length; c++) {
      for (boolean crc : new boolean[] {false, true}) {
        ZarrArrayBuilder b =
            ZarrArray.create(new FileSystemStore(dir), codecNames[c] + crc)
                .shape(side, side)
                .chunks(side, side)
                .dtype(DType.FLOAT64)
                .compression(codecs[c])
                .overwrite();
        if (crc) {
          b.crc32c();
        }
        arrays.add(b.build());
        names.add(codecNames[c] + (crc ? "+crc32c" : ""));
      }
    }
    String[] ops = {"write", "read", "reader"};
    double[][][] mbs = new double[ops.length][arrays.size()][rounds];
    ThreadMXBean t = ManagementFactory.getThreadMXBean();
    long bytes = 8L * side * side;
    double[] run = new double[side];
    long sink = 0;
    for (int round = -1; round < rounds; round++) { // round -1: warm-up, not reported
      for (int o = 0; o < ops.length; o++) {
        for (int a = 0; a < arrays.size(); a++) {
          ZarrArray z = arrays.get(a);
          z.writeChunk(new long[] {0, 0}, chunk);
          long t0 = t.getCurrentThreadCpuTime();
          long n = 0;
          long now;
          do {
            switch (ops[o]) {
              case "write" -> z.writeChunk(new long[] {0, 0}, chunk);
              case "read" -> sink += z.readChunk(0, 0).shape()[0];
              default -> {
                try (ChunkReader cr = z.chunkReader(new long[] {0, 0}, 2)) {
                  for (int row = 0; row < side; row++) {
                    cr.read((long) row * side, side, run, 0);
                  }
                  sink += (long) run[0];
                }
              }
            }
            n++;
            now = t.getCurrentThreadCpuTime();
          } while (now - t0 < (long) (seconds * 1e9 * (round < 0 ? 0.5 : 1)));
          if (round >= 0) {
            mbs[o][a][round] = bytes * n / ((now - t0) / 1e3);
            System.out.printf(
                "round %d %s %s %.1f%n", round, ops[o], names.get(a), mbs[o][a][round]);
          }
        }
      }
    }
    System.out.println(
        "median over " + rounds + " rounds, MB per CPU second; ratio = with crc32c" + " / without");
    for (int o = 0; o < ops.length; o++) {
      for (int a = 0; a < arrays.size(); a += 2) {
        double off = median(mbs[o][a]);
        double on = median(mbs[o][a + 1]);
        double[] ratios = new double[rounds];
        for (int k = 0; k < rounds; k++) {
          ratios[k] = mbs[o][a + 1][k] / mbs[o][a][k];
        }
        System.out.printf(
            "%s %s: %.0f -> %.0f MB/s, ratio %.3f (per round %s)%n",
            ops[o],
            names.get(a),
            off,
            on,
            median(ratios),
            Arrays.toString(
                Arrays.stream(ratios).map(x -> Math.round(x * 1000) / 1000.0).toArray()));
      }
    }
    System.err.println("(sink " + sink + ")");
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
