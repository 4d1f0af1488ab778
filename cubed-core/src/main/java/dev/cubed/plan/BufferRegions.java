package dev.cubed.plan;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;

/**
 * Copies between blocks ({@link NDArray}s) and a whole result held in a byte buffer ({@link
 * ResultBuffers}): C order, little-endian, at absolute offsets (no buffer position is moved, so
 * tasks on several threads copy into disjoint parts of one buffer at once).
 */
final class BufferRegions {
  private BufferRegions() {}

  /** {@code b} in little-endian order at position 0 (a view sharing its content). */
  static ByteBuffer littleEndian(ByteBuffer b) {
    return b.duplicate().clear().order(ByteOrder.LITTLE_ENDIAN);
  }

  /**
   * Copies {@code block} into the result {@code dst} (of shape {@code shape}, little-endian) at
   * element offset {@code off}, one contiguous run per outer index (the whole block at once when it
   * spans every trailing axis).
   */
  static void put(ByteBuffer dst, long[] shape, long[] off, NDArray block) {
    put(dst, null, shape, off, block);
  }

  /**
   * {@link #put(ByteBuffer, long[], long[], NDArray)}, its long runs written into {@code channel}
   * (the file {@code dst} maps; null: everything through {@code dst}), see {@link
   * #putRun(ByteBuffer, FileChannel, long, NDArray, int, int)}.
   */
  static void put(ByteBuffer dst, FileChannel channel, long[] shape, long[] off, NDArray block) {
    long[] bs = block.shape();
    int nd = bs.length;
    if (nd == 0) {
      putRun(dst, 0, block, 0, 1);
      return;
    }
    long[] strides = Shapes.strides(shape);
    int k = nd - 1;
    long run = bs[k];
    while (k > 0 && bs[k] == shape[k]) {
      k--;
      run *= bs[k];
    }
    if (run == 0) {
      return;
    }
    long[] idx = new long[k];
    long outer = 1;
    for (int i = 0; i < k; i++) {
      outer *= bs[i];
    }
    int src = 0;
    for (long o = 0; o < outer; o++) {
      long at = off[k] * strides[k];
      for (int i = 0; i < k; i++) {
        at += (off[i] + idx[i]) * strides[i];
      }
      putRun(dst, channel, at, block, src, (int) run);
      src += (int) run;
      for (int i = k - 1; i >= 0 && ++idx[i] == bs[i]; i--) {
        idx[i] = 0;
      }
    }
  }

  /**
   * Copies the box of {@code src} that starts at {@code origin} and has {@code shape} (the whole
   * result) into {@code dst}, straight from {@code src}'s elements: one contiguous run per outer
   * index (the whole box at once when it spans every trailing axis of {@code src}), long runs
   * through {@code channel} when it is not null.
   */
  static void putBox(
      ByteBuffer dst, FileChannel channel, long[] shape, NDArray src, long[] origin) {
    int nd = shape.length;
    if (nd == 0) {
      putRun(dst, 0, src, 0, 1);
      return;
    }
    long[] ss = src.shape();
    long[] sstr = Shapes.strides(ss);
    int k = nd - 1;
    long run = shape[k];
    while (k > 0 && shape[k] == ss[k]) {
      k--;
      run *= shape[k];
    }
    if (run == 0) {
      return;
    }
    long outer = 1;
    for (int i = 0; i < k; i++) {
      outer *= shape[i];
    }
    long[] idx = new long[k];
    long at = 0;
    for (long o = 0; o < outer; o++) {
      long from = origin[k] * sstr[k];
      for (int i = 0; i < k; i++) {
        from += (origin[i] + idx[i]) * sstr[i];
      }
      putRun(dst, channel, at, src, Math.toIntExact(from), (int) run);
      at += run;
      for (int i = k - 1; i >= 0 && ++idx[i] == shape[i]; i--) {
        idx[i] = 0;
      }
    }
  }

  /**
   * The block of shape {@code bs} at element offset {@code off} of the result {@code src} (of
   * {@code shape}), as a new array.
   */
  static NDArray get(ByteBuffer src, DType dtype, long[] shape, long[] off, long[] bs) {
    NDArray out = NDArray.empty(dtype, bs);
    int nd = bs.length;
    if (nd == 0) {
      getRun(src, 0, out, 0, 1);
      return out;
    }
    long[] strides = Shapes.strides(shape);
    long[] idx = new long[nd - 1];
    long outer = out.size() / Math.max(1, bs[nd - 1]);
    int run = (int) bs[nd - 1];
    int at = 0;
    for (long o = 0; o < outer && run > 0; o++) {
      long from = off[nd - 1];
      for (int i = 0; i < nd - 1; i++) {
        from += (off[i] + idx[i]) * strides[i];
      }
      getRun(src, from, out, at, run);
      at += run;
      for (int i = nd - 2; i >= 0 && ++idx[i] == bs[i]; i--) {
        idx[i] = 0;
      }
    }
    return out;
  }

  /**
   * Puts elements {@code [from, from + n)} of {@code a} at element {@code at} of {@code dst}
   * (little-endian; complex: 2n numbers).
   */
  static void putRun(ByteBuffer dst, long at, NDArray a, int from, int n) {
    Object data = a.data();
    int e = Math.toIntExact(at);
    switch (a.dtype()) {
      case BOOL -> {
        boolean[] b = (boolean[]) data;
        for (int i = 0; i < n; i++) {
          dst.put(e + i, (byte) (b[from + i] ? 1 : 0));
        }
      }
      case INT8, UINT8 -> dst.put(e, (byte[]) data, from, n);
      case INT16, UINT16 -> dst.asShortBuffer().put(e, (short[]) data, from, n);
      case INT32, UINT32 -> dst.asIntBuffer().put(e, (int[]) data, from, n);
      case INT64, UINT64 -> dst.asLongBuffer().put(e, (long[]) data, from, n);
      case FLOAT32 -> dst.asFloatBuffer().put(e, (float[]) data, from, n);
      case FLOAT64 -> dst.asDoubleBuffer().put(e, (double[]) data, from, n);
      case COMPLEX64 -> dst.asFloatBuffer().put(2 * e, (float[]) data, 2 * from, 2 * n);
      case COMPLEX128 -> dst.asDoubleBuffer().put(2 * e, (double[]) data, 2 * from, 2 * n);
      default -> throw new IllegalStateException("no buffer layout for dtype " + a.dtype());
    }
  }

  /** Runs of at least this many bytes go to the result's file when it has one. */
  static final int CHANNEL_MIN_BYTES = 1 << 16;

  /** The bytes encoded per positional write. */
  private static final int PIECE_BYTES = 1 << 20;

  /** Each task thread's piece buffer (direct: a positional write takes it without a copy). */
  private static final ThreadLocal<ByteBuffer> PIECES =
      ThreadLocal.withInitial(
          () -> ByteBuffer.allocateDirect(PIECE_BYTES).order(ByteOrder.LITTLE_ENDIAN));

  /**
   * {@link #putRun(ByteBuffer, long, NDArray, int, int)}, a run of {@link #CHANNEL_MIN_BYTES} or
   * more written into {@code channel} (the file {@code dst} maps) instead: encoded a megabyte at a
   * time into this thread's direct buffer, then written at its byte offset, so that the pages of a
   * fresh file are allocated by the writes rather than one page fault each. {@code channel} null:
   * through {@code dst}.
   */
  static void putRun(ByteBuffer dst, FileChannel channel, long at, NDArray a, int from, int n) {
    int item = a.dtype().itemSize();
    if (channel == null || (long) n * item < CHANNEL_MIN_BYTES) {
      putRun(dst, at, a, from, n);
      return;
    }
    ByteBuffer piece = PIECES.get();
    int per = PIECE_BYTES / item;
    try {
      for (int done = 0; done < n; done += per) {
        int m = Math.min(per, n - done);
        piece.clear();
        putRun(piece, 0, a, from + done, m);
        piece.position(0).limit(m * item);
        long pos = (at + done) * item;
        while (piece.hasRemaining()) {
          pos += channel.write(piece, pos);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("writing a result run into its file: " + e, e);
    }
  }

  /** Reads {@code n} elements at element {@code at} of {@code src} into {@code a} at {@code to}. */
  static void getRun(ByteBuffer src, long at, NDArray a, int to, int n) {
    Object data = a.data();
    int e = Math.toIntExact(at);
    switch (a.dtype()) {
      case BOOL -> {
        boolean[] b = (boolean[]) data;
        for (int i = 0; i < n; i++) {
          b[to + i] = src.get(e + i) != 0;
        }
      }
      case INT8, UINT8 -> src.get(e, (byte[]) data, to, n);
      case INT16, UINT16 -> src.asShortBuffer().get(e, (short[]) data, to, n);
      case INT32, UINT32 -> src.asIntBuffer().get(e, (int[]) data, to, n);
      case INT64, UINT64 -> src.asLongBuffer().get(e, (long[]) data, to, n);
      case FLOAT32 -> src.asFloatBuffer().get(e, (float[]) data, to, n);
      case FLOAT64 -> src.asDoubleBuffer().get(e, (double[]) data, to, n);
      case COMPLEX64 -> src.asFloatBuffer().get(2 * e, (float[]) data, 2 * to, 2 * n);
      case COMPLEX128 -> src.asDoubleBuffer().get(2 * e, (double[]) data, 2 * to, 2 * n);
      default -> throw new IllegalStateException("no buffer layout for dtype " + a.dtype());
    }
  }
}
