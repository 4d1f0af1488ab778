package dev.cubed.zarr;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Blosc's byte shuffle and unshuffle of one default block (256 KiB) of float64 items: {@link
 * ByteShuffle} (8x8 byte transposes over longs) beside the per-byte loop of the definition. Average
 * time per block in microseconds (throughput in MB/s: 262,144 bytes divided by it).
 * Run: {@code java -cp CP org.openjdk.jmh.Main ByteShuffleBench} with the classpath of
 * {@code scripts/perf/kernel-bench.sh}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx256m"})
@State(Scope.Thread)
public class ByteShuffleBench {
  /** Bytes per call; the default block of {@link JavaBlosc}. */
  @Param({"262144"})
  public int bytes;

  /** Item size. */
  @Param({"8"})
  public int typeSize;

  byte[] plain;
  byte[] shuffled;
  byte[] out;

  /** Random bytes and their shuffle. */
  @Setup
  public void setup() {
    plain = new byte[bytes];
    new SplittableRandom(14).nextBytes(plain);
    shuffled = new byte[bytes];
    ByteShuffle.shuffle(typeSize, plain, 0, bytes, shuffled, 0);
    out = new byte[bytes];
  }

  /** The current shuffle. */
  @Benchmark
  public byte[] shuffle() {
    ByteShuffle.shuffle(typeSize, plain, 0, bytes, out, 0);
    return out;
  }

  /** The current unshuffle. */
  @Benchmark
  public byte[] unshuffle() {
    ByteShuffle.unshuffle(typeSize, shuffled, 0, bytes, out, 0);
    return out;
  }

  /** The definition's per-byte loop, shuffling. */
  @Benchmark
  public byte[] shufflePerByte() {
    int n = bytes / typeSize;
    for (int b = 0; b < typeSize; b++) {
      for (int i = 0; i < n; i++) {
        out[b * n + i] = plain[i * typeSize + b];
      }
    }
    return out;
  }
}
