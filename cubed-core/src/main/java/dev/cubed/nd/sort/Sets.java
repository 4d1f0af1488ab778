package dev.cubed.nd.sort;

import dev.cubed.nd.NDArray;

/**
 * The standard's set functions ({@code unique_all}, {@code unique_counts}, {@code unique_inverse},
 * {@code unique_values}) and {@code isin}, for in-memory arrays of every dtype.
 *
 * <p>Unique values follow NumPy 2's {@code unique_*} with {@code equal_nan=False}: the input is
 * flattened, values come out sorted ascending (the order of {@link Sorting}: NaN last, complex
 * lexicographic), {@code -0.0} equals {@code 0.0} (the first occurrence's value is kept) and every
 * NaN (for complex: any value with a NaN part) is a distinct value with count 1. Index arrays are
 * int64; {@code indices} are the first occurrence of each value in the flattened input; {@code
 * inverseIndices} has the input's shape. A 0-d input counts as one element.
 */
public final class Sets {
  private Sets() {}

  /** Result of {@link #uniqueAll}. All arrays are 1-d except {@code inverseIndices}. */
  public record UniqueAll(
      NDArray values, NDArray indices, NDArray inverseIndices, NDArray counts) {}

  /** Result of {@link #uniqueCounts}. */
  public record UniqueCounts(NDArray values, NDArray counts) {}

  /** Result of {@link #uniqueInverse}. */
  public record UniqueInverse(NDArray values, NDArray inverseIndices) {}

  /** Whether {@link #isin} reports membership or its negation (the standard's {@code invert}). */
  public enum Membership {
    /** True where the element of x1 is in x2 ({@code invert=False}). */
    IN,
    /** True where the element of x1 is not in x2 ({@code invert=True}). */
    NOT_IN
  }

  /** Unique values, first-occurrence indices, inverse indices (shape of x) and counts. */
  public static UniqueAll uniqueAll(NDArray x) {
    Unique u = Unique.of(x);
    return new UniqueAll(u.values(), u.indices(), u.inverse(x.shape()), u.counts());
  }

  /** Unique values and their counts. */
  public static UniqueCounts uniqueCounts(NDArray x) {
    Unique u = Unique.of(x);
    return new UniqueCounts(u.values(), u.counts());
  }

  /** Unique values and, for each element of x, the index of its value (shape of x). */
  public static UniqueInverse uniqueInverse(NDArray x) {
    Unique u = Unique.of(x);
    return new UniqueInverse(u.values(), u.inverse(x.shape()));
  }

  /** The sorted unique values of x as a 1-d array of x's dtype. */
  public static NDArray uniqueValues(NDArray x) {
    return Unique.of(x).values();
  }

  /** {@code isin(x1, x2)}: see {@link #isin(NDArray, NDArray, Membership)}. */
  public static NDArray isin(NDArray x1, NDArray x2) {
    return isin(x1, x2, Membership.IN);
  }

  /**
   * A bool array of x1's shape: whether each element of x1 equals some element of x2 (any shape),
   * or the negation for {@link Membership#NOT_IN}. Values compare as numbers across dtypes: in
   * double precision when either side is floating (as NumPy promotes), exactly for integers and
   * bools (bool as 0/1, uint64 values above int64's range only match themselves); complex when
   * either side is complex. NaN equals nothing; {@code -0.0} equals {@code 0.0}.
   */
  public static NDArray isin(NDArray x1, NDArray x2, Membership membership) {
    return IsIn.isin(x1, x2, membership == Membership.NOT_IN);
  }
}
