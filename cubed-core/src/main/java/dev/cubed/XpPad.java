package dev.cubed;

import dev.cubed.core.Shifted;
import dev.cubed.nd.Index;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.node.ArrayNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code pad} (NumPy's {@code numpy.pad}) on chunked arrays (final and package-private; the
 * contract of {@code Xp.pad} is on {@link Xp}). Lazy: along each padded axis the result is the
 * concatenation of a border piece, the array and another border piece, each border a virtual
 * constant array (mode constant), a broadcast one-element slice (edge) or a slice of the array
 * itself, reversed where the mode mirrors (reflect, symmetric, wrap). Memory: as concat, one block
 * per task; nothing of x's size is held. The border blocks take x's block size along the axis (at
 * most the width).
 */
final class XpPad {
  private XpPad() {}

  /** The modes of {@link #pad(CubedArray, long[][], String, Object)}. */
  private static final List<String> MODES =
      List.of("constant", "edge", "reflect", "symmetric", "wrap");

  static CubedArray pad(CubedArray x, long[][] widths, String mode, Object value) {
    String m = mode == null ? "constant" : mode.toLowerCase(Locale.ROOT);
    if (!MODES.contains(m)) {
      throw new IllegalArgumentException(
          "pad: mode '" + mode + "' is not supported; use one of " + MODES);
    }
    int nd = x.ndim();
    if (widths.length != 1 && widths.length != nd) {
      throw new IllegalArgumentException(
          "pad: "
              + widths.length
              + " width pairs for an array of "
              + nd
              + " dimensions (give one pair, or one per axis)");
    }
    if (m.equals("constant")) {
      // a constant pad of a slice back to its source's length (xarray's shift): one op on the
      // source's grid reading each block and a halo of its neighbour (Shifted), no concat
      ArrayNode shifted = Shifted.padded(x.node(), widths, value);
      if (shifted != null) {
        return XpBlocks.wrap(shifted, x);
      }
    }
    CubedArray r = x;
    for (int a = 0; a < nd; a++) {
      long[] w = widths[widths.length == 1 ? 0 : a];
      if (w.length != 2 || w[0] < 0 || w[1] < 0) {
        throw new IllegalArgumentException(
            "pad: widths "
                + Arrays.toString(w)
                + " for axis "
                + a
                + " must be two non-negative numbers (before, after)");
      }
      if (w[0] == 0 && w[1] == 0) {
        continue;
      }
      List<CubedArray> parts = new ArrayList<>(3);
      if (w[0] > 0) {
        parts.add(border(r, a, w[0], true, m, value));
      }
      parts.add(r);
      if (w[1] > 0) {
        parts.add(border(r, a, w[1], false, m, value));
      }
      r = XpManip.concat(parts, a);
    }
    return r;
  }

  static CubedArray pad(CubedArray x, long[][] widths) {
    return pad(x, widths, "constant", null);
  }

  /** The border of width w before (or after) r along axis a. */
  private static CubedArray border(
      CubedArray r, int a, long w, boolean before, String mode, Object value) {
    long n = r.shape()[a];
    long[] shape = r.shape().clone();
    shape[a] = w;
    switch (mode) {
      case "constant" -> {
        Object v = value == null ? 0 : value;
        try {
          NDArray.full(r.dtype(), v, 1);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(
              "pad: constant value " + v + " does not fit " + r.dtype() + ": " + e.getMessage(), e);
        }
        long[] chunks = r.chunkShape().clone();
        for (int d = 0; d < chunks.length; d++) {
          chunks[d] = Math.max(1, d == a ? Math.min(w, chunks[d]) : chunks[d]);
        }
        return XpCreate.full(shape, v, r.dtype(), chunks, r.spec());
      }
      case "edge" -> {
        need(n >= 1, mode, a, n, w);
        CubedArray one = slice(r, a, before ? 0L : n - 1, before ? 1L : n, 1);
        return XpManip.broadcastTo(one, shape);
      }
      case "reflect" -> {
        need(w <= n - 1, mode, a, n, w);
        // before: x[w], ..., x[1]; after: x[n-2], ..., x[n-1-w]
        return before ? slice(r, a, w, 0L, -1) : slice(r, a, n - 2, stopDown(n - 2 - w), -1);
      }
      case "symmetric" -> {
        need(w <= n, mode, a, n, w);
        return before ? slice(r, a, w - 1, null, -1) : slice(r, a, n - 1, stopDown(n - 1 - w), -1);
      }
      default -> { // wrap
        need(w <= n, mode, a, n, w);
        return before ? slice(r, a, n - w, n, 1) : slice(r, a, 0L, w, 1);
      }
    }
  }

  /** A slice stop going down: -1 (before the first element) is "to the start", null in Python. */
  private static Long stopDown(long stop) {
    return stop < 0 ? null : stop;
  }

  private static void need(boolean ok, String mode, int a, long n, long w) {
    if (!ok) {
      throw new IllegalArgumentException(
          "pad: mode '"
              + mode
              + "' cannot add "
              + w
              + " elements along axis "
              + a
              + " of length "
              + n
              + " ("
              + switch (mode) {
                case "edge" -> "the axis must not be empty";
                case "reflect" -> "at most n-1 for reflect";
                default -> "at most n for " + mode;
              }
              + "); use mode 'constant' or pad in steps");
    }
  }

  private static CubedArray slice(CubedArray r, int a, Long start, Long stop, long step) {
    Index[] idx = new Index[r.ndim()];
    Arrays.fill(idx, Index.all());
    idx[a] = Index.slice(start, stop, step);
    return XpManip.getItem(r, idx);
  }
}
