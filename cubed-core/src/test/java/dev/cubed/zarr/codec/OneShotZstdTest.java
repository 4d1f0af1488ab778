package dev.cubed.zarr.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.ZarrRoundTripTest;
import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.ZarrFormatException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one-call zstd decode of chunks whose frame declares its size ({@link OneShotZstd}, from
 * {@link StreamedDecode}): the same arrays as the stream decode, frames without a declared size
 * still streamed, corrupt and oversized values refused naming the chunk, the buffers bounded.
 */
class OneShotZstdTest {
  @TempDir Path dir;

  private static final long[] SHAPE = {300, 200};

  /** Smooth doubles with noise: compressible like model output, not trivially. */
  private static NDArray data(long seed) {
    NDArray a = ZarrRoundTripTest.randomArray(DType.FLOAT64, SHAPE, seed);
    double[] d = (double[]) a.data();
    for (int i = 0; i < d.length; i++) {
      d[i] = Math.round((Math.sin(i / 300.0) + d[i] * 1e-3) * 1e4) / 1e4;
    }
    return a;
  }

  private ZarrArray array(FileSystemStore fs, String path) {
    return ZarrArray.create(fs, path)
        .shape(SHAPE)
        .chunks(256, 128)
        .compression(Compression.zstd(3))
        .build();
  }

  private static byte[] frame(byte[] raw, boolean contentSize) {
    try (ZstdCompressCtx ctx = new ZstdCompressCtx()) {
      ctx.setLevel(3);
      ctx.setContentSize(contentSize);
      return ctx.compress(raw);
    }
  }

  private static byte[] rawChunk(NDArray x, long[] lo, long[] chunk) {
    NDArray full = NDArray.zeros(x.dtype(), chunk);
    long[] shape = {
      Math.min(chunk[0], SHAPE[0] - lo[0]), Math.min(chunk[1], SHAPE[1] - lo[1]),
    };
    full.setRegion(new long[2], x.getRegion(lo, shape));
    return full.toBytes(ByteOrder.LITTLE_ENDIAN);
  }

  @Test
  void framesWithAndWithoutTheirSizeDecodeToTheSameArrays() {
    FileSystemStore fs = new FileSystemStore(dir);
    NDArray x = data(1);
    ZarrArray z = array(fs, "a");
    long[] chunk = {256, 128};
    // chunk (0, 0) declares its size (one call), chunk (1, 1), an edge chunk, does not (streamed)
    byte[] with = frame(rawChunk(x, new long[] {0, 0}, chunk), true);
    byte[] without = frame(rawChunk(x, new long[] {256, 128}, chunk), false);
    assertThat(Zstd.getFrameContentSize(with)).isEqualTo(256L * 128 * 8);
    assertThat(Zstd.getFrameContentSize(without)).isEqualTo(-1);
    fs.put("a/c/0/0", with);
    fs.put("a/c/1/1", without);
    fs.put("a/c/0/1", frame(rawChunk(x, new long[] {0, 128}, chunk), true));
    fs.put("a/c/1/0", frame(rawChunk(x, new long[] {256, 0}, chunk), true));
    for (boolean oneShot : new boolean[] {true, false, true}) {
      StreamedDecode.oneShot = oneShot;
      try {
        long before = OneShotZstd.DECODED.sum();
        assertThat(z.read(new long[2], SHAPE)).as("one call " + oneShot).isEqualTo(x);
        // the three chunks that declare their size, when the one call is on
        assertThat(OneShotZstd.DECODED.sum() - before).isEqualTo(oneShot ? 3 : 0);
      } finally {
        StreamedDecode.oneShot = false;
      }
    }
  }

  @Test
  void theOneCallDecodesWhatItIsGivenAndRefusesWhatDoesNotFit() {
    byte[] raw = data(2).toBytes(ByteOrder.LITTLE_ENDIAN);
    byte[] f = frame(raw, true);
    OneShotZstd one = new OneShotZstd(1 << 20);
    byte[] out = new byte[raw.length];
    JavaBlosc.Sink sink = (off, src, so, len) -> System.arraycopy(src, so, out, off, len);
    try (var ctx = new com.github.luben.zstd.ZstdDecompressCtx()) {
      // the first bytes already read, as the stream decode hands them over
      ByteBuffer first = ByteBuffer.allocateDirect(100).put(f, 0, 100).flip();
      assertThat(one.decode(ctx, input(f), first, raw.length, sink)).isTrue();
      assertThat(out).isEqualTo(raw);
      // larger than the bound: not decoded here, nothing written
      Arrays.fill(out, (byte) 0);
      OneShotZstd small = new OneShotZstd(raw.length - 8);
      assertThat(small.decode(ctx, input(f), first, raw.length, sink)).isFalse();
      assertThat(out).containsOnly((byte) 0);
      // a value that decodes to more than the chunk (a second frame after it)
      byte[] two = Arrays.copyOf(f, 2 * f.length);
      System.arraycopy(f, 0, two, f.length, f.length);
      assertThat(one.decode(ctx, input(two), first, raw.length, sink)).isFalse();
      // corrupt in the middle
      byte[] bad = f.clone();
      for (int k = bad.length / 3; k < bad.length; k += 7) {
        bad[k] ^= (byte) 0x5a;
      }
      assertThat(one.decode(ctx, input(bad), first, raw.length, sink)).isFalse();
    }
  }

  @Test
  void corruptTruncatedAndOverlongFramesThatDeclareTheirSizeNameTheChunk() {
    FileSystemStore fs = new FileSystemStore(dir);
    NDArray x = data(3);
    ZarrArray z = array(fs, "b");
    z.write(new long[2], x);
    byte[] good = fs.get("b/c/0/0");
    assertThat(Zstd.getFrameContentSize(good)).isEqualTo(256L * 128 * 8);
    byte[] flipped = good.clone();
    for (int k = good.length / 3; k < good.length; k += 7) {
      flipped[k] ^= (byte) 0x5a;
    }
    byte[] twice = Arrays.copyOf(good, 2 * good.length);
    System.arraycopy(good, 0, twice, good.length, good.length);
    StreamedDecode.oneShot = true;
    try {
      for (byte[] bad : new byte[][] {flipped, Arrays.copyOf(good, good.length - 5), twice}) {
        fs.put("b/c/0/0", bad);
        assertThatThrownBy(() -> z.readChunk(0, 0))
            .isInstanceOf(ZarrFormatException.class)
            .hasMessageContaining("chunk 'b/c/0/0'")
            .hasMessageContaining("zstd");
      }
      fs.put("b/c/0/0", good);
      long before = OneShotZstd.DECODED.sum();
      assertThat(z.read(new long[2], SHAPE)).isEqualTo(x);
      assertThat(OneShotZstd.DECODED.sum() - before).isEqualTo(4);
    } finally {
      StreamedDecode.oneShot = false;
    }
  }

  private static JavaBlosc.Input input(byte[] b) {
    return new JavaBlosc.Input() {
      @Override
      public long size() {
        return b.length;
      }

      @Override
      public void read(long pos, byte[] dst, int len) {
        System.arraycopy(b, (int) pos, dst, 0, len);
      }
    };
  }
}
