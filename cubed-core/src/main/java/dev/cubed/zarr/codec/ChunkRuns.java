package dev.cubed.zarr.codec;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import java.util.Arrays;

/**
 * What a chunk write from {@link ChunkElements} needs besides the codec: runs checked and their
 * failures carried through the codec, an edge chunk's runs padded to the full chunk, the empty
 * chunk check, and the whole chunk for codecs that do not stream.
 */
public final class ChunkRuns {
  private ChunkRuns() {}

  /** Elements per run asked of a source when the reader has no block size of its own. */
  static final int RUN = JavaBlosc.DEFAULT_BLOCK / 8;

  /** A failure of {@link ChunkElements#run}, carried unchecked through the codec. */
  public static final class Failed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Failed(Exception cause) {
      super(cause);
    }
  }

  /**
   * Run {@code [e0, e0 + n)} of {@code src}, checked to be {@code n} elements of {@code dtype}.
   *
   * @throws Failed wrapping what the source threw
   */
  public static NDArray run(ChunkElements src, DType dtype, long e0, int n) {
    NDArray r;
    try {
      r = src.run(e0, n);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new Failed(e);
    }
    if (r == null || r.dtype() != dtype || r.size() != n) {
      throw new IllegalStateException(
          "chunk elements: run ["
              + e0
              + ", "
              + (e0 + n)
              + ") must be "
              + n
              + " elements of "
              + dtype
              + ", the source gave "
              + (r == null ? "null" : r.size() + " elements of " + r.dtype()));
    }
    return r;
  }

  /** The whole chunk of {@code shape} from its runs (for codecs that encode whole chunks). */
  public static NDArray materialize(ChunkElements src, DType dtype, long[] shape) {
    NDArray out = NDArray.zeros(dtype, shape);
    int slots = dtype.isComplex() ? 2 : 1;
    long total = Shapes.size(shape);
    for (long e = 0; e < total; e += RUN) {
      int n = (int) Math.min(RUN, total - e);
      NDArray r = run(src, dtype, e, n);
      System.arraycopy(r.data(), 0, out.data(), (int) e * slots, n * slots);
    }
    return out;
  }

  /**
   * The runs of a full chunk of shape {@code full} whose clipped part (of shape {@code clip}, an
   * edge chunk) {@code src} makes: elements outside the clipped box are {@code fill}. Each run asks
   * {@code src} for one run: the clipped rows the full run touches, which are consecutive.
   */
  public static ChunkElements padded(
      ChunkElements src, DType dtype, long[] clip, long[] full, Object fill) {
    if (Arrays.equals(clip, full)) {
      return src;
    }
    int nd = full.length;
    int slots = dtype.isComplex() ? 2 : 1;
    long rowLen = full[nd - 1];
    long clipRowLen = clip[nd - 1];
    Object fillRow = NDArray.full(dtype, fill, new long[] {Math.max(1, rowLen)}).data();
    return new ChunkElements() {
      private NDArray buf;

      @Override
      public NDArray run(long start, int count) {
        if (buf == null || buf.size() != count) {
          buf = NDArray.zeros(dtype, new long[] {count});
        }
        Object out = buf.data();
        long firstRow = start / rowLen;
        long lastRow = (start + count - 1) / rowLen;
        long c0 = -1;
        long c1 = -1;
        for (long row = firstRow; row <= lastRow; row++) {
          long cr = clipRow(full, clip, row);
          if (cr >= 0) {
            c0 = c0 < 0 ? cr : c0;
            c1 = cr;
          }
        }
        NDArray in =
            c0 < 0 || clipRowLen == 0
                ? null
                : ChunkRuns.run(src, dtype, c0 * clipRowLen, (int) ((c1 - c0 + 1) * clipRowLen));
        long e = start;
        int d = 0;
        while (d < count) {
          long row = e / rowLen;
          int col = (int) (e - row * rowLen);
          int m = (int) Math.min(rowLen - col, count - d);
          long cr = clipRow(full, clip, row);
          int kept = cr < 0 ? 0 : (int) Math.max(0, Math.min(m, clipRowLen - col));
          if (kept > 0) {
            System.arraycopy(
                in.data(),
                (int) ((cr - c0) * clipRowLen + col) * slots,
                out,
                d * slots,
                kept * slots);
          }
          if (m > kept) {
            System.arraycopy(fillRow, 0, out, (d + kept) * slots, (m - kept) * slots);
          }
          e += m;
          d += m;
        }
        return buf;
      }
    };
  }

  /**
   * The row (C-order position over all axes but the last) of a chunk clipped to {@code clip} that
   * row {@code row} of the full chunk of shape {@code full} is, or -1 if that row is padding.
   */
  static long clipRow(long[] full, long[] clip, long row) {
    long r = row;
    long out = 0;
    long stride = 1;
    for (int i = full.length - 2; i >= 0; i--) {
      long idx = r % full[i];
      r /= full[i];
      if (idx >= clip[i]) {
        return -1;
      }
      out += idx * stride;
      stride *= clip[i];
    }
    return out;
  }

  /** A source that notes whether every element it made equals the fill value. */
  public static final class FillCheck implements ChunkElements {
    private final ChunkElements src;
    private final DType dtype;
    private final Object fill;
    private boolean allFill = true;

    public FillCheck(ChunkElements src, DType dtype, Object fill) {
      this.src = src;
      this.dtype = dtype;
      this.fill = fill;
    }

    @Override
    public NDArray run(long start, int count) {
      NDArray r = ChunkRuns.run(src, dtype, start, count);
      if (allFill && !FillValues.isAllFill(r, fill)) {
        allFill = false;
      }
      return r;
    }

    /** True if every run made so far was all fill (the whole chunk, once it is encoded). */
    public boolean allFill() {
      return allFill;
    }
  }
}
