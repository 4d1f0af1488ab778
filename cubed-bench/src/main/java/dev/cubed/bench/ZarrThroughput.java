package dev.cubed.bench;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.Store;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * Write and read throughput of a float64 Zarr v3 array (default 1 GiB, 16 MiB chunks) with zstd
 * level 1, blosc-lz4 and no compression, beside {@code cp} of the uncompressed array on the same
 * disk in the same run. Prints a Markdown table.
 *
 * <p>Usage: {@code ZarrThroughput [--dir DIR] [--size-mb N] [--chunk-mb N] [--threads N]}. The
 * directory is deleted at the end.
 */
public final class ZarrThroughput {
  private ZarrThroughput() {}

  /** Runs the measurement; see the class comment for arguments. */
  public static void main(String[] args) throws Exception {
    Path dir = Paths.get("target/zarr-throughput");
    long sizeMb = 1024;
    long chunkMb = 16;
    int threads = Runtime.getRuntime().availableProcessors();
    for (int i = 0; i < args.length; i += 2) {
      switch (args[i]) {
        case "--dir" -> dir = Paths.get(args[i + 1]);
        case "--size-mb" -> sizeMb = Long.parseLong(args[i + 1]);
        case "--chunk-mb" -> chunkMb = Long.parseLong(args[i + 1]);
        case "--threads" -> threads = Integer.parseInt(args[i + 1]);
        default ->
            throw new IllegalArgumentException(
                "ZarrThroughput: unknown argument "
                    + args[i]
                    + "; expected --dir, --size-mb, --chunk-mb, --threads");
      }
    }
    long cols = 8192; // one row = 64 KiB
    long chunkRows = chunkMb * (1 << 20) / 8 / cols;
    long rows = sizeMb * (1 << 20) / 8 / cols;
    deleteTree(dir);
    Files.createDirectories(dir);
    // a few distinct chunk payloads: smooth signal plus noise (compressible like real data)
    NDArray[] payloads = new NDArray[4];
    Random r = new Random(42);
    for (int p = 0; p < payloads.length; p++) {
      double[] d = new double[(int) (chunkRows * cols)];
      for (int i = 0; i < d.length; i++) {
        d[i] = Math.sin(i * 1e-3 + p) * 100 + Math.round(r.nextGaussian() * 100) / 100.0;
      }
      payloads[p] = NDArray.of(d, chunkRows, cols);
    }
    System.out.printf(
        "Zarr throughput: float64 (%d, %d) = %d MiB, chunks (%d, %d) = %d MiB,"
            + " %d threads, %s%n%n",
        rows, cols, sizeMb, chunkRows, cols, chunkMb, threads, dir);
    System.out.println("| codec | stored MiB | write s | write MiB/s | read s | read MiB/s |");
    System.out.println("|---|---:|---:|---:|---:|---:|");
    Object[][] codecs = {
      {"zstd level 1", Compression.zstd(1)},
      {
        "blosc lz4 (byte shuffle)",
        Compression.blosc(Compression.BloscCodec.LZ4, 5, Compression.Shuffle.BYTE)
      },
      {"none", Compression.none()}
    };
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      // warm-up (JIT, native libraries): a few chunks per codec, untimed
      for (Object[] c : codecs) {
        ZarrArray w =
            ZarrArray.create(new FileSystemStore(dir.resolve("warmup.zarr")), "")
                .shape(chunkRows * 4, cols)
                .chunks(chunkRows, cols)
                .dtype(DType.FLOAT64)
                .compression((Compression) c[1])
                .overwrite()
                .build();
        for (long k = 0; k < 4; k++) {
          w.writeChunk(new long[] {k, 0}, payloads[(int) k]);
          w.readChunk(k, 0);
        }
      }
      deleteTree(dir.resolve("warmup.zarr"));
      for (Object[] c : codecs) {
        String name = (String) c[0];
        Path adir = dir.resolve(name.split(" ")[0] + ".zarr");
        Store store = new FileSystemStore(adir);
        ZarrArray a =
            ZarrArray.create(store, "")
                .shape(rows, cols)
                .chunks(chunkRows, cols)
                .dtype(DType.FLOAT64)
                .compression((Compression) c[1])
                .build();
        long nChunks = a.chunkGridShape()[0];
        long t0 = System.nanoTime();
        List<Future<?>> fs = new ArrayList<>();
        for (long k = 0; k < nChunks; k++) {
          long kk = k;
          fs.add(
              pool.submit(
                  () -> a.writeChunk(new long[] {kk, 0}, payloads[(int) (kk % payloads.length)])));
        }
        for (Future<?> f : fs) {
          f.get();
        }
        double ws = (System.nanoTime() - t0) / 1e9;
        long stored = treeSize(adir);
        t0 = System.nanoTime();
        List<Future<Double>> rs = new ArrayList<>();
        for (long k = 0; k < nChunks; k++) {
          long kk = k;
          rs.add(pool.submit(() -> a.readChunk(kk, 0).getDouble(7)));
        }
        double sink = 0;
        for (Future<Double> f : rs) {
          sink += f.get();
        }
        double rsec = (System.nanoTime() - t0) / 1e9;
        if (Double.isNaN(sink)) {
          System.out.println("(unexpected NaN)");
        }
        System.out.printf(
            "| %s | %.0f | %.2f | %.0f | %.2f | %.0f |%n",
            name, stored / 1048576.0, ws, sizeMb / ws, rsec, sizeMb / rsec);
      }
    } finally {
      pool.shutdown();
    }
    Path src = dir.resolve("none.zarr");
    Path dst = dir.resolve("cp-copy.zarr");
    long t0 = System.nanoTime();
    Process p = new ProcessBuilder("cp", "-r", src.toString(), dst.toString()).inheritIO().start();
    int code = p.waitFor();
    double cs = (System.nanoTime() - t0) / 1e9;
    System.out.printf(
        "| `cp -r` of the uncompressed array (exit %d) | %.0f | %.2f | %.0f | | |%n",
        code, treeSize(dst) / 1048576.0, cs, sizeMb / cs);
    deleteTree(dir);
  }

  static long treeSize(Path p) throws IOException {
    try (Stream<Path> s = Files.walk(p)) {
      return s.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
    }
  }

  static void deleteTree(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (Stream<Path> s = Files.walk(p)) {
      for (Path f : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(f);
      }
    }
  }
}
