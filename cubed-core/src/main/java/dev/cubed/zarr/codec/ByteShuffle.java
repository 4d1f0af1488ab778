package dev.cubed.zarr.codec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Blosc's byte shuffle of one block: the {@code n = len / typeSize} items of {@code typeSize} bytes
 * are regrouped so that byte {@code b} of every item comes first for b = 0, then b = 1, and so on
 * ({@code dst[b * n + i] = src[i * typeSize + b]}); the {@code len % typeSize} trailing bytes are
 * copied unchanged. {@link #unshuffle} is the inverse.
 *
 * <p>The item-range forms ({@link #shuffleItems}, {@link #unshuffleItems}) do a part of a block's
 * items at a time, so that a caller can convert a typed array to bytes (or back) through a small
 * buffer that stays in the L1 cache and shuffle from (or unshuffle into) it, instead of making a
 * block-sized byte image first ({@link JavaBlosc}).
 *
 * <p>8-byte items (float64, int64) go 8 at a time through an 8x8 byte transpose over longs (three
 * rounds of masked swaps, then eight 8-byte stores, one per output stream); items left over and
 * other item sizes use the per-byte loop of the definition. The kernel is bound by its eight
 * scattered stores (loads, for unshuffle), not by the swaps: on AVX-512 with JDK 17, a Vector API
 * version with one byte permutation per 8 items ran at the same speed, and one that also transposed
 * 64 items across eight vectors (two-vector lane selections) 4x slower, so neither was kept
 * (docs/perf/zarr.md).
 */
public final class ByteShuffle {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private ByteShuffle() {}

  /** Shuffles {@code len} bytes of src from {@code so} into dst at {@code d0}. */
  static void shuffle(int typeSize, byte[] src, int so, int len, byte[] dst, int d0) {
    checkRange(typeSize, src, so, len, dst, d0);
    int n = len / typeSize;
    shuffleItems(typeSize, src, so, n, dst, d0, n);
    int rem = len - n * typeSize;
    System.arraycopy(src, so + len - rem, dst, d0 + len - rem, rem);
  }

  /** Inverse of {@link #shuffle}: {@code len} shuffled bytes of src at so into dst at d0. */
  static void unshuffle(int typeSize, byte[] src, int so, int len, byte[] dst, int d0) {
    checkRange(typeSize, src, so, len, dst, d0);
    int n = len / typeSize;
    unshuffleItems(typeSize, src, so, n, dst, d0, n);
    int rem = len - n * typeSize;
    System.arraycopy(src, so + len - rem, dst, d0 + len - rem, rem);
  }

  /**
   * Shuffles {@code count} contiguous items of src at {@code so} into the byte streams of a block
   * whose streams are {@code stride} bytes apart: byte b of item k goes to {@code dst[at + b *
   * stride + k]}. For a whole block, {@code at} is the block's start and {@code stride} its item
   * count; for items {@code [i0, i0 + count)} of it, {@code at} is the block's start plus i0.
   * Ranges are the caller's to check (package-private, used per block by {@link JavaBlosc}).
   */
  static void shuffleItems(
      int typeSize, byte[] src, int so, int count, byte[] dst, int at, int stride) {
    int done = 0;
    if (typeSize == 8) {
      done = count & ~7;
      long[] m = new long[8];
      for (int k = 0; k < done; k += 8) {
        for (int r = 0; r < 8; r++) {
          m[r] = (long) LONGS.get(src, so + (k + r) * 8);
        }
        scatter(m, dst, at + k, stride);
      }
    }
    for (int b = 0; b < typeSize; b++) {
      int base = at + b * stride;
      for (int k = done; k < count; k++) {
        dst[base + k] = src[so + k * typeSize + b];
      }
    }
  }

  /**
   * Inverse of {@link #shuffleItems}: items {@code [k, k + count)} of streams {@code stride} bytes
   * apart starting at {@code at} (byte b of item k at {@code src[at + b * stride + k]}) into {@code
   * count} contiguous items of dst at {@code d0}.
   */
  static void unshuffleItems(
      int typeSize, byte[] src, int at, int count, byte[] dst, int d0, int stride) {
    int done = 0;
    if (typeSize == 8) {
      done = count & ~7;
      long[] m = new long[8];
      for (int k = 0; k < done; k += 8) {
        gather(src, at + k, stride, m);
        for (int r = 0; r < 8; r++) {
          LONGS.set(dst, d0 + (k + r) * 8, m[r]);
        }
      }
    }
    for (int b = 0; b < typeSize; b++) {
      int base = at + b * stride;
      for (int k = done; k < count; k++) {
        dst[d0 + k * typeSize + b] = src[base + k];
      }
    }
  }

  /**
   * {@link #shuffleItems} of float64 items taken straight from a {@code double[]} (little-endian
   * bytes, as {@link Double#doubleToRawLongBits}): elements {@code [e0, e0 + count)} into the byte
   * planes at {@code dst[at + b * stride]}, saving the conversion to a byte buffer first.
   */
  static void shuffleDoubles(double[] src, int e0, int count, byte[] dst, int at, int stride) {
    int done = count & ~7;
    long[] m = new long[8];
    for (int k = 0; k < done; k += 8) {
      for (int r = 0; r < 8; r++) {
        m[r] = Double.doubleToRawLongBits(src[e0 + k + r]);
      }
      scatter(m, dst, at + k, stride);
    }
    for (int k = done; k < count; k++) {
      long v = Double.doubleToRawLongBits(src[e0 + k]);
      for (int b = 0; b < 8; b++) {
        dst[at + b * stride + k] = (byte) (v >>> (8 * b));
      }
    }
  }

  /** Inverse of {@link #shuffleDoubles}: {@code count} items of the planes into dst at e0. */
  public static void unshuffleDoubles(
      byte[] src, int at, int count, double[] dst, int e0, int stride) {
    unshuffleDoubles(src, at, count, dst, e0, stride, new long[8]);
  }

  /**
   * {@link #unshuffleDoubles(byte[], int, int, double[], int, int)} with the caller's 8-long
   * scratch array (for callers unshuffling many short runs: no array per call).
   */
  public static void unshuffleDoubles(
      byte[] src, int at, int count, double[] dst, int e0, int stride, long[] m) {
    int done = count & ~7;
    for (int k = 0; k < done; k += 8) {
      gather(src, at + k, stride, m);
      for (int r = 0; r < 8; r++) {
        dst[e0 + k + r] = Double.longBitsToDouble(m[r]);
      }
    }
    for (int k = done; k < count; k++) {
      long v = 0;
      for (int b = 0; b < 8; b++) {
        v |= (src[at + b * stride + k] & 0xFFL) << (8 * b);
      }
      dst[e0 + k] = Double.longBitsToDouble(v);
    }
  }

  /** Transposes 8 items (m[r] = item r), storing plane b's 8 bytes at {@code d + b * stride}. */
  private static void scatter(long[] m, byte[] dst, int d, int stride) {
    transpose(m);
    for (int b = 0; b < 8; b++) {
      LONGS.set(dst, d + b * stride, m[b]);
    }
  }

  /** Loads 8 bytes of each byte plane at {@code s + b * stride} and transposes: m[r] = item r. */
  private static void gather(byte[] src, int s, int stride, long[] m) {
    for (int b = 0; b < 8; b++) {
      m[b] = (long) LONGS.get(src, s + b * stride);
    }
    transpose(m);
  }

  private static void checkRange(int typeSize, byte[] src, int so, int len, byte[] dst, int d0) {
    if (typeSize < 1
        || len < 0
        || so < 0
        || d0 < 0
        || so > src.length - len
        || d0 > dst.length - len) {
      throw new IllegalArgumentException(
          "byte shuffle: "
              + len
              + " bytes of "
              + typeSize
              + "-byte items from offset "
              + so
              + " of "
              + src.length
              + " into offset "
              + d0
              + " of "
              + dst.length
              + " do not fit; pass ranges inside both arrays");
    }
  }

  /**
   * Transposes the 8x8 byte matrix whose row r is the little-endian bytes of m[r]: afterwards byte
   * c of m[r] is byte r of the old m[c]. Three rounds swap 4x4, 2x2 and 1x1 blocks. Small enough
   * for the JIT to inline, after which the array lives in registers (a version over eight local
   * longs with the stores folded in was too large to inline and 1.4x slower, ByteShuffleBench).
   */
  static void transpose(long[] m) {
    for (int r = 0; r < 4; r++) {
      long a = m[r];
      long b = m[r + 4];
      long t = ((a >>> 32) ^ b) & 0x00000000FFFFFFFFL;
      m[r] = a ^ (t << 32);
      m[r + 4] = b ^ t;
    }
    for (int r = 0; r < 8; r += 4) {
      for (int k = 0; k < 2; k++) {
        long a = m[r + k];
        long b = m[r + k + 2];
        long t = ((a >>> 16) ^ b) & 0x0000FFFF0000FFFFL;
        m[r + k] = a ^ (t << 16);
        m[r + k + 2] = b ^ t;
      }
    }
    for (int r = 0; r < 8; r += 2) {
      long a = m[r];
      long b = m[r + 1];
      long t = ((a >>> 8) ^ b) & 0x00FF00FF00FF00FFL;
      m[r] = a ^ (t << 8);
      m[r + 1] = b ^ t;
    }
  }
}
