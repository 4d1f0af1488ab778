package dev.cubed.zarr;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Blosc's byte shuffle of one block: the {@code n = len / typeSize} items of {@code typeSize} bytes
 * are regrouped so that byte {@code b} of every item comes first for b = 0, then b = 1, and so on
 * ({@code dst[b * n + i] = src[i * typeSize + b]}); the {@code len % typeSize} trailing bytes are
 * copied unchanged. {@link #unshuffle} is the inverse.
 *
 * <p>8-byte items (float64, int64) go 8 at a time through an 8x8 byte transpose over longs (three
 * rounds of masked swaps; about 7.7 GB/s per core, {@code ByteShuffleBench}); items left over and
 * other item sizes use the per-byte loop of the definition. A Vector API version (one byte
 * permutation per 8 items) was 1.8x faster warm on AVX-512 but seconds slower before the JIT
 * compiled it and no faster unshuffling, so it was not kept (docs/performance.md).
 */
final class ByteShuffle {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private ByteShuffle() {}

  /** Shuffles {@code len} bytes of src from {@code so} into dst at {@code d0}. */
  static void shuffle(int typeSize, byte[] src, int so, int len, byte[] dst, int d0) {
    checkRange(typeSize, src, so, len, dst, d0);
    int n = len / typeSize;
    int done = 0;
    if (typeSize == 8) {
      done = n & ~7;
      long[] m = new long[8];
      for (int i = 0; i < done; i += 8) {
        for (int r = 0; r < 8; r++) {
          m[r] = (long) LONGS.get(src, so + (i + r) * 8);
        }
        transpose(m);
        for (int b = 0; b < 8; b++) {
          LONGS.set(dst, d0 + b * n + i, m[b]);
        }
      }
    }
    for (int b = 0; b < typeSize; b++) {
      int base = d0 + b * n;
      for (int i = done; i < n; i++) {
        dst[base + i] = src[so + i * typeSize + b];
      }
    }
    int rem = len - n * typeSize;
    System.arraycopy(src, so + len - rem, dst, d0 + len - rem, rem);
  }

  /** Inverse of {@link #shuffle}: {@code len} shuffled bytes of src at so into dst at d0. */
  static void unshuffle(int typeSize, byte[] src, int so, int len, byte[] dst, int d0) {
    checkRange(typeSize, src, so, len, dst, d0);
    int n = len / typeSize;
    int done = 0;
    if (typeSize == 8) {
      done = n & ~7;
      long[] m = new long[8];
      for (int i = 0; i < done; i += 8) {
        for (int b = 0; b < 8; b++) {
          m[b] = (long) LONGS.get(src, so + b * n + i);
        }
        transpose(m);
        for (int r = 0; r < 8; r++) {
          LONGS.set(dst, d0 + (i + r) * 8, m[r]);
        }
      }
    }
    for (int b = 0; b < typeSize; b++) {
      int base = so + b * n;
      for (int i = done; i < n; i++) {
        dst[d0 + i * typeSize + b] = src[base + i];
      }
    }
    int rem = len - n * typeSize;
    System.arraycopy(src, so + len - rem, dst, d0 + len - rem, rem);
  }

  private static void checkRange(int typeSize, byte[] src, int so, int len, byte[] dst, int d0) {
    if (typeSize < 1 || len < 0 || so < 0 || d0 < 0 || so > src.length - len
        || d0 > dst.length - len) {
      throw new IllegalArgumentException("byte shuffle: " + len + " bytes of " + typeSize
          + "-byte items from offset " + so + " of " + src.length + " into offset " + d0 + " of "
          + dst.length + " do not fit; pass ranges inside both arrays");
    }
  }

  /**
   * Transposes the 8x8 byte matrix whose row r is the little-endian bytes of m[r]: afterwards byte
   * c of m[r] is byte r of the old m[c]. Three rounds swap 4x4, 2x2 and 1x1 blocks.
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
