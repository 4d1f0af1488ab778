package dev.cubed.zarr.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.zarr.store.ZarrFormatException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The streamed Blosc-LZ4 paths give the same bytes as padding, the {@code bytes} codec and {@link
 * JavaBlosc} one after the other, and decode back to the same array, for every dtype, edge
 * (clipped) chunks, both byte orders, compressible and incompressible data, and block sizes that
 * split items.
 */
class BloscStreamsTest {
  static Stream<Arguments> cases() {
    Random r = new Random(20261123);
    Stream.Builder<Arguments> b = Stream.builder();
    long[][] fulls = {{}, {1}, {300}, {70_000}, {40, 50}, {513, 257}, {3, 20, 30}};
    for (DType dt : DType.values()) {
      for (long[] full : fulls) {
        long[] clip = full.clone();
        for (int i = 0; i < clip.length; i++) {
          clip[i] = r.nextInt(3) == 0 ? full[i] : 1 + r.nextInt((int) full[i]);
        }
        int block = r.nextInt(3) == 0 ? 0 : 128 + r.nextInt(5000); // odd sizes split items
        b.add(Arguments.of(dt, full, clip, r.nextBoolean(), r.nextInt(3), block, r.nextLong()));
      }
    }
    return b.build();
  }

  static NDArray data(DType dt, long[] shape, int kind, long seed) {
    Random r = new Random(seed);
    int n = (int) Shapes.size(shape);
    byte[] raw = new byte[n * dt.itemSize()];
    for (int i = 0; i < raw.length; i++) {
      raw[i] =
          switch (kind) {
            case 0 -> (byte) r.nextInt(); // incompressible
            case 1 -> (byte) (i / 97);
            default -> (byte) (i % 16 == 0 ? r.nextInt(2) : 0);
          };
    }
    if (dt == DType.BOOL) {
      for (int i = 0; i < raw.length; i++) {
        raw[i] = (byte) (raw[i] & 1);
      }
    }
    return NDArray.fromBytes(dt, shape, raw, ByteOrder.LITTLE_ENDIAN);
  }

  @ParameterizedTest(name = "{0} full={1} clip={2} big={3} kind={4} block={5}")
  @MethodSource("cases")
  void sameBytesAsUnstreamedAndRoundTrip(
      DType dt, long[] full, long[] clip, boolean big, int kind, int block, long seed) {
    NDArray a = data(dt, clip, kind, seed);
    Object fill = dt == DType.BOOL ? Boolean.TRUE : dt.isComplex() ? 0.0 : 3;
    ByteOrder order = big ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    BloscBytesCodec blosc =
        new BloscBytesCodec(
            Compression.BloscCodec.LZ4, 5, Compression.Shuffle.BYTE, dt.itemSize(), block);
    NDArray padded = a;
    if (!Arrays.equals(clip, full)) {
      padded = NDArray.full(dt, fill, full);
      padded.setRegion(new long[full.length], a);
    }
    byte[] want = JavaBlosc.compress(padded.toBytes(order), dt.itemSize(), 5, true, block);
    ByteBuffer got = BloscStreams.encode(blosc, a, full, fill, order);
    assertThat(got.position()).isZero();
    byte[] gotBytes = Arrays.copyOf(got.array(), got.remaining());
    assertThat(gotBytes).isEqualTo(want);
    NDArray back = BloscStreams.decode(gotBytes, dt, full, order, "t");
    if (back == null) { // blocks that split items take the unstreamed path
      int bs = ByteBuffer.wrap(gotBytes).order(ByteOrder.LITTLE_ENDIAN).getInt(8);
      assertThat(bs % dt.itemSize()).isNotZero();
      back = NDArray.fromBytes(dt, full, JavaBlosc.decompress(gotBytes, "t"), order);
    }
    assertThat(back.toBytes(order)).isEqualTo(padded.toBytes(order));
  }

  @Test
  void streamedBufferIsOneChunkCopyAndWrongSizeIsRefused() {
    NDArray a = data(DType.FLOAT64, new long[] {500, 500}, 0, 1);
    BloscBytesCodec blosc =
        new BloscBytesCodec(Compression.BloscCodec.LZ4, 5, Compression.Shuffle.BYTE, 8, 0);
    ByteBuffer enc = BloscStreams.encode(blosc, a, a.shape(), 0.0, ByteOrder.LITTLE_ENDIAN);
    // incompressible: stored uncompressed in the one output buffer (16 + nbytes, or this
    // thread's longer buffer of an earlier chunk: EncodeBuffers), reused by the next chunk
    assertThat(enc.remaining()).isEqualTo(16 + 500 * 500 * 8);
    assertThat(enc.array().length).isGreaterThanOrEqualTo(16 + 500 * 500 * 8);
    assertThat(BloscStreams.encode(blosc, a, a.shape(), 0.0, ByteOrder.LITTLE_ENDIAN).array())
        .isSameAs(enc.array());
    byte[] stored = Arrays.copyOf(enc.array(), enc.remaining());
    assertThatThrownBy(
            () ->
                BloscStreams.decode(
                    stored,
                    DType.FLOAT64,
                    new long[] {500, 499},
                    ByteOrder.LITTLE_ENDIAN,
                    "arr/c/0/0"))
        .isInstanceOf(ZarrFormatException.class)
        .hasMessageContaining("arr/c/0/0");
  }
}
