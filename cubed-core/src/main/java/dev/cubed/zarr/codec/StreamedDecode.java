package dev.cubed.zarr.codec;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.zarr.store.ZarrFormatException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Chunks of the {@code bytes} serializer followed by one zstd, gzip or zlib compressor (what
 * zarr-python 3 writes by default is bytes + zstd) decoded from a local file as a stream, straight
 * into the chunk's array: the file is read a slice at a time into a direct buffer, the decompressor
 * writes a slice of output at a time into a second one, and each output slice is copied into the
 * array (converting the byte order if the stored one is not the machine's; an edge chunk keeps only
 * its part inside the array). Neither the stored bytes nor the decoded bytes of a chunk are ever
 * held, so a read holds the chunk's array alone ({@link dev.cubed.zarr.ZarrArray#readCopies()} 0
 * from a local directory), and the buffers (two direct slices and a zstd context per thread) are
 * reused from chunk to chunk. Errors are those of the whole-value decoders ({@link BytesCodecs}): a
 * corrupt or truncated stream, a declared or actual size beyond the chunk's, a decoded size short
 * of it. A read of a box of a chunk ({@link #decodeInto}) decodes the stream only up to the box's
 * last byte and copies only the box's elements, straight into the destination array at their place:
 * no chunk-sized array is made.
 */
public final class StreamedDecode {
  private StreamedDecode() {}

  /**
   * Bytes read from the file per slice: as small as the output slice, so the slice the kernel
   * copies in and zstd reads, the output slice and zstd's working set stay in the L2 cache together
   * (a 1 MiB slice took about 1.2x this one's thread CPU on zarr-python's chunks, ReadFloor).
   */
  static final int IN_SLICE = 256 << 10;

  /** Decoded bytes per slice (a multiple of every item size; stays in the L2 cache). */
  static final int OUT_SLICE = 256 << 10;

  /** The per-thread slices a streamed decode holds (read slice and decoded slice). */
  public static final long SLICE_BYTES = IN_SLICE + OUT_SLICE;

  /**
   * The largest decoded zstd chunk, in bytes, decoded in one call ({@link OneShotZstd}); larger
   * chunks are streamed.
   */
  static final int ONE_SHOT_MAX = 64 << 20;

  /** One thread's buffers and zstd context, reused for every chunk that thread decodes. */
  private static final class Buffers {
    final ByteBuffer in = ByteBuffer.allocateDirect(IN_SLICE);
    final ByteBuffer out = ByteBuffer.allocateDirect(OUT_SLICE);
    final CRC32 crc = new CRC32();
    final OneShotZstd oneShot = new OneShotZstd(ONE_SHOT_MAX);
    ZstdDecompressCtx zstd;

    ZstdDecompressCtx zstd() {
      if (zstd == null) {
        zstd = new ZstdDecompressCtx();
      }
      zstd.reset();
      return zstd;
    }
  }

  private static final ThreadLocal<Buffers> BUFFERS = ThreadLocal.withInitial(Buffers::new);

  /** This thread's zstd context, reset (for the zstd streams of Blosc blocks too). */
  static ZstdDecompressCtx zstdContext() {
    return BUFFERS.get().zstd();
  }

  /** Whether chunks compressed with {@code c} (after the bytes serializer) are decoded here. */
  static boolean decodes(BytesCodec c) {
    return c instanceof ZstdBytesCodec
        || c instanceof GzipBytesCodec
        || c instanceof ZlibBytesCodec;
  }

  /**
   * Decodes the chunk of shape {@code full} whose stored value {@code in} holds, compressed with
   * {@code codec} (one {@link #decodes} accepts) over the {@code bytes} serialization of {@code
   * dtype} in {@code order}, into a new array of shape {@code clipped}; null if the chunk is too
   * large for one array (the caller then takes the whole-value path, which refuses it).
   *
   * @throws ZarrFormatException naming {@code where} if the value is corrupt, truncated or decodes
   *     to another size than the chunk's
   */
  static NDArray decode(
      BytesCodec codec,
      JavaBlosc.Input in,
      DType dtype,
      long[] full,
      long[] clipped,
      ByteOrder order,
      String where) {
    long need = Shapes.size(full) * dtype.itemSize();
    if (need > Integer.MAX_VALUE - 8) {
      return null;
    }
    Buffers b = BUFFERS.get();
    Reader r = new Reader(in, b.in, where);
    boolean zstd = codec instanceof ZstdBytesCodec;
    if (zstd) {
      long declared = checkZstdHeader(r, (int) need, where); // before the chunk's array is made
      if (declared == need && oneShot) {
        NDArray a = BloscStreams.newArray(dtype, clipped);
        if (b.oneShot.decode(
            b.zstd(), in, r.buf, (int) need, BloscStreams.into(a, order, full, clipped))) {
          return a;
        }
        // not decodable in one call (e.g. corrupt): the stream below names what is wrong
        r = new Reader(in, b.in, where);
      }
    }
    NDArray a = BloscStreams.newArray(dtype, clipped);
    Output out =
        new Output(b.out, BloscStreams.into(a, order, full, clipped), (int) need, (int) need);
    decodeStream(codec, zstd, b, r, out, where);
    out.finish(dtype, full, where, codecName(codec));
    return a;
  }

  /**
   * Decodes the box at {@code lo} of shape {@code box} (not empty; with {@code step}, null for 1,
   * every {@code step[i]}-th element along axis {@code i}: {@link ChunkCodec#decodeInto}) of the
   * chunk of shape {@code full} whose stored value {@code in} holds (compressed as for {@link
   * #decode}) straight into {@code dst} at {@code dstAt}; false (nothing written) if the chunk is
   * too large for one array (the caller then takes the whole-value path, which refuses it) or if
   * the one-call zstd decode is on ({@link #oneShot}, which decodes whole chunks: the caller then
   * reads the chunk whole). The stream is decoded only up to the last byte of the box in the
   * chunk's C-order image ({@link BoxInto#endByte}), and only the box's elements are copied: bytes
   * past the box are not decoded, so corruption there, and a gzip member's trailer (its crc32 and
   * size), are not checked by this read (zarr-python's default zstd frames carry no checksum
   * either). A zstd frame that declares a size other than the chunk's is refused (larger) or
   * decoded whole (smaller: a value of several frames, or a truncated chunk), so that the
   * whole-value checks apply; a box reaching the chunk's last byte decodes the whole value with all
   * of {@link #decode}'s checks.
   *
   * @throws ZarrFormatException naming {@code where} if the part decoded is corrupt or truncated,
   *     or the value declares a size beyond the chunk's
   */
  static boolean decodeInto(
      BytesCodec codec,
      JavaBlosc.Input in,
      DType dtype,
      long[] full,
      ByteOrder order,
      long[] lo,
      long[] box,
      long[] step,
      NDArray dst,
      long[] dstAt,
      String where) {
    long need = Shapes.size(full) * dtype.itemSize();
    if (need > Integer.MAX_VALUE - 8 || oneShot) {
      return false;
    }
    long stop = BoxInto.endByte(full, lo, box, step, dtype.itemSize());
    Buffers b = BUFFERS.get();
    Reader r = new Reader(in, b.in, where);
    boolean zstd = codec instanceof ZstdBytesCodec;
    if (zstd) {
      long declared = checkZstdHeader(r, (int) need, where);
      if (declared >= 0 && declared != need) {
        stop = need;
      }
    }
    Output out =
        new Output(
            b.out, new BoxInto(dst, order, full, lo, box, step, dstAt), (int) need, (int) stop);
    decodeStream(codec, zstd, b, r, out, where);
    out.finish(dtype, full, where, codecName(codec));
    return true;
  }

  private static void decodeStream(
      BytesCodec codec, boolean zstd, Buffers b, Reader r, Output out, String where) {
    if (zstd) {
      zstd(b.zstd(), r, out, where);
    } else {
      inflate(codec instanceof GzipBytesCodec, r, out, b.crc, where);
    }
  }

  /**
   * Whether zstd frames that declare their size are decoded in one call ({@link OneShotZstd});
   * default false: measured against the stream decode it was no faster (thread CPU per 32 MB chunk
   * 1.03x-1.08x the stream's, wall 1.01x on 8 MB chunks: {@code ZstdOneShotBench}), since the whole
   * decoded chunk goes through memory twice where the stream's 256 KiB slices stay in cache, and it
   * holds a chunk-sized buffer per thread.
   */
  static volatile boolean oneShot = false;

  private static String codecName(BytesCodec c) {
    return c instanceof ZstdBytesCodec ? "zstd" : c instanceof GzipBytesCodec ? "gzip" : "zlib";
  }

  /** The stored value, read a slice at a time into a direct buffer. */
  private static final class Reader {
    final JavaBlosc.Input in;
    final ByteBuffer buf;
    final String where;
    long next;

    Reader(JavaBlosc.Input in, ByteBuffer buf, String where) {
      this.in = in;
      this.buf = buf;
      this.where = where;
      buf.clear().limit(0);
    }

    /** Whether bytes are left in the buffer or the file, reading the next slice if needed. */
    boolean fill() {
      if (buf.hasRemaining()) {
        return true;
      }
      if (next >= in.size()) {
        return false;
      }
      int n = (int) Math.min(buf.capacity(), in.size() - next);
      buf.clear().limit(n);
      in.read(next, buf);
      buf.flip();
      next += n;
      return true;
    }

    /** The next byte, or -1 at the end of the value. */
    int read() {
      return fill() ? buf.get() & 0xFF : -1;
    }
  }

  /**
   * The decoder's output slice: full slices (and the last one) go to the sink; never more than the
   * chunk's bytes plus one are asked of the decoder, so an oversized value is refused, not cut. A
   * decode that stops early ({@code stop} before {@code need}) is asked for {@code stop} bytes only
   * and ends once they are handed over ({@link #reached()}).
   */
  private static final class Output {
    final ByteBuffer buf;
    final JavaBlosc.Sink sink;
    final int need;
    final long end;
    int done;

    Output(ByteBuffer buf, JavaBlosc.Sink sink, int need, int stop) {
      this.buf = buf;
      this.sink = sink;
      this.need = need;
      this.end = stop < need ? stop : need + 1L;
      buf.clear().limit((int) Math.min(buf.capacity(), end));
    }

    /** True if the decoder has room to write. */
    boolean room() {
      return buf.hasRemaining();
    }

    /** True once a decode that stops early has handed over all the bytes it needs. */
    boolean reached() {
      return end <= need && done >= end;
    }

    /** Hands the full slice to the sink (a partial one at the end of the value: see finish). */
    void flush(String where, String codec) {
      int n = buf.position();
      if (done + (long) n > need) {
        throw BytesCodecs.oversized(where, codec, need);
      }
      buf.flip();
      sink.accept(done, buf);
      done += n;
      buf.clear().limit((int) Math.min(buf.capacity(), end - done));
    }

    void finish(DType dtype, long[] full, String where, String codec) {
      if (buf.position() > 0) {
        flush(where, codec);
      }
      if (done != Math.min(end, need)) {
        throw new ZarrFormatException(
            where
                + ": decoded chunk has "
                + done
                + " bytes, expected "
                + need
                + " ("
                + dtype
                + " chunk of shape "
                + Shapes.format(full)
                + "; truncated or corrupt chunk)");
      }
    }
  }

  /**
   * Refuses a value that is not a zstd frame or declares more bytes than the chunk's; returns the
   * size the first frame declares, -1 if it does not declare one.
   */
  private static long checkZstdHeader(Reader r, int need, String where) {
    if (!r.fill()) {
      throw new ZarrFormatException(where + ": not a zstd frame (corrupt or truncated chunk)");
    }
    ByteBuffer b = r.buf;
    long declared = Zstd.getDirectByteBufferFrameContentSize(b, b.position(), b.remaining());
    if (declared < -1) {
      throw new ZarrFormatException(where + ": not a zstd frame (corrupt or truncated chunk)");
    }
    if (declared > need) {
      throw BytesCodecs.tooBig(where, "zstd", declared, need);
    }
    return declared;
  }

  private static void zstd(ZstdDecompressCtx ctx, Reader r, Output out, String where) {
    try {
      boolean frameDone = false;
      while (true) {
        if (!out.room()) {
          out.flush(where, "zstd");
          if (out.reached()) {
            return;
          }
        }
        boolean more = r.fill();
        if (!more && frameDone) {
          return;
        }
        int inBefore = r.buf.position();
        int outBefore = out.buf.position();
        // true once a frame is decoded and flushed; a further frame then starts afresh
        frameDone = ctx.decompressDirectByteBufferStream(out.buf, r.buf);
        if (!frameDone
            && r.buf.position() == inBefore
            && out.buf.position() == outBefore
            && (!more || out.room())) {
          throw new ZarrFormatException(
              where + ": corrupt or truncated zstd data: the value" + " ends inside a frame");
        }
      }
    } catch (ZstdException e) {
      throw new ZarrFormatException(
          where + ": corrupt or truncated zstd data: " + e.getMessage(), e);
    }
  }

  /** Gzip members (RFC 1952, as {@code GZIPInputStream} reads them) or one zlib stream. */
  private static void inflate(boolean gzip, Reader r, Output out, CRC32 crc, String where) {
    String codec = gzip ? "gzip" : "zlib";
    Inflater inf = new Inflater(gzip);
    try {
      boolean member = true;
      while (member) {
        if (gzip) {
          gzipHeader(r, where);
          crc.reset();
        }
        inf.reset();
        long memberStart = out.done + out.buf.position();
        while (!inf.finished()) {
          if (inf.needsInput()) {
            if (!r.fill()) {
              throw new ZarrFormatException(
                  where
                      + ": corrupt or truncated "
                      + codec
                      + " data: the value ends inside the compressed stream");
            }
            inf.setInput(r.buf);
          }
          int p = out.buf.position();
          int n = inf.inflate(out.buf);
          if (gzip && n > 0) {
            crc.update(out.buf.duplicate().position(p).limit(p + n));
          }
          if (!out.room()) {
            out.flush(where, codec);
            if (out.reached()) {
              return;
            }
          } else if (n == 0 && inf.needsDictionary()) {
            throw new ZarrFormatException(
                where + ": corrupt " + codec + " data: needs a preset dictionary");
          }
        }
        if (!gzip) {
          return; // bytes after a zlib stream are ignored, as before
        }
        long size = out.done + out.buf.position() - memberStart;
        long storedCrc = u32(r, where);
        long storedSize = u32(r, where);
        if (storedCrc != crc.getValue() || storedSize != (size & 0xFFFFFFFFL)) {
          throw new ZarrFormatException(
              where + ": corrupt or truncated gzip data: Corrupt GZIP" + " trailer");
        }
        // another member follows if the next bytes are a gzip header; else they are ignored
        member = r.fill() && (r.buf.get(r.buf.position()) & 0xFF) == 0x1f;
      }
    } catch (DataFormatException e) {
      throw new ZarrFormatException(
          where + ": corrupt or truncated " + codec + " data: " + e.getMessage(), e);
    } finally {
      inf.end();
    }
  }

  private static long u32(Reader r, String where) {
    long v = 0;
    for (int i = 0; i < 4; i++) {
      int c = r.read();
      if (c < 0) {
        throw new ZarrFormatException(
            where + ": corrupt or truncated gzip data: Unexpected end" + " of ZLIB input stream");
      }
      v |= (long) c << (8 * i);
    }
    return v;
  }

  /** Skips a gzip member header (magic, method 8, optional extra, name, comment, header crc). */
  private static void gzipHeader(Reader r, String where) {
    int[] h = new int[10];
    for (int i = 0; i < 10; i++) {
      h[i] = r.read();
      if (h[i] < 0) {
        throw new ZarrFormatException(
            where + ": corrupt or truncated gzip data: the value ends" + " inside its header");
      }
    }
    if (h[0] != 0x1f || h[1] != 0x8b) {
      throw new ZarrFormatException(
          where + ": corrupt or truncated gzip data: Not in GZIP" + " format");
    }
    if (h[2] != 8) {
      throw new ZarrFormatException(
          where + ": corrupt or truncated gzip data: Unsupported" + " compression method");
    }
    int flg = h[3];
    if ((flg & 4) != 0) { // FEXTRA
      int len = r.read() | r.read() << 8;
      for (int i = 0; i < len; i++) {
        checkedRead(r, where);
      }
    }
    if ((flg & 8) != 0) { // FNAME
      while (checkedRead(r, where) != 0) {
        // skip
      }
    }
    if ((flg & 16) != 0) { // FCOMMENT
      while (checkedRead(r, where) != 0) {
        // skip
      }
    }
    if ((flg & 2) != 0) { // FHCRC
      checkedRead(r, where);
      checkedRead(r, where);
    }
  }

  private static int checkedRead(Reader r, String where) {
    int c = r.read();
    if (c < 0) {
      throw new ZarrFormatException(
          where + ": corrupt or truncated gzip data: the value ends" + " inside its header");
    }
    return c;
  }
}
