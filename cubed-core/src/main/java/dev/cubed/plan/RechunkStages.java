package dev.cubed.plan;

import dev.cubed.nd.Shapes;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.ByteCounts;
import dev.cubed.plan.node.PlanConfig;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.primitive.CopyOp;
import dev.cubed.primitive.RechunkPlanner;
import java.util.ArrayList;
import java.util.List;

/**
 * The stages of one rechunk in a plan: the chain of chunk shapes from the input's to the output's
 * through the {@link RechunkPlanner}'s intermediates, and per stage (a copy op) its tasks,
 * projected memory and bytes read and written, for the plan's summary.
 *
 * @param chain the chunk shapes, the input's first and the output's last
 * @param infos one op per stage ({@code name-stageK} when there are intermediates)
 */
record RechunkStages(List<long[]> chain, List<PlanSummary.OpInfo> infos) {
  /**
   * The stages of {@code r} under {@code cfg}'s rechunk budget.
   *
   * @param output true if r is an output of the plan (its last stage is then kept)
   */
  static RechunkStages of(ArrayNode.Rechunked r, PlanConfig cfg, boolean output) {
    List<PlanSummary.OpInfo> infos = new ArrayList<>();
    ArrayNode in = r.inputs().get(0);
    RechunkPlanner.Plan p =
        RechunkPlanner.plan(
            r.shape(),
            in.chunks(),
            r.chunks(),
            r.dtype().itemSize(),
            cfg.rechunkBudget(),
            cfg.rechunkOpBytes());
    List<long[]> chain = new ArrayList<>();
    chain.add(in.chunks());
    chain.addAll(p.intermediates());
    chain.add(r.chunks());
    int item = r.dtype().itemSize();
    for (int k = 1; k < chain.size(); k++) {
      long[] region =
          RechunkPlanner.copyRegion(
              r.shape(), chain.get(k - 1), chain.get(k), item, cfg.rechunkBudget());
      boolean last = k == chain.size() - 1;
      // intermediates and a rechunk's own output have the default codec, which streams
      boolean streamed =
          CopyOp.streams(
              chain.get(k - 1),
              chain.get(k),
              region,
              !last || r.target() == null || r.target().streamsWrites());
      long mem =
          CopyOp.projectedMem(
              cfg.reservedMem(),
              bytes(chain.get(k - 1), r.shape(), item),
              bytes(region, r.shape(), item),
              bytes(chain.get(k), r.shape(), item),
              cfg.readCopies(),
              cfg.writeCopies(),
              streamed);
      long tasks = 1;
      for (int i = 0; i < region.length; i++) {
        tasks *= (r.shape()[i] + region[i] - 1) / region[i];
      }
      long read =
          k == 1 && in instanceof ArrayNode.Virtual
              ? 0
              : ByteCounts.regionReadBytes(r.shape(), chain.get(k - 1), region, item);
      infos.add(
          new PlanSummary.OpInfo(
              r.name() + (chain.size() > 2 ? "-stage" + k : ""),
              "rechunk",
              List.of(),
              tasks,
              mem,
              Shapes.size(r.shape()) * item,
              !last || (r.target() == null && !output),
              read));
    }
    return new RechunkStages(List.copyOf(chain), List.copyOf(infos));
  }

  private static long bytes(long[] chunks, long[] shape, int item) {
    long b = item;
    for (int i = 0; i < chunks.length; i++) {
      b *= Math.min(chunks[i], shape[i]);
    }
    return b;
  }
}
