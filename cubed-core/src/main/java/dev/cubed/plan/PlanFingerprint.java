package dev.cubed.plan;

import dev.cubed.nd.Shapes;
import dev.cubed.plan.eval.MultiOutput;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.PlanConfig;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.primitive.RechunkPlanner;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The text of {@link Plan#fingerprint()} (see there for what it holds and why). */
final class PlanFingerprint {
  private PlanFingerprint() {}

  static String of(Plan plan, List<PlanSummary.OpInfo> infos) {
    StringBuilder sb = new StringBuilder();
    for (ArrayNode o : plan.outputs) {
      sb.append("output ").append(o.name()).append(' ').append(o.digest()).append('\n');
    }
    sb.append("config readCopies=")
        .append(plan.cfg.readCopies())
        .append(" writeCopies=")
        .append(plan.cfg.writeCopies())
        .append('\n')
        .append(plan.cfg.fingerprintLine())
        .append('\n');
    for (PlanSummary.OpInfo i : infos) {
      sb.append("op ")
          .append(i.name())
          .append(' ')
          .append(i.kind())
          .append(" tasks=")
          .append(i.tasks())
          .append('\n');
    }
    Set<MultiOutput.Group> groups = new LinkedHashSet<>();
    for (ArrayNode n : plan.topo) {
      MultiOutput.Group g = plan.groupOf.get(n.name());
      if (g != null && groups.add(g)) {
        sb.append("group ").append(g.name()).append(g.fold() ? " fold" : " multi");
        g.members().forEach(m -> sb.append(' ').append(m.name()));
        sb.append('\n');
      }
    }
    for (ArrayNode n : plan.topo) {
      List<long[]> chain = plan.rechunkChains.get(n.name());
      if (chain != null) {
        sb.append("chain ").append(n.name());
        chain.forEach(c -> sb.append(' ').append(Shapes.format(c)));
        sb.append(" regions");
        for (int k = 1; k < chain.size(); k++) {
          sb.append(' ')
              .append(
                  Shapes.format(
                      RechunkPlanner.copyRegion(
                          n.shape(),
                          chain.get(k - 1),
                          chain.get(k),
                          n.dtype().itemSize(),
                          plan.cfg.rechunkBudget())));
        }
        sb.append('\n');
      }
    }
    return sb.toString();
  }

  /**
   * Notes written below the fingerprint in the compute directory and never compared: the memory
   * figures a run planned with (a resume that plans other tasks can say why).
   */
  static String notes(PlanConfig cfg) {
    return "# planned with allowedMem="
        + cfg.allowedMem()
        + " reservedMem="
        + cfg.reservedMem()
        + "\n";
  }
}
