package dev.cubed.zarr.codec;

import com.scalableminds.bloscjava.Blosc;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Blosc's byte shuffle and unshuffle of one default block (256 KiB) of float64 items, and the
 * encode and decode of a whole float64 chunk with the project's default codec (Blosc-LZ4, byte
 * shuffle; {@link BloscStreams}). Throughput in MB/s is the bytes per call divided by the time per
 * call: {@code bytes} for the block methods, {@code 8 * chunkSide^2} for the chunk methods.
 *
 * <p>{@code shuffle}/{@code unshuffle} are {@link ByteShuffle}; {@code shuffleArrayTranspose} and
 * {@code unshuffleArrayTranspose} are the loops of the 2026-11-22 kernel (8 loads, {@link
 * ByteShuffle#transpose}, 8 stores, inline), kept here as the same-run baseline; {@code
 * shufflePerByte} is the definition's loop. The chunk data is the add workload's C block ({@code 1
 * + 0.5 sin(G i + j) + 0.5 cos(G i - j)}), whose float64 mantissas compress little, as real data.
 *
 * <p>The operations reach package-private kernels, so they live beside them in cubed-core's test
 * tree (cubed-core carries no JMH, and no other module adds classes to its packages). Run them in
 * CPU seconds, against a baseline commit's cubed-core too, with {@code
 * scripts/perf/zarr-codec-bench.sh} ({@link CodecCpuTime}; wall time on a shared machine is mostly
 * waiting for a core).
 */
public class ByteShuffleBench {
  /** Bytes per block call; the default block of {@link JavaBlosc}. */
  public int bytes;

  /** Item size. */
  public int typeSize;

  /** Side of the square float64 chunk of the encode/decode methods (1000: 8 MB). */
  public int chunkSide;

  byte[] plain;
  byte[] shuffled;
  byte[] out;
  NDArray chunk;
  long[] chunkShape;
  BloscBytesCodec codec;
  byte[] encoded;

  /** Random bytes and their shuffle; the chunk and its encoding. */
  public void setup() {
    plain = new byte[bytes];
    new SplittableRandom(14).nextBytes(plain);
    shuffled = new byte[bytes];
    ByteShuffle.shuffle(typeSize, plain, 0, bytes, shuffled, 0);
    out = new byte[bytes];
    double g = 0.6180339887498949;
    double[] d = new double[chunkSide * chunkSide];
    for (int i = 0; i < chunkSide; i++) {
      for (int j = 0; j < chunkSide; j++) {
        d[i * chunkSide + j] = 1 + 0.5 * Math.sin(g * i + j) + 0.5 * Math.cos(g * i - j);
      }
    }
    chunkShape = new long[] {chunkSide, chunkSide};
    chunk = new NDArray(DType.FLOAT64, chunkShape, d);
    codec = new BloscBytesCodec(Compression.BloscCodec.LZ4, 5, Compression.Shuffle.BYTE, 8, 0);
    ByteBuffer b = encodeChunk();
    encoded = Arrays.copyOf(b.array(), b.remaining());
  }

  /** The current shuffle. */
  public byte[] shuffle() {
    ByteShuffle.shuffle(typeSize, plain, 0, bytes, out, 0);
    return out;
  }

  /** The current unshuffle. */
  public byte[] unshuffle() {
    ByteShuffle.unshuffle(typeSize, shuffled, 0, bytes, out, 0);
    return out;
  }

  /** Encodes the chunk (typed array to Blosc bytes). */
  public ByteBuffer encodeChunk() {
    return BloscStreams.encode(codec, chunk, chunkShape, 0.0, ByteOrder.LITTLE_ENDIAN);
  }

  /** Decodes the chunk (Blosc bytes to typed array). */
  public NDArray decodeChunk() {
    return BloscStreams.decode(encoded, DType.FLOAT64, chunkShape, ByteOrder.LITTLE_ENDIAN, "b");
  }

  /**
   * The same chunk through c-blosc (the native blosc-java binding, the library numcodecs uses): the
   * chunk's bytes, compressed, copied to a Java array.
   */
  public byte[] encodeChunkNative() {
    return Blosc.compress(
        chunk.toBytes(ByteOrder.LITTLE_ENDIAN),
        8,
        Blosc.Compressor.fromString("lz4"),
        5,
        Blosc.Shuffle.fromInt(1),
        0,
        1);
  }

  /** c-blosc decoding the chunk, then the bytes to the typed array. */
  public NDArray decodeChunkNative() {
    return NDArray.fromBytes(
        DType.FLOAT64, chunkShape, Blosc.decompress(encoded), ByteOrder.LITTLE_ENDIAN);
  }

  /** The definition's per-byte loop, shuffling. */
  public byte[] shufflePerByte() {
    int n = bytes / typeSize;
    for (int b = 0; b < typeSize; b++) {
      for (int i = 0; i < n; i++) {
        out[b * n + i] = plain[i * typeSize + b];
      }
    }
    return out;
  }

  /** Baseline: the 2026-11-22 shuffle (8-byte items only). */
  public byte[] shuffleArrayTranspose() {
    int n = bytes / 8;
    long[] m = new long[8];
    for (int i = 0; i < n; i += 8) {
      for (int r = 0; r < 8; r++) {
        m[r] = (long) LONGS.get(plain, (i + r) * 8);
      }
      ByteShuffle.transpose(m);
      for (int b = 0; b < 8; b++) {
        LONGS.set(out, b * n + i, m[b]);
      }
    }
    return out;
  }

  /** Baseline: the 2026-11-22 unshuffle (8-byte items only). */
  public byte[] unshuffleArrayTranspose() {
    int n = bytes / 8;
    long[] m = new long[8];
    for (int i = 0; i < n; i += 8) {
      for (int b = 0; b < 8; b++) {
        m[b] = (long) LONGS.get(shuffled, b * n + i);
      }
      ByteShuffle.transpose(m);
      for (int r = 0; r < 8; r++) {
        LONGS.set(out, (i + r) * 8, m[r]);
      }
    }
    return out;
  }

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
}
