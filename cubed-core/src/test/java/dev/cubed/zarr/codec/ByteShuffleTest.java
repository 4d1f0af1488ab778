package dev.cubed.zarr.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The byte shuffle is bit-exact against its definition {@code dst[b * n + i] = src[i * typeSize +
 * b]} (the 8-byte transpose included) and unshuffle inverts it, on seeded random data: item sizes
 * 1-16, lengths that are and are not multiples of the item size and of the 8-item group, and
 * offsets into larger arrays (bytes outside the range untouched); the item-range and float64 forms
 * the codec uses per part of a block likewise, for item sizes 1, 2, 4, 8 and 16.
 */
class ByteShuffleTest {

  static List<Object[]> cases() {
    List<Object[]> out = new ArrayList<>();
    SplittableRandom r = new SplittableRandom(1414);
    int[] sizes = {1, 2, 3, 4, 5, 7, 8, 12, 16};
    int[] lens = {0, 1, 7, 8, 63, 64, 65, 127, 200, 4096, 4099, 262144, 262147};
    for (int ts : sizes) {
      for (int len : lens) {
        out.add(new Object[] {ts, len, r.nextInt(0, 13), r.nextLong()});
      }
      out.add(new Object[] {ts, r.nextInt(1, 100_000), r.nextInt(0, 13), r.nextLong()});
    }
    return out;
  }

  @ParameterizedTest(name = "ts={0} len={1} off={2}")
  @MethodSource("cases")
  void equalsTheDefinitionAndUnshuffleInvertsIt(int ts, int len, int off, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    byte[] src = new byte[off + len + 5];
    r.nextBytes(src);
    byte[] fill = new byte[src.length];
    r.nextBytes(fill);

    byte[] got = fill.clone();
    ByteShuffle.shuffle(ts, src, off, len, got, off);
    byte[] def = fill.clone();
    int n = len / ts;
    for (int b = 0; b < ts; b++) {
      for (int i = 0; i < n; i++) {
        def[off + b * n + i] = src[off + i * ts + b];
      }
    }
    System.arraycopy(src, off + n * ts, def, off + n * ts, len - n * ts);
    assertThat(got).isEqualTo(def);

    byte[] back = fill.clone();
    ByteShuffle.unshuffle(ts, got, off, len, back, off);
    byte[] want = fill.clone();
    System.arraycopy(src, off, want, off, len);
    assertThat(back).isEqualTo(want);
  }

  static List<Object[]> rangeCases() {
    List<Object[]> out = new ArrayList<>();
    SplittableRandom r = new SplittableRandom(2611);
    for (int ts : new int[] {1, 2, 4, 8, 16}) {
      for (int count : new int[] {0, 1, 7, 8, 9, 63, 64, 65, 1000, 1027}) {
        int stride = count + r.nextInt(0, 3) * 64 + r.nextInt(0, 5); // planes apart, or not
        int k0 = r.nextInt(0, 40); // the part's first item within the planes
        out.add(new Object[] {ts, count, stride, k0, r.nextInt(0, 13), r.nextLong()});
      }
    }
    return out;
  }

  /**
   * The item-range forms on a part of a block's planes (planes {@code stride} apart, part starting
   * at item k0) equal the definition and leave every other byte alone; for 8-byte items the {@code
   * double[]} forms give the same planes as the bytes of the array and read them back.
   */
  @ParameterizedTest(name = "ts={0} count={1} stride={2} k0={3} off={4}")
  @MethodSource("rangeCases")
  void itemRangesMatchTheDefinition(int ts, int count, int stride, int k0, int off, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    byte[] items = new byte[off + count * ts + 3];
    r.nextBytes(items);
    byte[] planes = new byte[off + k0 + (ts - 1) * stride + count + 5];
    r.nextBytes(planes);
    byte[] want = planes.clone();
    for (int b = 0; b < ts; b++) {
      for (int k = 0; k < count; k++) {
        want[off + k0 + b * stride + k] = items[off + k * ts + b];
      }
    }
    byte[] got = planes.clone();
    ByteShuffle.shuffleItems(ts, items, off, count, got, off + k0, stride);
    assertThat(got).isEqualTo(want);
    byte[] back = new byte[items.length];
    ByteShuffle.unshuffleItems(ts, got, off + k0, count, back, off, stride);
    assertThat(Arrays.copyOfRange(back, off, off + count * ts))
        .isEqualTo(Arrays.copyOfRange(items, off, off + count * ts));
    if (ts == 8) {
      double[] d = new double[off + count + 2];
      ByteBuffer.wrap(items, off, count * 8)
          .order(ByteOrder.LITTLE_ENDIAN)
          .asDoubleBuffer()
          .get(d, off, count);
      byte[] fromDoubles = planes.clone();
      ByteShuffle.shuffleDoubles(d, off, count, fromDoubles, off + k0, stride);
      assertThat(fromDoubles).isEqualTo(want);
      double[] into = new double[d.length];
      ByteShuffle.unshuffleDoubles(got, off + k0, count, into, off, stride);
      for (int i = 0; i < count; i++) { // bit patterns, NaN payloads included
        assertThat(Double.doubleToRawLongBits(into[off + i]))
            .isEqualTo(Double.doubleToRawLongBits(d[off + i]));
      }
      assertThat(into[off + count]).isZero();
    }
  }

  @Test
  void rangesOutsideTheArraysAreRejectedWithTheNumbers() {
    assertThatThrownBy(() -> ByteShuffle.shuffle(8, new byte[64], 8, 64, new byte[64], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("64 bytes of 8-byte items from offset 8 of 64");
  }
}
