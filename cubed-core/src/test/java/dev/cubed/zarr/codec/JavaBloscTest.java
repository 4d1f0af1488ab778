package dev.cubed.zarr.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.scalableminds.bloscjava.Blosc;
import dev.cubed.zarr.store.ZarrFormatException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The Java Blosc-LZ4 codec is wire-compatible with c-blosc in both directions. */
class JavaBloscTest {
  /** Sizes around block, split and shuffle boundaries; item sizes 1..16 and 17; clevels. */
  static Stream<Arguments> cases() {
    Random r = new Random(20261122);
    Stream.Builder<Arguments> b = Stream.builder();
    int[] sizes = {
      0, 1, 7, 127, 128, 129, 1000, 4096, 65_536 + 8, 262_144, 262_144 + 24, 600_000, 2_000_003
    };
    int[] types = {1, 2, 4, 8, 16, 17};
    for (int n : sizes) {
      for (int ts : types) {
        b.add(Arguments.of(n, ts, 1 + r.nextInt(9), r.nextBoolean(), r.nextInt(4), r.nextLong()));
      }
    }
    b.add(Arguments.of(100_000, 8, 0, true, 0, 7L));
    return b.build();
  }

  /** Mixed data: smooth doubles (compressible exponents), runs of zeros and random bytes. */
  static byte[] data(int n, long seed, int kind) {
    Random r = new Random(seed);
    byte[] d = new byte[n];
    ByteBuffer bb = ByteBuffer.wrap(d).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i + 8 <= n; i += 8) {
      switch (kind) {
        case 0 -> bb.putDouble(i, 0.5 + 0.5 * Math.sin(i * 0.001));
        case 1 -> bb.putLong(i, i % 4096 < 2048 ? 0 : r.nextLong());
        case 2 -> bb.putLong(i, r.nextLong());
        default -> bb.putLong(i, i / 64);
      }
    }
    for (int i = n - n % 8; i < n; i++) {
      d[i] = (byte) r.nextInt();
    }
    return d;
  }

  @ParameterizedTest(name = "n={0} ts={1} clevel={2} shuffle={3} kind={4}")
  @MethodSource("cases")
  void javaEncodedDecodesNativelyAndBack(
      int n, int ts, int clevel, boolean shuffle, int kind, long seed) {
    byte[] in = data(n, seed, kind);
    byte[] ours = JavaBlosc.compress(in, ts, clevel, shuffle, 0);
    assertThat(ByteBuffer.wrap(ours).order(ByteOrder.LITTLE_ENDIAN).getInt(12))
        .isEqualTo(ours.length);
    assertThat(ours.length).isLessThanOrEqualTo(n + JavaBlosc.HEADER);
    assertThat(Blosc.decompress(ours)).isEqualTo(in);
    assertThat(JavaBlosc.decompress(ours, "t")).isEqualTo(in);
    byte[] theirs =
        Blosc.compress(
            in,
            ts,
            Blosc.Compressor.fromString("lz4"),
            clevel,
            Blosc.Shuffle.fromInt(shuffle ? 1 : 0),
            0,
            1);
    assertThat(JavaBlosc.canDecode(theirs)).isTrue();
    assertThat(JavaBlosc.decompress(theirs, "t")).isEqualTo(in);
  }

  @ParameterizedTest(name = "blocksize={0}")
  @MethodSource("blockSizes")
  void forcedBlockSizesRoundTripBothWays(int bs) {
    byte[] in = data(300_001, bs, 0);
    byte[] ours = JavaBlosc.compress(in, 8, 5, true, bs);
    assertThat(Blosc.decompress(ours)).isEqualTo(in);
    byte[] theirs =
        Blosc.compress(
            in, 8, Blosc.Compressor.fromString("lz4"), 5, Blosc.Shuffle.fromInt(1), bs, 1);
    assertThat(JavaBlosc.decompress(theirs, "t")).isEqualTo(in);
  }

  static Stream<Integer> blockSizes() {
    return Stream.of(128, 1000, 8192, 65_536, 1 << 20);
  }

  /**
   * The compression level sets LZ4's acceleration as c-blosc does (10 - clevel): on data LZ4 can
   * partly compress, level 9 (acceleration 1) stores less than level 1 (acceleration 9), and both
   * decode natively to the input.
   */
  @Test
  void clevelSetsTheLz4AccelerationAsCBloscDoes() {
    byte[] in = new byte[400_000];
    ByteBuffer bb = ByteBuffer.wrap(in).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < in.length / 8; i++) {
      bb.putDouble(8 * i, 1 + 0.5 * Math.sin(0.618 * (i / 1000) + i % 1000));
    }
    byte[] fast = JavaBlosc.compress(in, 8, 1, true, 0);
    byte[] best = JavaBlosc.compress(in, 8, 9, true, 0);
    assertThat(best.length).isLessThan(fast.length);
    assertThat(Blosc.decompress(fast)).isEqualTo(in);
    assertThat(Blosc.decompress(best)).isEqualTo(in);
  }

  @Test
  void shuffleFastPathMatchesTheDefinition() {
    byte[] in = data(8 * 37 + 5, 3, 2);
    byte[] s = new byte[in.length];
    ByteShuffle.shuffle(8, in, 0, in.length, s, 0);
    int n = in.length / 8;
    for (int i = 0; i < n; i++) {
      for (int b = 0; b < 8; b++) {
        assertThat(s[b * n + i]).isEqualTo(in[i * 8 + b]);
      }
    }
    byte[] back = new byte[in.length];
    ByteShuffle.unshuffle(8, s, 0, s.length, back, 0);
    assertThat(back).isEqualTo(in);
  }

  @Test
  void zstdIsDecodedHereOtherVariantsAreLeftToTheNativeLibrary() {
    byte[] in = data(10_000, 1, 3);
    byte[] zstd =
        Blosc.compress(
            in, 8, Blosc.Compressor.fromString("zstd"), 5, Blosc.Shuffle.fromInt(1), 0, 1);
    byte[] bit =
        Blosc.compress(
            in, 8, Blosc.Compressor.fromString("lz4"), 5, Blosc.Shuffle.fromInt(2), 0, 1);
    assertThat(zstd[2] & 0x2).as("compressed, not stored").isZero();
    assertThat(bit[2] & 0x2).as("compressed, not stored").isZero();
    // zstd with byte shuffle (zarr-python 3's blosc default) is decoded in Java
    assertThat(JavaBlosc.canDecode(zstd)).isTrue();
    assertThat(JavaBlosc.decompress(zstd, "t")).isEqualTo(in);
    assertThat(JavaBlosc.canDecode(bit)).isFalse();
    BloscBytesCodec codec =
        new BloscBytesCodec(Compression.BloscCodec.ZSTD, 5, Compression.Shuffle.BIT, 8, 0);
    assertThat(codec.decode(codec.encode(in), in.length, "t")).isEqualTo(in);
  }

  @Test
  void corruptStreamsAreReportedNotMisread() {
    byte[] in = data(100_000, 5, 0);
    byte[] c = JavaBlosc.compress(in, 8, 5, true, 0);
    byte[] bad = c.clone();
    // point the first block's first stream size past the end
    ByteBuffer h = ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN);
    int start = h.getInt(JavaBlosc.HEADER);
    h.putInt(start, Integer.MAX_VALUE - 5);
    assertThatThrownBy(() -> JavaBlosc.decompress(bad, "arr/c/0"))
        .isInstanceOf(ZarrFormatException.class)
        .hasMessageContaining("arr/c/0")
        .hasMessageContaining("corrupt blosc data");
    byte[] bad2 = c.clone();
    ByteBuffer.wrap(bad2).order(ByteOrder.LITTLE_ENDIAN).putInt(JavaBlosc.HEADER, 3);
    assertThatThrownBy(() -> JavaBlosc.decompress(bad2, "arr/c/1"))
        .isInstanceOf(ZarrFormatException.class)
        .hasMessageContaining("outside the buffer");
  }
}
