package dev.cubed.zarr.codec;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.LongAdder;

/**
 * One thread's one-call zstd decode ({@link StreamedDecode}): a chunk whose zstd frame declares its
 * decoded size (zarr-python and this project write it) is read whole into a direct buffer and
 * decoded with one {@code ZSTD_decompressDCtx} call into a second direct buffer, which is then
 * copied into the chunk's array. The stream decode goes through zstd's window buffer and hands out
 * a slice at a time; one call writes the chunk's bytes straight into the output buffer.
 *
 * <p>Both buffers are reused from chunk to chunk and grow to the largest chunk the thread decoded,
 * never beyond {@code max} decoded bytes (and the compressed bound of that): larger chunks, values
 * larger than their bound, and values the call refuses (corrupt, truncated, several frames larger
 * than the chunk) go back to the stream decode, which names the problem. The buffers are off the
 * Java heap: a thread that decodes zstd holds at most {@code max + compressBound(max)} bytes there
 * for its life.
 */
final class OneShotZstd {
  /** Chunks decoded in one call, by every thread (diagnostics and tests). */
  static final LongAdder DECODED = new LongAdder();

  private final int max;
  private ByteBuffer src;
  private ByteBuffer dst;

  OneShotZstd(int max) {
    this.max = max;
  }

  /**
   * Decodes the zstd value {@code in} of exactly {@code need} decoded bytes into {@code sink}
   * (output offset 0). {@code first} holds the value's first bytes from position 0 to its limit
   * (already read; its position is left as it is). Returns false, having written nothing, if the
   * chunk is too large for this path or the call fails.
   */
  boolean decode(
      ZstdDecompressCtx ctx, JavaBlosc.Input in, ByteBuffer first, int need, JavaBlosc.Sink sink) {
    long size = in.size();
    if (need > max || size > Zstd.compressBound(need) || size > Integer.MAX_VALUE - 8) {
      return false;
    }
    ByteBuffer s = src((int) size);
    ByteBuffer head = first.duplicate();
    head.position(0);
    if (head.limit() > size) {
      return false;
    }
    s.put(head);
    if (s.hasRemaining()) {
      in.read(s.position(), s);
    }
    ByteBuffer d = dst(need);
    int n;
    try {
      n = ctx.decompressDirectByteBuffer(d, 0, need, s, 0, (int) size);
    } catch (ZstdException e) {
      return false;
    }
    if (n != need) {
      return false;
    }
    d.position(0).limit(need);
    sink.accept(0, d);
    DECODED.increment();
    return true;
  }

  private ByteBuffer src(int n) {
    if (src == null || src.capacity() < n) {
      src = ByteBuffer.allocateDirect(n);
    }
    return src.clear().limit(n);
  }

  private ByteBuffer dst(int n) {
    if (dst == null || dst.capacity() < n) {
      dst = ByteBuffer.allocateDirect(n);
    }
    return dst.clear().limit(n);
  }
}
