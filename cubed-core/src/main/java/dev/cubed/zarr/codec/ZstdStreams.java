package dev.cubed.zarr.codec;

import com.github.luben.zstd.EndDirective;
import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdException;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Encodes a chunk with the {@code bytes} codec then zstd (zarr-python 3's default codec chain,
 * optionally followed by crc32c) straight from the chunk's typed array, or from its runs, into this
 * thread's reused output buffer ({@link EncodeBuffers}): a codec block (256 KiB) of the chunk's
 * byte image at a time is fed to one zstd stream whose frame declares the chunk's size, so a write
 * holds no raw byte image of the chunk, no padded copy of an edge chunk, no worst-case output and
 * no trimmed copy of it, and makes no chunk-sized garbage. The frame decodes to the same bytes as
 * {@link ZstdBytesCodec#encode} of the chunk's byte image (tested, and read by zarr-python in the
 * tests).
 */
final class ZstdStreams {
  private ZstdStreams() {}

  /** Bytes of the chunk's byte image fed to the stream at a time. */
  static final int STAGE = JavaBlosc.DEFAULT_BLOCK;

  /**
   * The stored bytes of {@code data} (a chunk clipped to the array) padded to {@code full} with
   * {@code fill}: the returned buffer's remaining bytes from position 0, in this thread's reused
   * output buffer.
   */
  static ByteBuffer encode(
      ZstdBytesCodec zstd, NDArray data, long[] full, Object fill, ByteOrder order, boolean crc) {
    int nbytes = Math.toIntExact(Shapes.size(full) * data.dtype().itemSize());
    return encode(
        zstd.level(),
        new BloscStreams.Elements(data, full, fill, order),
        nbytes,
        data.dtype().itemSize(),
        crc);
  }

  /**
   * The stored bytes of a full chunk of {@code dtype} and shape {@code full} whose elements {@code
   * src} makes a run at a time: only a run and the output buffer exist, never the chunk.
   */
  static ByteBuffer encode(
      ZstdBytesCodec zstd,
      ChunkElements src,
      DType dtype,
      long[] full,
      ByteOrder order,
      boolean crc) {
    long total = Shapes.size(full);
    int nbytes = Math.toIntExact(total * dtype.itemSize());
    return encode(
        zstd.level(),
        new BloscStreams.Runs(src, dtype, total, order),
        nbytes,
        dtype.itemSize(),
        crc);
  }

  private static ByteBuffer encode(
      int level, JavaBlosc.Source in, int nbytes, int item, boolean crc) {
    long bound = Zstd.compressBound(nbytes);
    if (bound > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException("zstd: a chunk of " + nbytes + " bytes is too large");
    }
    int stage = Math.max(item, STAGE / item * item); // whole elements per feed
    byte[] out;
    int n = 0;
    try (EncodeBuffers bufs = EncodeBuffers.acquire()) {
      ZstdCompressCtx ctx = bufs.zstd();
      out = bufs.output((int) bound + (crc ? 4 : 0));
      byte[] block = bufs.block(stage);
      // zstd reads and writes direct memory only (no JNI critical section holding up the
      // collector); its output is copied into the reused output array a stage at a time
      ByteBuffer src = bufs.zstdIn(stage);
      ByteBuffer dst = bufs.zstdOut((int) Zstd.compressBound(stage));
      ctx.setLevel(level);
      ctx.setChecksum(false);
      ctx.setContentSize(true);
      ctx.setPledgedSrcSize(nbytes);
      int off = 0;
      do {
        int len = Math.min(stage, nbytes - off);
        if (len > 0) {
          in.copy(off, block, 0, len);
        }
        off += len;
        src.clear();
        src.put(block, 0, len).flip();
        boolean last = off >= nbytes;
        boolean done;
        do {
          dst.clear();
          done =
              ctx.compressDirectByteBufferStream(
                  dst, src, last ? EndDirective.END : EndDirective.CONTINUE);
          dst.flip();
          int k = dst.remaining();
          if (k > bound - n) {
            throw new IllegalStateException(
                "zstd: the encoded chunk exceeds zstd's bound of " + bound + " bytes");
          }
          dst.get(out, n, k);
          n += k;
        } while (last ? !done : src.hasRemaining());
      } while (off < nbytes);
    } catch (ZstdException e) {
      throw new IllegalStateException(
          "zstd: encoding a chunk of " + nbytes + " bytes failed: " + e.getMessage(), e);
    }
    return crc ? Crc32cBytesCodec.append(out, n) : ByteBuffer.wrap(out, 0, n);
  }
}
