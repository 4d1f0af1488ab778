package dev.cubed.zarr;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * The 8-byte-item byte shuffle of {@link ByteShuffle} with the JDK Vector API, for JVMs whose
 * preferred vector is at least 512 bits (one 64-byte vector holds 8 items): each group of 8 items is
 * loaded as one vector, its 8x8 byte matrix transposed by one byte permutation, and the 8 planes'
 * 8 bytes moved as longs. Loaded only when {@code jdk.incubator.vector} is present (see {@link
 * ByteShuffle}).
 */
final class VectorShuffle8 {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VectorSpecies<Byte> B = ByteVector.SPECIES_512;
  private static final VectorSpecies<Long> L = LongVector.SPECIES_512;
  /** Output byte p = 8c + r takes input byte 8r + c (a transpose is its own inverse). */
  private static final VectorShuffle<Byte> T =
      VectorShuffle.fromOp(B, p -> 8 * (p % 8) + p / 8);

  private VectorShuffle8() {}

  /** True when 512-bit vectors are native here (otherwise the scalar path is faster). */
  static boolean usable() {
    return ByteVector.SPECIES_PREFERRED.vectorBitSize() >= 512;
  }

  /** Shuffles the first {@code groups * 8} items of n 8-byte items at so into dst at d0. */
  static void shuffle(byte[] src, int so, byte[] dst, int d0, int n, int groups) {
    for (int g = 0; g < groups; g++) {
      int i = g * 8;
      LongVector l = ByteVector.fromArray(B, src, so + i * 8).rearrange(T).reinterpretAsLongs();
      LONGS.set(dst, d0 + i, l.lane(0));
      LONGS.set(dst, d0 + n + i, l.lane(1));
      LONGS.set(dst, d0 + 2 * n + i, l.lane(2));
      LONGS.set(dst, d0 + 3 * n + i, l.lane(3));
      LONGS.set(dst, d0 + 4 * n + i, l.lane(4));
      LONGS.set(dst, d0 + 5 * n + i, l.lane(5));
      LONGS.set(dst, d0 + 6 * n + i, l.lane(6));
      LONGS.set(dst, d0 + 7 * n + i, l.lane(7));
    }
  }

  /** Inverse of {@link #shuffle}. */
  static void unshuffle(byte[] src, int so, byte[] dst, int d0, int n, int groups) {
    long[] row = new long[8];
    for (int g = 0; g < groups; g++) {
      int i = g * 8;
      for (int c = 0; c < 8; c++) {
        row[c] = (long) LONGS.get(src, so + c * n + i);
      }
      LongVector.fromArray(L, row, 0).reinterpretAsBytes().rearrange(T)
          .intoArray(dst, d0 + i * 8);
    }
  }
}
