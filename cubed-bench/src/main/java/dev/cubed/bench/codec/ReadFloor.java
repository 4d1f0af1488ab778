package dev.cubed.bench.codec;

import com.github.luben.zstd.ZstdDecompressCtx;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * The read-once floor of stored Zarr arrays in one JVM: every chunk of each array read and decoded
 * once per round with {@link ZarrArray#readChunk} on a pool of {@code --threads} threads (what the
 * engine's tasks call), the rounds one after another; prints one line per round ({@code round N
 * engine T threads S s MB/s}) and the median of the rounds after the first (the first includes
 * class loading and compiling). The same loop in Python with numcodecs is {@code
 * scripts/perf/read_floor.py}; run the two in turn to compare.
 *
 * <p>With {@code --stages} it times, on one thread, the stages of a zstd chunk's decode separately,
 * chunk file by chunk file: the file read into a reused direct buffer, one {@code
 * ZSTD_decompressDCtx} call into a second reused direct buffer, the chunk's new {@code double[]},
 * the bulk copy of the decoded bytes into it, and (for comparison) the streamed decode in 256 KiB
 * slices that {@code StreamedDecode} uses. Arrays: zarr-python's defaults (bytes + zstd), float64.
 *
 * <p>With {@code --decode} it times zstd's one-call decode alone, the chunk files held in memory
 * (thread CPU seconds, the counterpart of numcodecs' decode of bytes in memory); {@code --one-shot}
 * turns on the engine's one-call decode ({@code StreamedDecode.oneShot}) for the rounds.
 *
 * <p>Args: {@code ARRAY_DIR... [--threads N] [--rounds R] [--stages | --decode] [--one-shot]}.
 */
public final class ReadFloor {
  private ReadFloor() {}

  /** Runs the measurement; see the class comment. */
  public static void main(String[] args) throws Exception {
    List<Path> dirs = new ArrayList<>();
    int threads = 1;
    int rounds = 5;
    boolean stages = false;
    boolean decode = false;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--threads" -> threads = Integer.parseInt(args[++i]);
        case "--rounds" -> rounds = Integer.parseInt(args[++i]);
        case "--stages" -> stages = true;
        case "--decode" -> decode = true;
        case "--one-shot" -> oneShot(true);
        default -> dirs.add(Path.of(args[i]));
      }
    }
    if (dirs.isEmpty()) {
      throw new IllegalArgumentException(
          "usage: ReadFloor ARRAY_DIR... [--threads N] [--rounds R] [--stages | --decode] [--one-shot]");
    }
    if (decode) {
      decodeOnly(dirs, rounds);
      return;
    }
    double[] secs = new double[rounds];
    double[] cpus = new double[rounds];
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    for (int r = 0; r < rounds; r++) {
      long c0 = os.getProcessCpuTime();
      long t0 = System.nanoTime();
      long bytes = stages ? stages(dirs) : engine(dirs, threads);
      secs[r] = (System.nanoTime() - t0) / 1e9;
      cpus[r] = (os.getProcessCpuTime() - c0) / 1e9;
      System.out.printf(
          Locale.ROOT,
          "round %d %s threads %d %.3f s process cpu %.3f s %.0f MB/s%n",
          r + 1,
          stages ? "stages" : "engine",
          threads,
          secs[r],
          cpus[r],
          bytes / 1e6 / secs[r]);
    }
    double[] warmCpu = Arrays.copyOfRange(cpus, Math.min(1, rounds - 1), rounds);
    Arrays.sort(warmCpu);
    System.out.printf(Locale.ROOT, "median cpu warm %.3f s%n", warmCpu[warmCpu.length / 2]);
    double[] warm = Arrays.copyOfRange(secs, Math.min(1, rounds - 1), rounds);
    Arrays.sort(warm);
    System.out.printf(
        Locale.ROOT,
        "median %s threads %d first %.3f s warm %.3f s%n",
        stages ? "stages" : "engine",
        threads,
        secs[0],
        warm[warm.length / 2]);
  }

  /**
   * Turns on (or off) the engine's one-call zstd decode ({@code StreamedDecode.oneShot}, off by
   * default), to compare it with the streamed decode in the same harness.
   */
  static void oneShot(boolean on) throws ReflectiveOperationException {
    java.lang.reflect.Field f =
        Class.forName("dev.cubed.zarr.codec.StreamedDecode").getDeclaredField("oneShot");
    f.setAccessible(true);
    f.setBoolean(null, on);
  }

  /** Every chunk of every array read once with readChunk on {@code threads} threads. */
  static long engine(List<Path> dirs, int threads) throws Exception {
    List<Runnable> jobs = new ArrayList<>();
    long[] bytes = new long[1];
    AtomicInteger sink = new AtomicInteger();
    for (Path d : dirs) {
      ZarrArray z = ZarrArray.open(d.toString());
      long[] grid = z.chunkGridShape();
      long n = z.chunkCount();
      for (long k = 0; k < n; k++) {
        long[] c = unravel(k, grid);
        bytes[0] += size(z.chunkShape(c)) * z.dtype().itemSize();
        jobs.add(
            () -> {
              NDArray a = z.readChunk(c);
              sink.addAndGet((int) a.size());
            });
      }
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> fs = new ArrayList<>();
      for (Runnable j : jobs) {
        fs.add(pool.submit(j));
      }
      for (Future<?> f : fs) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    return bytes[0];
  }

  /** Per-stage times of the zstd chunk files under {@code dirs}, one thread. */
  static long stages(List<Path> dirs) throws Exception {
    List<Path> files = new ArrayList<>();
    for (Path d : dirs) {
      try (Stream<Path> s = Files.walk(d.resolve("c"))) {
        s.filter(Files::isRegularFile).sorted().forEach(files::add);
      }
    }
    ByteBuffer src = null;
    ByteBuffer dst = null;
    ByteBuffer slice = ByteBuffer.allocateDirect(256 << 10);
    ByteBuffer in = ByteBuffer.allocateDirect(1 << 20);
    long tRead = 0;
    long tDecode = 0;
    long tAlloc = 0;
    long tCopy = 0;
    long tStream = 0;
    long total = 0;
    double check = 0;
    java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
    try (ZstdDecompressCtx ctx = new ZstdDecompressCtx()) {
      for (Path f : files) {
        long t0 = mx.getCurrentThreadCpuTime();
        int size;
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
          size = (int) ch.size();
          if (src == null || src.capacity() < size) {
            src = ByteBuffer.allocateDirect(size);
          }
          src.clear().limit(size);
          while (src.hasRemaining()) {
            ch.read(src, src.position());
          }
        }
        long t1 = mx.getCurrentThreadCpuTime();
        int need =
            (int) com.github.luben.zstd.Zstd.getDirectByteBufferFrameContentSize(src, 0, size);
        if (dst == null || dst.capacity() < need) {
          dst = ByteBuffer.allocateDirect(need);
        }
        ctx.reset();
        int n = ctx.decompressDirectByteBuffer(dst, 0, need, src, 0, size);
        long t2 = mx.getCurrentThreadCpuTime();
        double[] a = new double[n / 8];
        long t3 = mx.getCurrentThreadCpuTime();
        dst.clear().limit(n);
        dst.order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(a);
        long t4 = mx.getCurrentThreadCpuTime();
        ctx.reset();
        src.position(0).limit(size);
        int out = 0;
        while (true) {
          slice.clear();
          boolean done = ctx.decompressDirectByteBufferStream(slice, src);
          out += slice.position();
          if (done && !src.hasRemaining()) {
            break;
          }
        }
        long t5 = mx.getCurrentThreadCpuTime();
        if (out != n) {
          throw new IllegalStateException(f + ": streamed " + out + " bytes, one call " + n);
        }
        check += a[a.length / 2];
        tRead += t1 - t0;
        tDecode += t2 - t1;
        tAlloc += t3 - t2;
        tCopy += t4 - t3;
        tStream += t5 - t4;
        total += n;
      }
    }
    System.out.printf(
        Locale.ROOT,
        "  thread cpu: %d files, %.0f MB: read %.3f s, one-call decode %.3f s, new double[] %.3f s,"
            + " copy %.3f s; streamed decode %.3f s (check %.3g)%n",
        files.size(),
        total / 1e6,
        tRead / 1e9,
        tDecode / 1e9,
        tAlloc / 1e9,
        tCopy / 1e9,
        tStream / 1e9,
        check);
    return total;
  }

  /**
   * zstd decode alone: the chunk files held in direct buffers, decoded in one call each into a
   * reused direct buffer, {@code rounds} times; prints each round's thread CPU and wall seconds.
   */
  static void decodeOnly(List<Path> dirs, int rounds) throws Exception {
    List<ByteBuffer> values = new ArrayList<>();
    int max = 0;
    for (Path d : dirs) {
      try (Stream<Path> s = Files.walk(d.resolve("c"))) {
        for (Path f : s.filter(Files::isRegularFile).sorted().toList()) {
          byte[] b = Files.readAllBytes(f);
          ByteBuffer v = ByteBuffer.allocateDirect(b.length).put(b).flip();
          values.add(v);
          max =
              Math.max(
                  max,
                  (int)
                      com.github.luben.zstd.Zstd.getDirectByteBufferFrameContentSize(
                          v, 0, b.length));
        }
      }
    }
    ByteBuffer dst = ByteBuffer.allocateDirect(max);
    java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
    double[] cpu = new double[rounds];
    try (ZstdDecompressCtx ctx = new ZstdDecompressCtx()) {
      for (int r = 0; r < rounds; r++) {
        long c0 = mx.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        long total = 0;
        for (ByteBuffer v : values) {
          total += ctx.decompressDirectByteBuffer(dst, 0, max, v, 0, v.limit());
        }
        cpu[r] = (mx.getCurrentThreadCpuTime() - c0) / 1e9;
        System.out.printf(
            Locale.ROOT,
            "round %d decode cpu %.3f s wall %.3f s %d bytes%n",
            r + 1,
            cpu[r],
            (System.nanoTime() - t0) / 1e9,
            total);
      }
    }
    Arrays.sort(cpu);
    System.out.printf(Locale.ROOT, "median decode cpu %.3f s%n", cpu[rounds / 2]);
  }

  private static long[] unravel(long k, long[] grid) {
    long[] c = new long[grid.length];
    for (int i = grid.length - 1; i >= 0; i--) {
      c[i] = k % grid[i];
      k /= grid[i];
    }
    return c;
  }

  private static long size(long[] shape) {
    long n = 1;
    for (long s : shape) {
      n *= s;
    }
    return n;
  }
}
