package dev.cubed;

import dev.cubed.nd.DType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code einsum} (NumPy's Einstein summation) on chunked arrays (final and package-private; the
 * contract of {@code Xp.einsum} is on {@link Xp}). Lazy: each operand's labels found nowhere else
 * are summed out first; then the operands are folded left to right, each step a broadcast {@code
 * multiply} of the two (their axes aligned by label) followed by a {@code sum} over the labels no
 * later operand and not the output needs; the result is permuted to the output's order.
 *
 * <p>Memory: a step's product block has, per label of the two operands, that label's block size, so
 * a task holds the outer product of one block of each (as Dask's and Cubed's blockwise einsum); the
 * plan's memory check refuses a step whose blocks do not fit. Rechunk the operands to smaller
 * blocks along their non-shared axes if it does.
 */
final class XpEinsum {
  private XpEinsum() {}

  /** First code of the labels standing for ellipsis dimensions (counted from the right). */
  private static final int ELLIPSIS = 0x10000;

  static CubedArray einsum(String subscripts, CubedArray... operands) {
    String fn = "einsum";
    String s = subscripts.replace(" ", "");
    int arrow = s.indexOf("->");
    String[] ins = (arrow < 0 ? s : s.substring(0, arrow)).split(",", -1);
    if (operands.length == 0 || ins.length != operands.length) {
      throw new IllegalArgumentException(
          fn
              + ": subscripts '"
              + subscripts
              + "' name "
              + ins.length
              + " operands but "
              + operands.length
              + " were given");
    }
    int maxEll = 0;
    List<List<Integer>> labels = new ArrayList<>();
    for (int i = 0; i < ins.length; i++) {
      List<Integer> l = parse(fn, subscripts, ins[i], operands[i].ndim(), true);
      if (new TreeSet<>(l).size() != l.size()) {
        throw new IllegalArgumentException(
            fn
                + ": operand "
                + i
                + " repeats a label in '"
                + ins[i]
                + "' (diagonals are not supported; use diagonal first)");
      }
      for (int c : l) {
        if (c >= ELLIPSIS) {
          maxEll = Math.max(maxEll, c - ELLIPSIS + 1);
        }
      }
      labels.add(l);
    }
    List<Integer> out;
    if (arrow >= 0) {
      String o = s.substring(arrow + 2);
      out = parse(fn, subscripts, o, -1, false);
      if (o.contains("...")) {
        out = expandOutputEllipsis(o, maxEll);
      }
      if (new TreeSet<>(out).size() != out.size()) {
        throw new IllegalArgumentException(fn + ": the output '" + o + "' repeats a label");
      }
    } else {
      out = new ArrayList<>();
      for (int k = maxEll - 1; k >= 0; k--) {
        out.add(ELLIPSIS + k);
      }
      TreeSet<Integer> once = new TreeSet<>();
      for (int c = 'A'; c <= 'z'; c++) {
        int count = 0;
        for (List<Integer> l : labels) {
          count += l.contains(c) ? 1 : 0;
        }
        if (count == 1) {
          once.add(c);
        }
      }
      out.addAll(once);
    }
    for (int c : out) {
      if (labels.stream().noneMatch(l -> l.contains(c))) {
        throw new IllegalArgumentException(
            fn + ": output label '" + name(c) + "' is in no operand of '" + subscripts + "'");
      }
    }
    checkLengths(fn, labels, operands);
    CubedArray[] ops = operands.clone();
    for (int i = 0; i < ops.length; i++) {
      // labels of this operand needed by no other operand and not by the output: summed now
      List<Integer> mine = labels.get(i);
      List<Integer> drop = new ArrayList<>();
      for (int c : mine) {
        boolean elsewhere = out.contains(c);
        for (int j = 0; j < ops.length && !elsewhere; j++) {
          elsewhere = j != i && labels.get(j).contains(c);
        }
        if (!elsewhere) {
          drop.add(c);
        }
      }
      ops[i] = sumOut(ops[i], mine, drop);
      List<Integer> kept = new ArrayList<>(mine);
      kept.removeAll(drop);
      labels.set(i, kept);
    }
    DType dtype =
        XpSearch.resultType(
            (Object[]) Arrays.stream(operands).map(CubedArray::dtype).toArray(DType[]::new));
    CubedArray acc = ops[0];
    List<Integer> accL = labels.get(0);
    for (int j = 1; j < ops.length; j++) {
      Set<Integer> keep = new LinkedHashSet<>(out);
      for (int k = j + 1; k < ops.length; k++) {
        keep.addAll(labels.get(k));
      }
      List<Integer> union = new ArrayList<>(accL);
      for (int c : labels.get(j)) {
        if (!union.contains(c)) {
          union.add(c);
        }
      }
      List<Integer> drop = new ArrayList<>();
      for (int c : union) {
        if (!keep.contains(c)) {
          drop.add(c);
        }
      }
      List<Integer> opL = labels.get(j);
      CubedArray[] pair = {acc, ops[j]};
      List<List<Integer>> pairL = new ArrayList<>(List.of(new ArrayList<>(accL), opL));
      if (contractible(pair, pairL, drop, dtype)) {
        List<Integer> dropped = new ArrayList<>();
        acc = contract(pair, pairL, drop, dropped, dtype);
        accL = dropped;
        continue;
      }
      CubedArray prod = XpBinary.MULTIPLY.apply(align(acc, accL, union), align(ops[j], opL, union));
      acc = sumOut(prod, union, drop);
      union.removeAll(drop);
      accL = union;
    }
    int[] perm = new int[out.size()];
    for (int d = 0; d < perm.length; d++) {
      perm[d] = accL.indexOf(out.get(d));
    }
    CubedArray r = isIdentity(perm) ? acc : XpManip.permuteDims(acc, perm);
    return r.dtype() == dtype ? r : XpUnary.astype(r, dtype);
  }

  /**
   * One operand's labels: letters, and for its ellipsis the codes ELLIPSIS + k (k from the right).
   */
  private static List<Integer> parse(String fn, String all, String sub, int ndim, boolean input) {
    int ell = sub.indexOf("...");
    if (ell >= 0 && sub.indexOf("...", ell + 1) >= 0) {
      throw new IllegalArgumentException(
          fn + ": '" + sub + "' in '" + all + "' has more than one ellipsis");
    }
    String letters = ell < 0 ? sub : sub.substring(0, ell) + sub.substring(ell + 3);
    for (char ch : letters.toCharArray()) {
      if (!(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z')) {
        throw new IllegalArgumentException(
            fn
                + ": '"
                + ch
                + "' in '"
                + all
                + "' is not a subscript label (letters a-z, A-Z, and ...)");
      }
    }
    List<Integer> l = new ArrayList<>();
    if (!input) {
      letters.chars().forEach(l::add);
      return l;
    }
    int nEll = ndim - letters.length();
    if (nEll < 0 || ell < 0 && nEll != 0) {
      throw new IllegalArgumentException(
          fn
              + ": subscripts '"
              + sub
              + "' do not match an operand"
              + " of "
              + ndim
              + " dimensions");
    }
    String head = ell < 0 ? letters : sub.substring(0, ell);
    head.chars().forEach(l::add);
    for (int k = nEll - 1; k >= 0; k--) {
      l.add(ELLIPSIS + k);
    }
    if (ell >= 0) {
      sub.substring(ell + 3).chars().forEach(l::add);
    }
    return l;
  }

  private static List<Integer> expandOutputEllipsis(String o, int maxEll) {
    int ell = o.indexOf("...");
    List<Integer> l = new ArrayList<>();
    o.substring(0, ell).chars().forEach(l::add);
    for (int k = maxEll - 1; k >= 0; k--) {
      l.add(ELLIPSIS + k);
    }
    o.substring(ell + 3).chars().forEach(l::add);
    return l;
  }

  private static void checkLengths(String fn, List<List<Integer>> labels, CubedArray[] ops) {
    Map<Integer, Long> len = new HashMap<>();
    for (int i = 0; i < ops.length; i++) {
      List<Integer> l = labels.get(i);
      for (int d = 0; d < l.size(); d++) {
        long n = ops[i].shape()[d];
        Long had = len.get(l.get(d));
        if (had != null && had != n && had != 1 && n != 1) {
          throw new IllegalArgumentException(
              fn
                  + ": label '"
                  + name(l.get(d))
                  + "' has length "
                  + had
                  + " in one operand and "
                  + n
                  + " in operand "
                  + i);
        }
        if (had == null || had == 1) {
          len.put(l.get(d), n);
        }
      }
    }
  }

  private static String name(int c) {
    return c >= ELLIPSIS ? "..." : String.valueOf((char) c);
  }

  /**
   * Whether a step's product and sum is a tensordot: some label is summed out, every label of both
   * operands is summed out (no batch label kept from both), shared labels have equal lengths, and
   * the result dtype is numeric. Then one contraction op multiplies block pairs into partial sums,
   * and the broadcast product is never made.
   */
  private static boolean contractible(
      CubedArray[] pair, List<List<Integer>> l, List<Integer> drop, DType dtype) {
    if (dtype == DType.BOOL || !(dtype.isFloating() || dtype.isInteger())) {
      return false;
    }
    boolean any = false;
    for (int c : l.get(0)) {
      int k = l.get(1).indexOf(c);
      if (k < 0) {
        continue;
      }
      if (!drop.contains(c) || pair[0].shape()[l.get(0).indexOf(c)] != pair[1].shape()[k]) {
        return false;
      }
      any = true;
    }
    return any;
  }

  /**
   * The step as {@code Xp.tensordot}: labels of one operand only that are summed out go first; the
   * operand whose contracted axes come first in its layout is the right factor, so a block pair
   * needs no transposed copy where the layouts allow it. {@code resultL} receives the result's
   * labels (free labels of the left factor, then those of the right one).
   */
  private static CubedArray contract(
      CubedArray[] pair,
      List<List<Integer>> l,
      List<Integer> drop,
      List<Integer> resultL,
      DType dtype) {
    for (int i = 0; i < 2; i++) {
      List<Integer> own = new ArrayList<>();
      for (int c : l.get(i)) {
        if (drop.contains(c) && !l.get(1 - i).contains(c)) {
          own.add(c);
        }
      }
      pair[i] = sumOut(pair[i], l.get(i), own);
      List<Integer> kept = new ArrayList<>(l.get(i));
      kept.removeAll(own);
      l.set(i, kept);
      if (pair[i].dtype() != dtype) {
        pair[i] = XpUnary.astype(pair[i], dtype);
      }
    }
    // right factor: the operand whose shared labels lead its layout while the other's trail
    // (no transposed copy of either block); else one whose last axis is not contracted (its
    // copy moves whole rows)
    int right = 1;
    if (leads(l.get(0), l.get(1), false) && leads(l.get(1), l.get(0), true)) {
      right = 0;
    } else if (!(leads(l.get(1), l.get(0), false) && leads(l.get(0), l.get(1), true))) {
      List<Integer> l1 = l.get(1);
      right = l1.isEmpty() || l.get(0).contains(l1.get(l1.size() - 1)) ? 0 : 1;
    }
    int left = 1 - right;
    List<Integer> shared = new ArrayList<>();
    for (int c : l.get(right)) {
      if (l.get(left).contains(c)) {
        shared.add(c);
      }
    }
    int[] axesL = shared.stream().mapToInt(l.get(left)::indexOf).toArray();
    int[] axesR = shared.stream().mapToInt(l.get(right)::indexOf).toArray();
    for (int i : new int[] {left, right}) {
      for (int c : l.get(i)) {
        if (!shared.contains(c)) {
          resultL.add(c);
        }
      }
    }
    long pairs = 1;
    long outBlocks = 1;
    for (int i : new int[] {left, right}) {
      CubedArray x = pair[i];
      int[] axes = i == left ? axesL : axesR;
      for (int d = 0; d < x.ndim(); d++) {
        int dd = d;
        boolean contracted = Arrays.stream(axes).anyMatch(a -> a == dd);
        if (contracted && i == left) {
          pairs *= x.numBlocks()[d];
        } else if (!contracted) {
          outBlocks *= x.numBlocks()[d];
        }
      }
    }
    long bytes =
        (pair[0].size() + pair[1].size()) * Math.max(pair[0].dtype().itemSize(), dtype.itemSize());
    if (outBlocks == 1 && pairs > 1 && pairs <= Integer.MAX_VALUE && bytes <= ONE_TASK_BYTES) {
      // a small contraction into one block (xr.dot over every dimension but one): one task folds
      // every block pair, so no partial products are stored and no second op sums them
      return XpManip.tensordot(pair[left], pair[right], axesL, axesR, (int) pairs);
    }
    return XpManip.tensordot(pair[left], pair[right], axesL, axesR);
  }

  /**
   * Operand bytes up to which a contraction into a single output block runs as one task folding
   * every block pair ({@link #contract}): its partial products would be a stored intermediate and a
   * second op, which cost more than the parallel tasks save at this size.
   */
  private static final long ONE_TASK_BYTES = 256L << 20;

  /** Whether the labels x shares with y are x's first labels (its last ones if {@code last}). */
  private static boolean leads(List<Integer> x, List<Integer> y, boolean last) {
    int n = 0;
    for (int c : x) {
      if (y.contains(c)) {
        n++;
      }
    }
    for (int d = 0; d < n; d++) {
      if (!y.contains(x.get(last ? x.size() - 1 - d : d))) {
        return false;
      }
    }
    return true;
  }

  /** x (axes labelled l) summed over the labels in drop. */
  private static CubedArray sumOut(CubedArray x, List<Integer> l, List<Integer> drop) {
    if (drop.isEmpty()) {
      return x;
    }
    int[] axes = drop.stream().mapToInt(l::indexOf).toArray();
    return XpReduce.sum(x, axes);
  }

  /** x (axes labelled l) with an axis per label of union, in its order (length 1 where absent). */
  private static CubedArray align(CubedArray x, List<Integer> l, List<Integer> union) {
    CubedArray r = x;
    List<Integer> have = new ArrayList<>(l);
    for (int c : union) {
      if (!have.contains(c)) {
        r = XpManip.expandDims(r, r.ndim());
        have.add(c);
      }
    }
    int[] perm = union.stream().mapToInt(have::indexOf).toArray();
    return isIdentity(perm) ? r : XpManip.permuteDims(r, perm);
  }

  private static boolean isIdentity(int[] perm) {
    for (int d = 0; d < perm.length; d++) {
      if (perm[d] != d) {
        return false;
      }
    }
    return true;
  }
}
