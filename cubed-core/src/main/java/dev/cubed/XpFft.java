package dev.cubed;

import dev.cubed.core.Core;
import dev.cubed.core.StackMap;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.nd.fft.Fft;
import dev.cubed.nd.fft.Fft.Norm;
import dev.cubed.plan.node.ArrayNode;
import java.io.Serializable;
import java.util.Arrays;

/**
 * The Array API {@code fft} extension on chunked arrays ({@code xp.fft.fft(x)} is {@code
 * XpFft.fft(x)}); dtypes, lengths ({@code n}, {@code s}), axes and {@code norm} as the kernel's
 * {@link Fft}.
 *
 * <p>Memory: the transformed axes are moved last (blocks permuted, one per task), rechunked so that
 * they are whole in every block (the other axes hold as many lines per block as fit), and the
 * kernel transforms one block per task; the projected memory counts the block in and out (one copy
 * each) and the kernel's double-precision complex buffers (three per line, of the longer of the
 * input and output lengths). When one line (one element of every other axis) does not fit a task
 * the call is refused when built, naming the function, the axes and their lengths. {@code fftshift}
 * and {@code ifftshift} are rolls ({@link Xp#roll(CubedArray, long[], int[])}: any length); {@code
 * fftfreq} and {@code rfftfreq} are virtual arrays.
 */
public final class XpFft {
  private XpFft() {}

  /** {@code fft(x)} along the last axis. */
  public static CubedArray fft(CubedArray x) {
    return fft(x, null, -1, Norm.BACKWARD);
  }

  /** {@code fft(x, n, axis, norm)}; n null is the input length. */
  public static CubedArray fft(CubedArray x, Integer n, int axis, Norm norm) {
    return one("fft", x, n, axis, norm, Kind.COMPLEX, b -> Fft.fft(b, n, -1, norm));
  }

  /** {@code ifft(x)} along the last axis. */
  public static CubedArray ifft(CubedArray x) {
    return ifft(x, null, -1, Norm.BACKWARD);
  }

  /** {@code ifft(x, n, axis, norm)}. */
  public static CubedArray ifft(CubedArray x, Integer n, int axis, Norm norm) {
    return one("ifft", x, n, axis, norm, Kind.COMPLEX, b -> Fft.ifft(b, n, -1, norm));
  }

  /** {@code rfft(x)} along the last axis. */
  public static CubedArray rfft(CubedArray x) {
    return rfft(x, null, -1, Norm.BACKWARD);
  }

  /** {@code rfft(x, n, axis, norm)}: n/2 + 1 outputs; real input only. */
  public static CubedArray rfft(CubedArray x, Integer n, int axis, Norm norm) {
    return one("rfft", x, n, axis, norm, Kind.HALF_OUT, b -> Fft.rfft(b, n, -1, norm));
  }

  /** {@code irfft(x)} along the last axis. */
  public static CubedArray irfft(CubedArray x) {
    return irfft(x, null, -1, Norm.BACKWARD);
  }

  /** {@code irfft(x, n, axis, norm)}: real output of length n (default 2 * (m - 1)). */
  public static CubedArray irfft(CubedArray x, Integer n, int axis, Norm norm) {
    return one("irfft", x, n, axis, norm, Kind.HALF_IN, b -> Fft.irfft(b, n, -1, norm));
  }

  /** {@code hfft(x)} along the last axis. */
  public static CubedArray hfft(CubedArray x) {
    return hfft(x, null, -1, Norm.BACKWARD);
  }

  /** {@code hfft(x, n, axis, norm)}: real output of length n (default 2 * (m - 1)). */
  public static CubedArray hfft(CubedArray x, Integer n, int axis, Norm norm) {
    return one("hfft", x, n, axis, norm, Kind.HALF_IN, b -> Fft.hfft(b, n, -1, norm));
  }

  /** {@code ihfft(x)} along the last axis. */
  public static CubedArray ihfft(CubedArray x) {
    return ihfft(x, null, -1, Norm.BACKWARD);
  }

  /** {@code ihfft(x, n, axis, norm)}: n/2 + 1 outputs; real input only. */
  public static CubedArray ihfft(CubedArray x, Integer n, int axis, Norm norm) {
    return one("ihfft", x, n, axis, norm, Kind.HALF_OUT, b -> Fft.ihfft(b, n, -1, norm));
  }

  /** {@code fftn(x)} over every axis. */
  public static CubedArray fftn(CubedArray x) {
    return fftn(x, null, null, Norm.BACKWARD);
  }

  /** {@code fftn(x, s, axes, norm)}; null s or axes as the kernel. */
  public static CubedArray fftn(CubedArray x, int[] s, int[] axes, Norm norm) {
    return many("fftn", x, s, axes, norm, Kind.COMPLEX, (b, ss, ax) -> Fft.fftn(b, ss, ax, norm));
  }

  /** {@code ifftn(x)} over every axis. */
  public static CubedArray ifftn(CubedArray x) {
    return ifftn(x, null, null, Norm.BACKWARD);
  }

  /** {@code ifftn(x, s, axes, norm)}. */
  public static CubedArray ifftn(CubedArray x, int[] s, int[] axes, Norm norm) {
    return many("ifftn", x, s, axes, norm, Kind.COMPLEX, (b, ss, ax) -> Fft.ifftn(b, ss, ax, norm));
  }

  /** {@code rfftn(x)} over every axis. */
  public static CubedArray rfftn(CubedArray x) {
    return rfftn(x, null, null, Norm.BACKWARD);
  }

  /** {@code rfftn(x, s, axes, norm)}: the last listed axis gets s/2 + 1 outputs. */
  public static CubedArray rfftn(CubedArray x, int[] s, int[] axes, Norm norm) {
    return many(
        "rfftn", x, s, axes, norm, Kind.HALF_OUT, (b, ss, ax) -> Fft.rfftn(b, ss, ax, norm));
  }

  /** {@code irfftn(x)} over every axis. */
  public static CubedArray irfftn(CubedArray x) {
    return irfftn(x, null, null, Norm.BACKWARD);
  }

  /** {@code irfftn(x, s, axes, norm)}: the last listed axis gets s (default 2 * (m - 1)). */
  public static CubedArray irfftn(CubedArray x, int[] s, int[] axes, Norm norm) {
    return many(
        "irfftn", x, s, axes, norm, Kind.HALF_IN, (b, ss, ax) -> Fft.irfftn(b, ss, ax, norm));
  }

  // ------------------------------------------------------------------ frequencies, shifts

  /**
   * {@code fftfreq(n, d, dtype)} as a virtual 1-d array of the given chunk size (nothing stored):
   * {@code [0, 1, ..., (n-1)/2, -(n/2), ..., -1] / (d * n)}, computed as the kernel does.
   *
   * @throws IllegalArgumentException as the kernel (n below 1, d zero, a dtype other than
   *     float32/float64)
   */
  public static CubedArray fftfreq(int n, double d, DType dtype, long chunk, Spec spec) {
    Fft.fftfreq(1, d, dtype);
    if (n < 1) {
      Fft.fftfreq(n, d, dtype);
    }
    return freq("fftfreq", n, d, dtype, chunk, spec, n, (n - 1) / 2 + 1);
  }

  /** {@code rfftfreq(n, d, dtype)}: {@code [0, 1, ..., n/2] / (d * n)}, virtual; see fftfreq. */
  public static CubedArray rfftfreq(int n, double d, DType dtype, long chunk, Spec spec) {
    Fft.rfftfreq(1, d, dtype);
    if (n < 1) {
      Fft.rfftfreq(n, d, dtype);
    }
    return freq("rfftfreq", n, d, dtype, chunk, spec, n / 2 + 1, n / 2 + 1);
  }

  private static CubedArray freq(
      String kind, int n, double d, DType dtype, long chunk, Spec spec, long len, long positive) {
    double scale = 1.0 / (n * d);
    return new CubedArray(
        Core.fromIndex(
            kind,
            new long[] {len},
            new long[] {chunk},
            dtype,
            (b, i, flat, in, bc) -> b.setDouble(i, (flat < positive ? flat : flat - n) * scale)),
        spec);
  }

  /** {@code fftshift(x)} over every axis. */
  public static CubedArray fftshift(CubedArray x) {
    return fftshift(x, (int[]) null);
  }

  /** {@code fftshift(x, axes)}: rolls each axis (null: all) by len / 2. */
  public static CubedArray fftshift(CubedArray x, int... axes) {
    return shift("fftshift", x, axes, false);
  }

  /** {@code ifftshift(x)} over every axis. */
  public static CubedArray ifftshift(CubedArray x) {
    return ifftshift(x, (int[]) null);
  }

  /** {@code ifftshift(x, axes)}: rolls each axis (null: all) by -(len / 2). */
  public static CubedArray ifftshift(CubedArray x, int... axes) {
    return shift("ifftshift", x, axes, true);
  }

  private static CubedArray shift(String fn, CubedArray x, int[] axes, boolean inverse) {
    int[] ax = Shapes.normalizeAxes(fn, axes, x.ndim());
    if (ax.length == 0 || x.size() == 0) {
      return x;
    }
    long[] sh = new long[ax.length];
    for (int i = 0; i < ax.length; i++) {
      long len = x.shape()[ax[i]];
      sh[i] = inverse ? -(len / 2) : len / 2;
    }
    return XpManip.roll(x, sh, ax);
  }

  // ------------------------------------------------------------------ drivers

  /** How the output length follows from the transform length. */
  private enum Kind {
    COMPLEX,
    HALF_OUT,
    HALF_IN
  }

  private interface Nd extends Serializable {
    NDArray apply(NDArray b, int[] s, int[] axes);
  }

  private interface One extends Serializable {
    NDArray apply(NDArray b);
  }

  private static CubedArray one(
      String fn, CubedArray x, Integer n, int axis, Norm norm, Kind kind, One k) {
    if (x.ndim() == 0) {
      Fft.fft(NDArray.ones(x.dtype()), n, axis, norm);
    }
    int ax = Shapes.normalizeAxis(fn, axis, x.ndim());
    return many(
        fn,
        x,
        n == null ? null : new int[] {n},
        new int[] {ax},
        norm,
        kind,
        (b, ss, a) -> k.apply(b));
  }

  private static CubedArray many(
      String fn, CubedArray x, int[] s, int[] axes, Norm norm, Kind kind, Nd k) {
    long[] shape = x.shape();
    int nd = shape.length;
    int[][] sa = Fft.resolve(fn, shape, s, axes, kind == Kind.HALF_IN);
    int[] ls = sa[0];
    int[] ax = sa[1];
    // validate dtype and arguments on a small sample (nothing of x's size)
    long[] probe = new long[nd];
    for (int d = 0; d < nd; d++) {
      probe[d] = Math.min(shape[d], 2);
    }
    int[] ps = new int[ax.length];
    for (int i = 0; i < ax.length; i++) {
      ps[i] = Math.min(ls[i], 2);
    }
    if (kind == Kind.HALF_IN && ax.length > 0) {
      probe[ax[ax.length - 1]] = 2;
    }
    DType out =
        k.apply(
                NDArray.ones(x.dtype(), probe),
                ax.length == 0 ? null : ps,
                ax.length == 0 ? null : ax)
            .dtype();
    int na = ax.length;
    if (na == 0) {
      return XpUnary.astype(x, out);
    }
    boolean[] moved = new boolean[nd];
    for (int a : ax) {
      moved[a] = true;
    }
    int[] perm = new int[nd];
    int p = 0;
    for (int d = 0; d < nd; d++) {
      if (!moved[d]) {
        perm[p++] = d;
      }
    }
    for (int a : ax) {
      perm[p++] = a;
    }
    boolean identity = true;
    for (int d = 0; d < nd; d++) {
      identity &= perm[d] == d;
    }
    CubedArray xp = identity ? x : XpManip.permuteDims(x, perm);
    long[] batch = Arrays.copyOf(xp.shape(), nd - na);
    long[] outCore = new long[na];
    long longest = 1;
    int[] newAxes = new int[na];
    for (int i = 0; i < na; i++) {
      outCore[i] = kind == Kind.HALF_OUT && i == na - 1 ? ls[i] / 2 + 1 : ls[i];
      longest *= Math.max(Math.max(outCore[i], ls[i]), shape[ax[i]]);
      newAxes[i] = nd - na + i;
    }
    long[] inCore = Arrays.copyOfRange(xp.shape(), nd - na, nd);
    String what =
        "one line of "
            + StackMap.dims(inCore)
            + " "
            + x.dtype()
            + " along axes "
            + Arrays.toString(ax)
            + " (transformed to "
            + StackMap.dims(outCore)
            + " "
            + out
            + ")";
    int[] fs = ls.clone();
    Core.BlocksFunction f = b -> k.apply(b[0], fs, newAxes);
    StackMap.Spec sp = new StackMap.Spec(fn, what, f, out, outCore, 3 * 16 * longest, 0);
    ArrayNode node = StackMap.map(sp, XpNorms.budgetOf(x), batch, xp.node());
    CubedArray y = XpBlocks.wrap(node, x);
    if (identity) {
      return y;
    }
    int[] inv = new int[nd];
    for (int d = 0; d < nd; d++) {
      inv[perm[d]] = d;
    }
    return XpManip.permuteDims(y, inv);
  }
}
