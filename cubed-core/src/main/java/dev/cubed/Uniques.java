package dev.cubed;

/**
 * Results of the chunked {@code unique_*} functions ({@link Xp#uniqueAll}, {@link Xp#uniqueCounts},
 * {@link Xp#uniqueInverse}). All arrays are lazy; the 1-d ones have an irregular chunking sized by
 * the counting pass that ran when they were built.
 */
public final class Uniques {
  private Uniques() {}

  /**
   * {@code unique_all}: sorted unique values, the first-occurrence index of each in the flattened
   * input, for each input element the index of its value (x's shape), and the counts (int64).
   */
  public record All(
      CubedArray values, CubedArray indices, CubedArray inverseIndices, CubedArray counts) {}

  /** {@code unique_counts}: sorted unique values and their counts (int64). */
  public record Counts(CubedArray values, CubedArray counts) {}

  /** {@code unique_inverse}: sorted unique values and the inverse indices (x's shape, int64). */
  public record Inverse(CubedArray values, CubedArray inverseIndices) {}
}
