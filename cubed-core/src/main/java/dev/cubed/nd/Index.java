package dev.cubed.nd;

/**
 * One entry of a basic index (the standard's "indexing" section): an integer, a slice, a new axis
 * or an ellipsis. A full index is an {@code Index[]}; an array indexed by it returns a copy.
 *
 * <pre>{@code
 * a.get(Index.at(0), Index.slice(null, null, -2), Index.newAxis())   // a[0, ::-2, None]
 * }</pre>
 */
public sealed interface Index {

  /** A single position; negative counts from the end. Removes the axis. */
  record At(long index) implements Index {}

  /**
   * A Python slice {@code start:stop:step}; null bounds mean "from the start/to the end" for the
   * step's direction. Step may be negative, never zero.
   */
  record Slice(Long start, Long stop, long step) implements Index {
    public Slice {
      if (step == 0) {
        throw new IllegalArgumentException("slice step cannot be zero");
      }
    }

    /**
     * Resolves the slice against a dimension of length {@code n} with Python's rules, returning
     * {@code {start, step, length}}: the selected positions are {@code start + i * step} for {@code
     * i < length}.
     */
    public long[] resolve(long n) {
      long lo;
      long hi;
      if (step > 0) {
        lo = start == null ? 0 : clamp(start < 0 ? start + n : start, 0, n);
        hi = stop == null ? n : clamp(stop < 0 ? stop + n : stop, 0, n);
        long len = hi > lo ? (hi - lo + step - 1) / step : 0;
        return new long[] {lo, step, len};
      }
      lo = start == null ? n - 1 : clamp(start < 0 ? start + n : start, -1, n - 1);
      hi = stop == null ? -1 : clamp(stop < 0 ? stop + n : stop, -1, n - 1);
      long len = lo > hi ? (lo - hi + (-step) - 1) / (-step) : 0;
      return new long[] {lo, step, len};
    }

    private static long clamp(long v, long min, long max) {
      return Math.max(min, Math.min(max, v));
    }

    @Override
    public String toString() {
      return (start == null ? "" : start)
          + ":"
          + (stop == null ? "" : stop)
          + (step == 1 ? "" : ":" + step);
    }
  }

  /** Inserts a new axis of length 1 (Python's {@code None}). */
  record NewAxis() implements Index {}

  /** Stands for as many full slices as needed (Python's {@code ...}). At most one per index. */
  record Ellipsis() implements Index {}

  /** The full slice {@code :}. */
  Index ALL = new Slice(null, null, 1);

  /** A new axis of length 1 (Python's {@code None}). */
  Index NEW_AXIS = new NewAxis();

  /** The ellipsis (Python's {@code ...}). */
  Index ELLIPSIS = new Ellipsis();

  /** A single position {@code i}; negative counts from the end. */
  static Index at(long i) {
    return new At(i);
  }

  /** The slice {@code start:stop}; negative bounds count from the end ({@code slice(5, -5)}). */
  static Index slice(long start, long stop) {
    return new Slice(start, stop, 1);
  }

  /** The slice {@code start:stop:step}; step may be negative, never zero. */
  static Index slice(long start, long stop, long step) {
    return new Slice(start, stop, step);
  }

  /**
   * The slice {@code start:stop} where a null bound is omitted ({@code slice(null, 5L)} is {@code
   * :5}); {@link #from(long)} and {@link #to(long)} say the same without a null.
   */
  static Index slice(Long start, Long stop) {
    return new Slice(start, stop, 1);
  }

  /** The slice {@code start:stop:step} where a null bound is omitted. */
  static Index slice(Long start, Long stop, long step) {
    return new Slice(start, stop, step);
  }

  /** The slice {@code start:} (to the end). */
  static Index from(long start) {
    return new Slice(start, null, 1);
  }

  /** The slice {@code :stop} (from the start). */
  static Index to(long stop) {
    return new Slice(null, stop, 1);
  }

  /** The slice {@code ::step} (every element with that step; negative reverses). */
  static Index step(long step) {
    return new Slice(null, null, step);
  }

  /** The full slice {@code :} (also {@link #ALL}). */
  static Index all() {
    return ALL;
  }

  /** A new axis (also {@link #NEW_AXIS}). */
  static Index newAxis() {
    return NEW_AXIS;
  }

  /** The ellipsis (also {@link #ELLIPSIS}). */
  static Index ellipsis() {
    return ELLIPSIS;
  }

  /**
   * Parses an index written as in NumPy, between the brackets of {@code x[...]}: comma-separated
   * integers, slices {@code start:stop:step} (any part may be omitted), {@code None} (or {@code
   * np.newaxis}) and {@code ...}. {@code Index.parse("0, ::-2, None")} is {@code {at(0), step(-2),
   * NEW_AXIS}}; {@code ""} is the empty index (the whole array).
   *
   * @throws IllegalArgumentException naming the part that is not one of those forms (arrays and
   *     masks are not basic indices: use {@code Xp.take} or {@code XpIndexing})
   */
  static Index[] parse(String numpyIndex) {
    return IndexParser.parse(numpyIndex);
  }
}
