package dev.cubed.zarr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The byte shuffle is bit-exact against its definition {@code dst[b * n + i] = src[i * typeSize +
 * b]} (the 8-byte transpose included) and unshuffle inverts it, on seeded random data: item sizes
 * 1-16, lengths that are and are not multiples of the item size and of the 8-item group, and
 * offsets into larger arrays (bytes outside the range untouched).
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

  @Test
  void rangesOutsideTheArraysAreRejectedWithTheNumbers() {
    assertThatThrownBy(() -> ByteShuffle.shuffle(8, new byte[64], 8, 64, new byte[64], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("64 bytes of 8-byte items from offset 8 of 64");
  }
}
