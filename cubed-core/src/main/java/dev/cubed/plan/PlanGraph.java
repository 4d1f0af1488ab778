package dev.cubed.plan;

import dev.cubed.nd.Shapes;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.PlanConfig;
import dev.cubed.plan.node.PlanSummary;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The plan as Graphviz DOT ({@link Plan#dot()}): one node per array of the DAG, one cluster per
 * operation (the array it stores plus the arrays fused into its tasks), stored Zarr inputs as
 * cylinders, virtual (generated) inputs as dashed ellipses, the memory-heaviest operation outlined
 * in red. Each cluster's label carries the op's kind, tasks, projected memory per task and bytes
 * written (a multi-stage rechunk lists its stages).
 */
final class PlanGraph {
  static final String HEAVIEST_COLOR = "#d62728";

  private PlanGraph() {}

  static String dot(
      List<ArrayNode> topo,
      Set<String> materialized,
      List<PlanSummary.OpInfo> infos,
      PlanConfig cfg) {
    PlanSummary summary = new PlanSummary(infos, cfg.allowedMem(), cfg.reservedMem());
    long maxMem = summary.maxProjectedMem();
    // array name -> the ops it belongs to (its own op, or the ops it is fused into)
    Map<String, List<PlanSummary.OpInfo>> opsOfArray = new HashMap<>();
    Map<String, List<PlanSummary.OpInfo>> fusedInto = new HashMap<>();
    for (PlanSummary.OpInfo o : infos) {
      opsOfArray.computeIfAbsent(arrayOf(o, topo), k -> new ArrayList<>()).add(o);
      for (String f : o.fused()) {
        List<PlanSummary.OpInfo> l = fusedInto.computeIfAbsent(f, k -> new ArrayList<>());
        if (!l.contains(o)) {
          l.add(o);
        }
      }
    }
    StringBuilder sb = new StringBuilder();
    sb.append("digraph cubed {\n  rankdir=TB;\n  compound=true;\n")
        .append("  graph [fontname=\"Helvetica\", fontsize=11, labelloc=t, label=")
        .append(
            quote(
                String.format(
                    Locale.ROOT,
                    "%d ops, %d tasks, max projected memory %s" + " (allowed %s), %s written",
                    infos.size(),
                    summary.totalTasks(),
                    PlanSummary.bytes(maxMem),
                    PlanSummary.bytes(cfg.allowedMem()),
                    PlanSummary.bytes(summary.totalBytesWritten()))))
        .append("];\n  node [fontname=\"Helvetica\", fontsize=10];\n")
        .append("  edge [color=\"#555555\"];\n");
    // clusters: one per stored array (ops of a multi-stage rechunk share their array's cluster)
    Map<String, List<ArrayNode>> members = new LinkedHashMap<>();
    for (ArrayNode n : topo) {
      if (opsOfArray.containsKey(n.name())) {
        members.computeIfAbsent(n.name(), k -> new ArrayList<>());
      }
    }
    List<ArrayNode> loose = new ArrayList<>();
    for (ArrayNode n : topo) {
      List<PlanSummary.OpInfo> into = fusedInto.get(n.name());
      if (opsOfArray.containsKey(n.name())) {
        members.get(n.name()).add(n);
      } else if (n instanceof ArrayNode.Computed && into != null && into.size() == 1) {
        members.get(arrayOf(into.get(0), topo)).add(0, n);
      } else {
        loose.add(n);
      }
    }
    for (ArrayNode n : loose) {
      sb.append("  ")
          .append(node(n, materialized, fusedInto.get(n.name()), null, false))
          .append('\n');
    }
    int k = 0;
    for (Map.Entry<String, List<ArrayNode>> e : members.entrySet()) {
      List<PlanSummary.OpInfo> ops = opsOfArray.get(e.getKey());
      boolean heaviest = ops.stream().anyMatch(o -> o.projectedMem() == maxMem && maxMem > 0);
      sb.append("  subgraph cluster_")
          .append(k++)
          .append(" {\n")
          .append("    label=")
          .append(
              quote(
                  "op "
                      + e.getKey()
                      + (ops.size() > 1 ? " (" + ops.size() + " stages)" : "")
                      + (heaviest ? "\n(largest projected memory)" : "")))
          .append("; fontcolor=")
          .append(heaviest ? quote(HEAVIEST_COLOR) : "black")
          .append(";\n")
          .append("    labeljust=l; style=\"rounded,filled\"; fillcolor=\"#f4f4f4\";")
          .append(
              heaviest ? " color=\"" + HEAVIEST_COLOR + "\"; penwidth=3;" : " color=\"#888888\";")
          .append('\n');
      for (ArrayNode n : e.getValue()) {
        // the stored array carries its op's figures
        sb.append("    ")
            .append(
                node(
                    n,
                    materialized,
                    fusedInto.get(n.name()),
                    n.name().equals(e.getKey()) ? opLines(ops) : null,
                    heaviest))
            .append('\n');
      }
      sb.append("  }\n");
    }
    for (ArrayNode n : topo) {
      for (ArrayNode in : new LinkedHashSet<>(n.inputs())) {
        sb.append("  ")
            .append(quote(in.name()))
            .append(" -> ")
            .append(quote(n.name()))
            .append(";\n");
      }
    }
    return sb.append("}\n").toString();
  }

  /** The array an op stores: its own name, or the rechunked array of a rechunk stage. */
  private static String arrayOf(PlanSummary.OpInfo o, List<ArrayNode> topo) {
    for (ArrayNode n : topo) {
      if (n.name().equals(o.name())) {
        return n.name();
      }
    }
    int plus = o.name().indexOf('+'); // a multi-output op: drawn in its first array's cluster
    if (plus > 0) {
      return o.name().substring(0, plus);
    }
    int i = o.name().lastIndexOf("-stage");
    return i > 0 ? o.name().substring(0, i) : o.name();
  }

  /** Kind, tasks, projected memory per task, bytes written and fused arrays of each op. */
  private static String opLines(List<PlanSummary.OpInfo> ops) {
    StringBuilder l = new StringBuilder();
    for (PlanSummary.OpInfo o : ops) {
      if (l.length() > 0) {
        l.append('\n');
      }
      l.append(
          String.format(
              Locale.ROOT,
              "%s%s: %d task%s, %s/task, writes %s",
              ops.size() > 1 ? o.name().substring(o.name().lastIndexOf('-') + 1) + " " : "",
              o.kind(),
              o.tasks(),
              o.tasks() == 1 ? "" : "s",
              PlanSummary.bytes(o.projectedMem()),
              PlanSummary.bytes(o.bytesWritten())));
      if (!o.fused().isEmpty()) {
        l.append("\nfused: ")
            .append(o.fused().size())
            .append(" array")
            .append(o.fused().size() == 1 ? "" : "s");
      }
    }
    return l.toString();
  }

  private static String node(
      ArrayNode n,
      Set<String> materialized,
      List<PlanSummary.OpInfo> fusedInto,
      String opLines,
      boolean heaviest) {
    String desc = n.dtype() + " " + Shapes.format(n.shape()) + "\nchunks " + n.chunkGrid();
    String what;
    String attrs;
    if (n instanceof ArrayNode.Stored) {
      what = "Zarr input";
      attrs = "shape=cylinder, style=filled, fillcolor=\"#c6dbef\"";
    } else if (n instanceof ArrayNode.Virtual) {
      what = "virtual (made in tasks)";
      attrs = "shape=ellipse, style=dashed";
    } else if (materialized.contains(n.name())) {
      boolean target =
          n instanceof ArrayNode.Computed c && c.target() != null
              || n instanceof ArrayNode.Rechunked r && r.target() != null;
      what =
          (n instanceof ArrayNode.Rechunked ? "rechunked, " : "")
              + (target ? "stored to target" : "stored");
      attrs = "shape=box, style=filled, fillcolor=\"#fdd0a2\"";
    } else {
      what =
          fusedInto == null || fusedInto.isEmpty()
              ? "computed"
              : fusedInto.size() == 1 ? "fused" : "fused into " + fusedInto.size() + " ops";
      attrs = "shape=box, style=\"dashed,rounded\"";
    }
    return quote(n.name())
        + " [label="
        + quote(n.name() + "\n" + what + "\n" + (opLines != null ? opLines + "\n" : "") + desc)
        + ", "
        + attrs
        + (heaviest && opLines != null ? ", color=" + quote(HEAVIEST_COLOR) + ", penwidth=2" : "")
        + "];";
  }

  /** A DOT string literal: quotes and backslashes escaped, newlines as centred line breaks. */
  static String quote(String s) {
    return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + '"';
  }
}
