package dev.cubed.zarr.codec;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import dev.cubed.nd.DType;
import dev.cubed.zarr.store.ZarrFormatException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.LongAdder;

/**
 * Runs of one stored {@code bytes} + zstd chunk (zarr-python 3's default codec) read in increasing
 * element order without the chunk's decoded image: the value is decoded as a stream, a 256 KiB
 * slice at a time, from a local file read a slice at a time, and each run is converted straight
 * from the decoded slice into its destination. A reader going through a chunk in tiles of whole
 * trailing rows therefore holds two slices and zstd's window, never the chunk, and every decoded
 * byte stays in the cache between the decoder writing it and the tile reading it.
 *
 * <p>zstd cannot seek: a run starting before the slice in hand decodes the value again from its
 * first byte ({@link #RESTARTS} counts these; the tiled evaluation asks for runs in order and makes
 * none). Only values whose first frame declares exactly the chunk's decoded size are read here
 * ({@link #open} returns null for others, which the whole-chunk decode reads and checks). The
 * decoder checks the frame as it goes: a corrupt or truncated frame, or bytes after it, fail the
 * run that reaches them with a {@link ZarrFormatException} naming the chunk; bytes past the last
 * run read are not decoded. The buffers and zstd context come from a per-thread pool and go back on
 * {@link #close()}. Not thread-safe.
 */
public final class ZstdRuns implements AutoCloseable {
  /**
   * The largest window (log2 bytes) of a frame read here: zstd's own parameters pick at most 4 MiB
   * up to level 16 for chunks of any size (zarr-python's default level 3 picks 2 MiB); frames whose
   * header asks for more (higher levels, long-distance matching) are read whole ({@link #open}
   * returns null), and the decoder is held to it.
   */
  static final int WINDOW_LOG_MAX = 22;

  /**
   * Bytes a reader holds besides its caller's arrays: the read and decoded slices, zstd's window
   * and its block buffer.
   */
  public static final long HELD_BYTES =
      StreamedDecode.SLICE_BYTES + (1L << WINDOW_LOG_MAX) + (256 << 10);

  /** Decodes started again from the value's first byte, by every reader (diagnostics, tests). */
  public static final LongAdder RESTARTS = new LongAdder();

  /** Readers opened, by every thread (diagnostics, tests). */
  public static final LongAdder OPENED = new LongAdder();

  /** One reader's slices and zstd context, kept per thread for the next reader. */
  private static final class Slices {
    final ByteBuffer in = ByteBuffer.allocateDirect(StreamedDecode.IN_SLICE);
    final ByteBuffer out = ByteBuffer.allocateDirect(StreamedDecode.OUT_SLICE);
    final ByteBuffer tail = ByteBuffer.allocateDirect(16);
    final ZstdDecompressCtx ctx = new ZstdDecompressCtx();
  }

  /** Idle slices of this thread (a tile chain reads a few leaves at once: a few sets at most). */
  private static final ThreadLocal<ArrayDeque<Slices>> POOL =
      ThreadLocal.withInitial(ArrayDeque::new);

  private static final int POOL_MAX = 8;

  private final JavaBlosc.Input in;
  private final DType dtype;
  private final ByteOrder order;
  private final int item;
  private final long need;
  private final String where;
  private Slices slices;

  /** Next byte of the stored value to read into the input slice. */
  private long next;

  /** Decoded offset of the output slice's first byte, and its decoded bytes. */
  private long outStart;

  private int outLen;

  /** The decoder has ended the frame. */
  private boolean frameDone;

  private ZstdRuns(
      JavaBlosc.Input in, DType dtype, ByteOrder order, long need, Slices s, String where) {
    this.in = in;
    this.dtype = dtype;
    this.order = order;
    this.item = dtype.itemSize();
    this.need = need;
    this.where = where;
    this.slices = s;
    // the input slice holds the value's first bytes (read by open): the decode starts there
    this.next = s.in.limit();
    s.ctx.reset();
    s.ctx.setLongMax(WINDOW_LOG_MAX);
  }

  /**
   * A reader of the zstd value {@code in} holding a chunk of {@code need} decoded bytes of {@code
   * dtype} in {@code order}, or null if its first frame does not declare exactly that size (the
   * caller reads such a value whole, where its size is checked).
   *
   * @throws ZarrFormatException naming {@code where} if the value is not a zstd frame, or declares
   *     more bytes than the chunk's
   */
  public static ZstdRuns open(
      JavaBlosc.Input in, DType dtype, ByteOrder order, long need, String where) {
    if (need <= 0 || need > Integer.MAX_VALUE - 8 || need % dtype.itemSize() != 0) {
      return null;
    }
    ArrayDeque<Slices> pool = POOL.get();
    Slices s = pool.isEmpty() ? new Slices() : pool.pop();
    boolean ok = false;
    try {
      ByteBuffer head = s.in.clear().limit((int) Math.min(s.in.capacity(), in.size()));
      in.read(0, head);
      head.flip();
      long declared = Zstd.getDirectByteBufferFrameContentSize(head, 0, head.remaining());
      if (declared < -1 || head.remaining() == 0) {
        throw new ZarrFormatException(where + ": not a zstd frame (corrupt or truncated chunk)");
      }
      if (declared > need) {
        throw BytesCodecs.tooBig(where, "zstd", declared, (int) need);
      }
      if (declared != need || window(head, need) > 1L << WINDOW_LOG_MAX) {
        return null;
      }
      ok = true;
      OPENED.increment();
      return new ZstdRuns(in, dtype, order, need, s, where);
    } finally {
      if (!ok) {
        give(s);
      }
    }
  }

  /**
   * Elements {@code [start, start + count)} of the chunk (C order, its padding included) into
   * {@code dst}, a backing array of the chunk's dtype, from element {@code at}. Cheapest when each
   * run starts at or after the previous one's start within the slice in hand; an earlier start
   * decodes the value again from its beginning.
   *
   * @throws ZarrFormatException if the part of the value decoded is corrupt or truncated
   */
  public void read(long start, int count, Object dst, int at) {
    if (slices == null) {
      throw new IllegalStateException(where + ": chunk reader used after close");
    }
    long s = start * item;
    long e = s + (long) count * item;
    if (start < 0 || count < 0 || e > need) {
      throw new IllegalArgumentException(
          "chunk reader: run ["
              + start
              + ", "
              + (start + count)
              + ") outside a chunk of "
              + need / item
              + " elements");
    }
    if (s < outStart) {
      RESTARTS.increment();
      start();
    }
    int to = at;
    while (s < e) {
      while (s >= outStart + outLen) {
        nextSlice();
      }
      int from = (int) (s - outStart);
      int n = (int) (Math.min(e, outStart + outLen) - s);
      ByteBuffer v = slices.out.duplicate().position(from).limit(from + n).slice().order(order);
      BloscStreams.fromBytes(v, dtype, dst, to, n / item);
      to += n / item;
      s += n;
    }
  }

  /** Decoded bytes of the chunk. */
  public long decodedBytes() {
    return need;
  }

  /**
   * The window a frame needs (its header at {@code head}'s position; a single-segment frame's is
   * its content size {@code size}), or Long.MAX_VALUE if the header is too short to say.
   */
  static long window(ByteBuffer head, long size) {
    int p = head.position();
    if (head.remaining() < 6 || head.order(ByteOrder.LITTLE_ENDIAN).getInt(p) != 0xFD2FB528) {
      return Long.MAX_VALUE;
    }
    int fhd = head.get(p + 4) & 0xFF;
    if ((fhd & 0x20) != 0) {
      return size; // single segment: the window is the content
    }
    int wd = head.get(p + 5) & 0xFF;
    long base = 1L << (10 + (wd >>> 3));
    return base + (base >>> 3) * (wd & 7);
  }

  /** Positions the decode at the value's first byte. */
  private void start() {
    slices.ctx.reset();
    slices.ctx.setLongMax(WINDOW_LOG_MAX);
    slices.in.clear().limit(0);
    next = 0;
    outStart = 0;
    outLen = 0;
    frameDone = false;
  }

  /** Decodes the next output slice (full, or the chunk's last bytes). */
  private void nextSlice() {
    ByteBuffer out = slices.out;
    ByteBuffer src = slices.in;
    outStart += outLen;
    outLen = 0;
    long left = need - outStart;
    out.clear().limit((int) Math.min(out.capacity(), left));
    try {
      while (out.hasRemaining()) {
        if (!src.hasRemaining()) {
          readSlice();
        }
        int ip = src.position();
        int op = out.position();
        if (slices.ctx.decompressDirectByteBufferStream(out, src)) {
          frameDone = true;
          break; // the frame ended (short of the chunk if out has room: below)
        }
        if (src.position() == ip && out.position() == op && src.hasRemaining()) {
          throw new ZarrFormatException(
              where + ": corrupt zstd data: the decoder made no progress");
        }
      }
    } catch (ZstdException e) {
      throw new ZarrFormatException(
          where + ": corrupt or truncated zstd data: " + e.getMessage(), e);
    }
    outLen = out.position();
    if (out.hasRemaining()) {
      throw new ZarrFormatException(
          where
              + ": decoded chunk has "
              + (outStart + outLen)
              + " bytes, expected "
              + need
              + " ("
              + dtype
              + "; truncated or corrupt chunk)");
    }
    if (outStart + outLen == need) {
      finishFrame();
    }
  }

  /** Reads the value's next slice into the (empty) input slice. */
  private void readSlice() {
    ByteBuffer src = slices.in;
    if (next >= in.size()) {
      throw new ZarrFormatException(
          where + ": corrupt or truncated zstd data: the value ends inside a frame");
    }
    int n = (int) Math.min(src.capacity(), in.size() - next);
    src.clear().limit(n);
    in.read(next, src);
    src.flip();
    next += n;
  }

  /**
   * After the chunk's last byte: the frame must end there (its last block and checksum consumed)
   * and nothing may follow it.
   */
  private void finishFrame() {
    ByteBuffer src = slices.in;
    ByteBuffer tail = slices.tail;
    try {
      while (!frameDone) {
        tail.clear();
        int ip = src.position();
        boolean done = slices.ctx.decompressDirectByteBufferStream(tail, src);
        if (tail.position() > 0) {
          throw BytesCodecs.oversized(where, "zstd", (int) need);
        }
        frameDone = done;
        if (!done && src.hasRemaining() && src.position() == ip) {
          throw new ZarrFormatException(
              where + ": corrupt zstd data: the decoder made no progress");
        }
        if (!done && !src.hasRemaining()) {
          readSlice();
        }
      }
    } catch (ZstdException e) {
      throw new ZarrFormatException(
          where + ": corrupt or truncated zstd data: " + e.getMessage(), e);
    }
    if (src.hasRemaining() || next < in.size()) {
      throw BytesCodecs.oversized(where, "zstd", (int) need);
    }
  }

  @Override
  public void close() {
    if (slices != null) {
      give(slices);
      slices = null;
    }
  }

  private static void give(Slices s) {
    ArrayDeque<Slices> pool = POOL.get();
    if (pool.size() < POOL_MAX) {
      pool.push(s);
    } else {
      s.ctx.close();
    }
  }
}
