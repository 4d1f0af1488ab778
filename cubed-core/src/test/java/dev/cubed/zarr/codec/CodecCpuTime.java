package dev.cubed.zarr.codec;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The {@link ByteShuffleBench} operations timed in CPU seconds of the calling thread instead of
 * wall time, so that a machine shared with other jobs (time spent waiting for a core) does not
 * enter the figure: after a warm-up of {@code warmSeconds} per operation, repeats each until {@code
 * seconds} of CPU time have passed and prints one line per operation, {@code name MB/s} (bytes per
 * call divided by CPU microseconds per call). Args: {@code [seconds] [warmSeconds]}.
 */
public final class CodecCpuTime {
  private CodecCpuTime() {}

  /** Runs every operation and prints its CPU throughput. */
  public static void main(String[] args) {
    double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 3;
    double warm = args.length > 1 ? Double.parseDouble(args[1]) : 2;
    ByteShuffleBench b = new ByteShuffleBench();
    b.bytes = 262_144;
    b.typeSize = 8;
    b.chunkSide = 1000;
    b.setup();
    long chunk = 8L * b.chunkSide * b.chunkSide;
    Map<String, Object[]> ops = new LinkedHashMap<>();
    ops.put("shuffle", new Object[] {(Supplier<Object>) b::shuffle, (long) b.bytes});
    ops.put("unshuffle", new Object[] {(Supplier<Object>) b::unshuffle, (long) b.bytes});
    ops.put(
        "shuffleArrayTranspose",
        new Object[] {(Supplier<Object>) b::shuffleArrayTranspose, (long) b.bytes});
    ops.put(
        "unshuffleArrayTranspose",
        new Object[] {(Supplier<Object>) b::unshuffleArrayTranspose, (long) b.bytes});
    ops.put("encodeChunk", new Object[] {(Supplier<Object>) b::encodeChunk, chunk});
    ops.put("decodeChunk", new Object[] {(Supplier<Object>) b::decodeChunk, chunk});
    ops.put("encodeChunkNative", new Object[] {(Supplier<Object>) b::encodeChunkNative, chunk});
    ops.put("decodeChunkNative", new Object[] {(Supplier<Object>) b::decodeChunkNative, chunk});
    ThreadMXBean t = ManagementFactory.getThreadMXBean();
    int sink = 0;
    for (Map.Entry<String, Object[]> e : ops.entrySet()) {
      @SuppressWarnings("unchecked")
      Supplier<Object> op = (Supplier<Object>) e.getValue()[0];
      long bytes = (long) e.getValue()[1];
      long end = t.getCurrentThreadCpuTime() + (long) (warm * 1e9);
      while (t.getCurrentThreadCpuTime() < end) {
        sink += System.identityHashCode(op.get()) & 1;
      }
      long t0 = t.getCurrentThreadCpuTime();
      long n = 0;
      long now;
      do {
        sink += System.identityHashCode(op.get()) & 1;
        n++;
        now = t.getCurrentThreadCpuTime();
      } while (now - t0 < (long) (seconds * 1e9));
      System.out.printf("%s %.1f%n", e.getKey(), bytes * n / ((now - t0) / 1e3));
    }
    System.err.println("(sink " + sink + ")");
  }
}
