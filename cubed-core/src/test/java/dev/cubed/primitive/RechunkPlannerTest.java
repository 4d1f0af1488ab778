package dev.cubed.primitive;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The rechunk planner's choice of stages: bytes moved, read amplification, chunk sizes. */
class RechunkPlannerTest {
  private static final long MB = 1_000_000;

  /** The rechunk workload at medium with allowedMem 500 MB (budget 80 MB). */
  @Test
  void sliceToColumnsIsTwoStagesReadingEachChunkOnce() {
    long[] shape = {1000, 600, 600};
    long[] source = {1, 600, 600};
    long[] target = {1000, 100, 100};
    RechunkPlanner.Plan p = RechunkPlanner.plan(shape, source, target, 8, 80 * MB);
    assertThat(p.intermediates()).hasSize(1);
    long[] mid = p.intermediates().get(0);
    assertThat(mid).containsExactly(27, 100, 100);
    long arrayBytes = 1000L * 600 * 600 * 8;
    long[] r1 = RechunkPlanner.copyRegion(shape, source, mid, 8, 80 * MB);
    long[] r2 = RechunkPlanner.copyRegion(shape, mid, target, 8, 80 * MB);
    // no read amplification: each stage reads the array once
    assertThat(RechunkPlanner.readBytes(shape, source, r1, 8)).isEqualTo(arrayBytes);
    assertThat(RechunkPlanner.readBytes(shape, mid, r2, 8)).isEqualTo(arrayBytes);
    assertThat(RechunkPlanner.bytes(r1, 8)).isLessThanOrEqualTo(80 * MB);
  }

  @Test
  void sameChunksOrCheapCopyIsDirect() {
    long[] shape = {100, 100};
    assertThat(
            RechunkPlanner.plan(shape, new long[] {10, 10}, new long[] {10, 10}, 8, MB)
                .intermediates())
        .isEmpty();
    // merging chunks: one copy reading each source chunk once
    assertThat(
            RechunkPlanner.plan(shape, new long[] {10, 10}, new long[] {50, 100}, 8, MB)
                .intermediates())
        .isEmpty();
  }

  @Test
  void objectStoreRequestCostKeepsIntermediateChunksLarger() {
    long[] shape = {4000, 4000};
    long[] source = {1, 4000};
    long[] target = {4000, 1};
    RechunkPlanner.Plan local = RechunkPlanner.plan(shape, source, target, 8, 4 * MB);
    RechunkPlanner.Plan remote =
        RechunkPlanner.plan(shape, source, target, 8, 4 * MB, RechunkPlanner.OBJECT_STORE_OP_BYTES);
    assertThat(local.intermediates()).isNotEmpty();
    assertThat(remote.ioOps()).isLessThanOrEqualTo(local.ioOps());
  }

  static IntStream seeds() {
    return IntStream.range(0, 40);
  }

  /**
   * Random shapes and chunkings: the chosen plan is never costlier than the old rule's usual
   * alternatives (direct copy, and every stage count), intermediate chunks fit the budget, and
   * every copy region is a whole multiple of its destination's chunks within the budget.
   */
  @ParameterizedTest
  @MethodSource("seeds")
  void chosenPlanIsTheCheapestCandidateAndFitsTheBudget(int seed) {
    Random r = new Random(seed * 7919L + 3);
    int nd = 1 + r.nextInt(3);
    long[] shape = new long[nd];
    long[] source = new long[nd];
    long[] target = new long[nd];
    for (int i = 0; i < nd; i++) {
      shape[i] = 1 + r.nextInt(300);
      source[i] = 1 + r.nextInt((int) shape[i]);
      target[i] = 1 + r.nextInt((int) shape[i]);
    }
    int item = r.nextBoolean() ? 8 : 4;
    long chunkMax =
        Math.max(RechunkPlanner.bytes(source, item), RechunkPlanner.bytes(target, item));
    long budget = chunkMax * (1 + r.nextInt(20));
    RechunkPlanner.Plan p = RechunkPlanner.plan(shape, source, target, item, budget);
    List<long[]> chain = new ArrayList<>();
    chain.add(source);
    chain.addAll(p.intermediates());
    chain.add(target);
    double cost = 0;
    for (int k = 1; k < chain.size(); k++) {
      long[] to = chain.get(k);
      assertThat(RechunkPlanner.bytes(to, item)).isLessThanOrEqualTo(budget);
      long[] region = RechunkPlanner.copyRegion(shape, chain.get(k - 1), to, item, budget);
      for (int i = 0; i < nd; i++) {
        assertThat(region[i] % to[i] == 0 || region[i] == shape[i]).isTrue();
      }
      assertThat(RechunkPlanner.bytes(region, item))
          .isLessThanOrEqualTo(Math.max(budget, RechunkPlanner.bytes(to, item)));
      cost +=
          RechunkPlanner.readBytes(shape, chain.get(k - 1), region, item)
              + RechunkPlanner.LOCAL_OP_BYTES
                  * RechunkPlanner.ioOps(shape, chain.get(k - 1), to, item, budget);
    }
    // the direct copy is always a candidate, so the plan moves no more than it
    long[] direct = RechunkPlanner.copyRegion(shape, source, target, item, budget);
    double directCost =
        RechunkPlanner.readBytes(shape, source, direct, item)
            + RechunkPlanner.LOCAL_OP_BYTES
                * RechunkPlanner.ioOps(shape, source, target, item, budget);
    long arrayBytes = item;
    for (long s : shape) {
      arrayBytes *= s;
    }
    assertThat(cost + (chain.size() - 1) * (double) arrayBytes)
        .isLessThanOrEqualTo(directCost + arrayBytes);
  }
}
