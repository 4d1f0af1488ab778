package dev.cubed.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The default split of a reduction widens (up to twice the base) only when that makes its first
 * round finish in fewer steps on the workers; otherwise it is the base.
 */
class BalancedSplitTest {
  @ParameterizedTest(name = "{0} blocks x {1} kept, {2} workers -> {3}")
  @CsvSource({
    // quadratic_means medium: 10 time blocks on 2 workers: 4/4/2 (6 steps) -> 5/5 (5 steps)
    "10, 1, 2, 5",
    "10, 1, 1, 4", // one worker: nothing to balance
    "10, 1, 3, 4", // 4/4/2 on 3 workers is already 4 steps
    "8, 1, 2, 4", // 4/4: balanced
    "9, 1, 2, 4", // 4/4/1 takes 5 steps, as 5/4 does: the smaller split wins the tie
    "3, 1, 2, 4", // one round whatever the split
    "100, 1, 2, 4", // 25 first-round tasks: plenty to balance
    "6, 2, 2, 4", // two kept blocks: 4/2 and 4/2 take 6 steps on 2 workers, as 5/1 + 5/1 and 6 + 6
    "12, 1, 2, 6", // 4/4/4: 8 steps; 6/6: 6 steps
  })
  void balancesTheFirstRound(long n, long kept, int workers, int want) {
    long[] numBlocks = {n, kept};
    assertEquals(want, Reductions.balancedSplit(numBlocks, new int[] {0}, workers, 4));
  }

  @ParameterizedTest
  @CsvSource({"10, 10, 2", "10, 1, 2"})
  void twoReducedAxesWithSeveralBlocksKeepTheBase(long a, long b, int workers) {
    // with one block along the second reduced axis it is a one-axis reduction
    long[] numBlocks = {a, b, 1};
    int want = b > 1 ? 4 : 5;
    assertEquals(want, Reductions.balancedSplit(numBlocks, new int[] {0, 1}, workers, 4));
  }
}
