package dev.cubed.zarr.codec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.scalableminds.bloscjava.Blosc;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.store.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden Blosc chunks written by numcodecs (c-blosc 1.x, LZ4; {@code fixtures/blosc/generate.py},
 * committed with its manifest): the Java decoder and the streamed typed decode give exactly the
 * values of the generator's integer formula, for item sizes 1, 2, 4, 8 and 16, odd lengths, byte
 * shuffle on and off, clevels 1, 5 and 9, several blocks with a leftover block, and a chunk stored
 * uncompressed. The Java encoder with the same settings and block size writes the same header
 * (flags, item size, sizes), and c-blosc decodes it to the same bytes.
 */
class BloscGoldenTest {
  private static final String DIR = "/fixtures/blosc/";

  record Case(
      String name, String dtype, int n, long m, long d, int clevel, int shuffle, int bytes) {
    DType type() {
      return switch (dtype) {
        case "<u1" -> DType.UINT8;
        case "<i2" -> DType.INT16;
        case "<f4" -> DType.FLOAT32;
        case "<f8" -> DType.FLOAT64;
        case "<c16" -> DType.COMPLEX128;
        default -> throw new IllegalArgumentException("fixture dtype " + dtype);
      };
    }

    @Override
    public String toString() {
      return name;
    }
  }

  static List<Case> cases() throws IOException {
    JsonNode root = Json.parseObject(resource("manifest.json"), "manifest.json");
    List<Case> out = new ArrayList<>();
    for (JsonNode c : root.get("cases")) {
      out.add(
          new Case(
              c.get("name").asText(),
              c.get("dtype").asText(),
              c.get("n").asInt(),
              c.get("m").asLong(),
              c.get("d").asLong(),
              c.get("clevel").asInt(),
              c.get("shuffle").asInt(),
              c.get("bytes").asInt()));
    }
    assertThat(out).hasSize(8);
    return out;
  }

  static byte[] resource(String name) throws IOException {
    try (InputStream in = BloscGoldenTest.class.getResourceAsStream(DIR + name)) {
      assertThat(in).as("test resource " + DIR + name).isNotNull();
      return in.readAllBytes();
    }
  }

  /** The generator's values, little-endian, as numpy lays them out. */
  static byte[] expected(Case c) {
    DType t = c.type();
    int k = t == DType.COMPLEX128 ? 2 * c.n() : c.n();
    ByteBuffer b = ByteBuffer.allocate(c.n() * t.itemSize()).order(ByteOrder.LITTLE_ENDIAN);
    for (long i = 0; i < k; i++) {
      long v = Math.floorMod(i * 2654435761L, c.m()) / c.d();
      switch (t) {
        case UINT8 -> b.put((byte) v);
        case INT16 -> b.putShort((short) v);
        case FLOAT32 -> b.putFloat(v / 8.0f);
        default -> b.putDouble(v / 8.0);
      }
    }
    return b.array();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void numcodecsChunksDecodeToTheFormula(Case c) throws IOException {
    byte[] golden = resource(c.name() + ".blosc");
    assertThat(golden).hasSize(c.bytes());
    byte[] want = expected(c);
    assertThat(JavaBlosc.canDecode(golden)).isTrue();
    assertThat(JavaBlosc.decompress(golden, c.name())).isEqualTo(want);
    // read a block at a time through positional reads, as from a file
    byte[] viaInput = new byte[want.length];
    JavaBlosc.decompress(
        Arrays.copyOf(golden, 16),
        new JavaBlosc.Input() {
          @Override
          public long size() {
            return golden.length;
          }

          @Override
          public void read(long pos, byte[] dst, int len) {
            System.arraycopy(golden, (int) pos, dst, 0, len);
          }
        },
        (off, src, so, len) -> System.arraycopy(src, so, viaInput, off, len),
        c.name());
    assertThat(viaInput).isEqualTo(want);
    NDArray a =
        BloscStreams.decode(
            golden, c.type(), new long[] {c.n()}, ByteOrder.LITTLE_ENDIAN, c.name());
    assertThat(a).isNotNull();
    assertThat(a.toBytes(ByteOrder.LITTLE_ENDIAN)).isEqualTo(want);
    BloscBytesCodec codec =
        new BloscBytesCodec(
            Compression.BloscCodec.LZ4,
            c.clevel(),
            c.shuffle() == 1 ? Compression.Shuffle.BYTE : Compression.Shuffle.NONE,
            c.type().itemSize(),
            0);
    assertThat(codec.decode(golden, want.length, c.name())).isEqualTo(want);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void javaEncodingHasTheirHeaderAndCBloscReadsIt(Case c) throws IOException {
    byte[] golden = resource(c.name() + ".blosc");
    byte[] want = expected(c);
    ByteBuffer h = ByteBuffer.wrap(golden).order(ByteOrder.LITTLE_ENDIAN);
    int blockSize = h.getInt(8);
    BloscBytesCodec codec =
        new BloscBytesCodec(
            Compression.BloscCodec.LZ4,
            c.clevel(),
            c.shuffle() == 1 ? Compression.Shuffle.BYTE : Compression.Shuffle.NONE,
            c.type().itemSize(),
            blockSize);
    NDArray a = NDArray.fromBytes(c.type(), new long[] {c.n()}, want, ByteOrder.LITTLE_ENDIAN);
    ByteBuffer enc = BloscStreams.encode(codec, a, new long[] {c.n()}, 0, ByteOrder.LITTLE_ENDIAN);
    byte[] ours = Arrays.copyOf(enc.array(), enc.remaining());
    assertThat(Arrays.copyOfRange(ours, 0, 12))
        .as("version, flags, item size, sizes")
        .isEqualTo(Arrays.copyOfRange(golden, 0, 12));
    assertThat(Blosc.decompress(ours)).isEqualTo(want);
    assertThat(ours)
        .isEqualTo(
            JavaBlosc.compress(want, c.type().itemSize(), c.clevel(), c.shuffle() == 1, blockSize));
  }
}
