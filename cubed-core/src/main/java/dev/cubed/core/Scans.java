package dev.cubed.core;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.nd.elementwise.Elementwise;
import dev.cubed.plan.ArrayNode;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.KeyFunction;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Cumulative sums and products along an axis, as in DESIGN.md: each block is scanned; a totals
 * array holds each block's total (one entry per block along the axis, chunked {@code max(2, chunk)}
 * entries per block so it is no bigger than the input's chunks); the totals are scanned recursively
 * the same way; and each scanned block is combined with the scanned total of the block before it
 * (one extra block read per task, never the O(k^2) reads of folding all earlier totals). Real, bool
 * and complex dtypes; sums/products of integers and bool accumulate in int64 (uint64 for unsigned),
 * floats and complex in their own dtype.
 */
public final class Scans {
  private Scans() {}

  /** The scans available. */
  public enum Op {
    SUM,
    PROD
  }

  /**
   * Inclusive scan of {@code x} along {@code axis}.
   *
   * @throws IllegalArgumentException if the axis is out of range
   */
  public static ArrayNode cumulative(ArrayNode x0, Op op, int axis) {
    ArrayNode x = Regrid.regular(x0);
    String name = op == Op.SUM ? "cumulative_sum" : "cumulative_prod";
    int nd = x.shape().length;
    int a = Shapes.normalizeAxis(name, axis, nd);
    DType out = ReduceKernel.resultType(ReduceKernel.Kind.SUM, x.dtype());
    return scanAlong(name, x, out, op == Op.PROD, a);
  }

  private static ArrayNode scanAlong(String name, ArrayNode x, DType out, boolean prod, int a) {
    int nd = x.shape().length;
    ArrayNode scanned = Core.mapBlocks(b -> scan(b[0], a, out, prod), out, x);
    long nb = x.numBlocks()[a];
    if (nb <= 1) {
      return scanned;
    }
    // totals: one entry per block of x along the axis, ct entries per totals chunk
    long[] xc = x.chunks();
    long ct = Math.max(2, xc[a]);
    long[] ts = x.shape();
    long[] tc = xc.clone();
    ts[a] = nb;
    tc[a] = ct;
    KeyFunction tk =
        c -> {
          List<long[]> keys = new ArrayList<>();
          for (long j = c[a] * ct; j < Math.min(nb, (c[a] + 1) * ct); j++) {
            long[] k = c.clone();
            k[a] = j;
            keys.add(k);
          }
          return List.of(BlockKeys.stream(keys));
        };
    ArrayNode totals =
        new ArrayNode.Computed(
            new Blockwise(
                name + "-totals",
                tk,
                (args, c) -> {
                  @SuppressWarnings("unchecked")
                  Iterator<NDArray> it = (Iterator<NDArray>) args.get(0);
                  List<NDArray> parts = new ArrayList<>();
                  while (it.hasNext()) {
                    NDArray s = total(it.next(), a, out, prod);
                    parts.add(s);
                  }
                  return concatAlong(parts, a, out);
                },
                new int[] {1},
                new int[] {(int) Math.min(nb, ct)},
                2 * chunkBytes(x.shape(), xc, out)),
            List.of(x),
            ts,
            tc,
            out,
            null);
    ArrayNode scannedTotals = scanAlong(name, totals, out, prod, a);
    KeyFunction fk =
        c -> {
          if (c[a] == 0) {
            return List.of(BlockKeys.one(c), BlockKeys.stream(List.of()));
          }
          long[] k = c.clone();
          k[a] = (c[a] - 1) / ct;
          return List.of(BlockKeys.one(c), BlockKeys.stream(List.of(k)));
        };
    return new ArrayNode.Computed(
        new Blockwise(
            name,
            fk,
            (args, c) -> {
              NDArray s = (NDArray) args.get(0);
              @SuppressWarnings("unchecked")
              Iterator<NDArray> it = (Iterator<NDArray>) args.get(1);
              if (!it.hasNext()) {
                return s;
              }
              NDArray tb = it.next();
              long[] start = new long[nd];
              long[] shape = tb.shape();
              start[a] = (c[a] - 1) % ct;
              shape[a] = 1;
              NDArray off = tb.getRegion(start, shape);
              return combine(s, off.broadcastTo(s.shape()), out, prod);
            },
            new int[] {1, 1},
            new int[] {1, 1},
            chunkBytes(x.shape(), xc, out)),
        List.of(scanned, scannedTotals),
        x.shape(),
        xc,
        out,
        null);
  }

  private static long chunkBytes(long[] shape, long[] chunks, DType t) {
    long n = t.itemSize();
    for (int i = 0; i < shape.length; i++) {
      n *= Math.min(chunks[i], Math.max(1, shape[i]));
    }
    return n;
  }

  /** The total of one block along an axis (extent 1 along it), in dtype out. */
  private static NDArray total(NDArray b, int a, DType out, boolean prod) {
    NDArray s = scan(b, a, out, prod);
    long[] start = new long[b.ndim()];
    long[] shape = s.shape();
    start[a] = shape[a] - 1;
    shape[a] = 1;
    return s.getRegion(start, shape);
  }

  private static NDArray concatAlong(List<NDArray> parts, int a, DType out) {
    if (parts.size() == 1) {
      return parts.get(0);
    }
    long[] shape = parts.get(0).shape();
    shape[a] = parts.size();
    NDArray r = NDArray.empty(out, shape);
    long[] start = new long[shape.length];
    for (int i = 0; i < parts.size(); i++) {
      start[a] = i;
      r.setRegion(start, parts.get(i));
    }
    return r;
  }

  private static NDArray combine(NDArray a, NDArray b, DType out, boolean prod) {
    NDArray r = prod ? Elementwise.multiply(a, b) : Elementwise.add(a, b);
    return r.dtype() == out ? r : r.astype(out);
  }

  /** Inclusive scan of one block along an axis, in dtype out. */
  static NDArray scan(NDArray b, int axis, DType out, boolean prod) {
    NDArray x = b.dtype() == out ? b.copy() : b.astype(out);
    long[] shape = x.shape();
    long n = shape[axis];
    long inner = 1;
    for (int i = axis + 1; i < shape.length; i++) {
      inner *= shape[i];
    }
    long outer = x.size() / Math.max(1, n * inner);
    boolean fl = out.isFloating();
    boolean cx = out.isComplex();
    for (long o = 0; o < outer; o++) {
      for (long in = 0; in < inner; in++) {
        int base = (int) (o * n * inner + in);
        for (long j = 1; j < n; j++) {
          int p = (int) (base + (j - 1) * inner);
          int q = (int) (base + j * inner);
          if (cx) {
            double pr = x.getDouble(p);
            double pi = x.getImag(p);
            double qr = x.getDouble(q);
            double qi = x.getImag(q);
            if (prod) {
              x.setComplex(q, pr * qr - pi * qi, pr * qi + pi * qr);
            } else {
              x.setComplex(q, pr + qr, pi + qi);
            }
          } else if (fl) {
            x.setDouble(
                q, prod ? x.getDouble(p) * x.getDouble(q) : x.getDouble(p) + x.getDouble(q));
          } else {
            x.setLong(q, prod ? x.getLong(p) * x.getLong(q) : x.getLong(p) + x.getLong(q));
          }
        }
      }
    }
    return x;
  }
}
