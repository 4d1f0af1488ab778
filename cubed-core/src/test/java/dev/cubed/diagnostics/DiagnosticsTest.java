package dev.cubed.diagnostics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.ComputeOptions;
import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.TestAccess;
import dev.cubed.Xp;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.Plan;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.runtime.Events;
import dev.cubed.runtime.ThreadsExecutor;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

class DiagnosticsTest {
  @TempDir Path dir;

  /**
   * (x * y + 1) summed over axis 0, and x rechunked plus 1: fused ops, a tree reduction, a rechunk.
   */
  private List<CubedArray> workload(Spec spec) {
    NDArray a = NDArray.zeros(DType.FLOAT64, 40, 30);
    NDArray b = NDArray.zeros(DType.FLOAT64, 40, 30);
    for (int i = 0; i < 1200; i++) {
      a.setDouble(i, i % 7);
      b.setDouble(i, i % 5 - 2);
    }
    CubedArray x = Cubed.fromArray(a, new long[] {5, 10}, spec);
    CubedArray y = Cubed.fromArray(b, new long[] {5, 10}, spec);
    CubedArray s = Xp.sum(Xp.add(Xp.multiply(x, y), x), 0);
    // a rechunk another op reads keeps its stored stages (an output rechunk would be planned as
    // its input, with no rechunk op to draw)
    CubedArray r = Xp.add(x.rechunk(40, 3), 1.0);
    return List.of(s, r);
  }

  private Spec spec() {
    return Spec.builder()
        .workDir(dir.resolve("work"))
        .allowedMem(2_000_000)
        .reservedMem(1000)
        .build();
  }

  @Test
  void historyPlotsProgressAndPictureOfOneCompute() throws Exception {
    List<CubedArray> w = workload(spec());
    Plan plan = Cubed.plan(w);
    PlanSummary summary = plan.summary();
    ByteArrayOutputStream bars = new ByteArrayOutputStream();
    HistoryCallback history = Diagnostics.history(dir.resolve("h"));
    List<String> reports = new ArrayList<>();
    VisualizeCallback vis = new VisualizeCallback(dir.resolve("pic/plan.svg"), reports::add);
    ComputeOptions opts =
        ComputeOptions.executor(new ThreadsExecutor(2, 1))
            .withCallback(
                new ProgressCallback(new PrintStream(bars, true, StandardCharsets.UTF_8), false))
            .withCallback(history)
            .withCallback(Diagnostics.plots(dir.resolve("p")))
            .withCallback(vis);
    List<NDArray> got = Cubed.compute(opts, w.toArray(new CubedArray[0]));
    assertThat(got).hasSize(2);

    // tasks.csv: one row per task of the plan, every column, parsing back
    List<Map<String, String>> tasks =
        readCsv(dir.resolve("h/tasks.csv"), HistoryCallback.TASK_COLUMNS);
    assertThat((long) tasks.size()).isEqualTo(summary.totalTasks());
    Map<String, Long> perOp = new HashMap<>();
    for (Map<String, String> t : tasks) {
      perOp.merge(t.get("op"), 1L, Long::sum);
      assertThat(t.get("compute")).isEqualTo("1");
      long start = Long.parseLong(t.get("start_ms"));
      long end = Long.parseLong(t.get("end_ms"));
      assertThat(Long.parseLong(t.get("duration_ms"))).isEqualTo(end - start);
      assertThat(Integer.parseInt(t.get("attempts"))).isEqualTo(1);
      assertThat(t.get("worker")).startsWith("cubed-task-");
      assertThat(t.get("key")).matches("\\d+(\\.\\d+)*");
      // threads executor: no per-task peak, so empty cells (never -1); allocation counter known
      assertThat(t.get("measured_peak_mem")).isEmpty();
      assertThat(t.get("peak_rss")).isEmpty();
      assertThat(Long.parseLong(t.get("allocated_bytes"))).isPositive();
    }
    for (PlanSummary.OpInfo o : summary.ops()) {
      assertThat(perOp.get(o.name())).as(o.name()).isEqualTo(o.tasks());
    }
    // ops.csv: one row per op, with its projection and no measured ratio on threads
    List<Map<String, String>> ops = readCsv(dir.resolve("h/ops.csv"), HistoryCallback.OP_COLUMNS);
    assertThat(ops)
        .extracting(o -> o.get("op"))
        .containsExactlyInAnyOrderElementsOf(
            summary.ops().stream().map(PlanSummary.OpInfo::name).toList());
    for (Map<String, String> o : ops) {
      PlanSummary.OpInfo info =
          summary.ops().stream()
              .filter(i -> i.name().equals(o.get("op")))
              .findFirst()
              .orElseThrow();
      assertThat(Long.parseLong(o.get("tasks"))).isEqualTo(info.tasks());
      assertThat(Long.parseLong(o.get("projected_mem"))).isEqualTo(info.projectedMem());
      assertThat(o.get("kind")).isEqualTo(info.kind());
      assertThat(Double.parseDouble(o.get("wall_seconds"))).isGreaterThanOrEqualTo(0);
      assertThat(o.get("max_measured_peak_mem")).isEmpty();
      assertThat(o.get("measured_over_projected")).isEmpty();
      assertThat(o.get("tasks_over_projection")).isEmpty();
      assertThat(o.get("retries")).isEqualTo("0");
    }
    String planText = Files.readString(dir.resolve("h/plan.txt"));
    assertThat(planText)
        .contains("compute 1: ")
        .contains("succeeded")
        .contains(summary.ops().get(0).name())
        .contains("threads executor");

    // the charts: well-formed SVG naming every op
    for (String f : List.of("timeline.svg", "memory.svg")) {
      String svg = parseSvg(dir.resolve("p").resolve(f));
      for (PlanSummary.OpInfo o : summary.ops()) {
        assertThat(svg).as(f + " names " + o.name()).contains(o.name());
      }
    }
    assertThat(Files.readString(dir.resolve("p/memory.svg"))).contains("NOT a peak");

    // progress: a line per op ending at its task count
    String out = bars.toString(StandardCharsets.UTF_8);
    for (PlanSummary.OpInfo o : summary.ops()) {
      assertThat(out)
          .as("progress of " + o.name())
          .contains(o.name())
          .contains(o.tasks() + "/" + o.tasks());
    }

    // the picture: an SVG when dot is installed, the DOT source always
    assertThat(Files.readString(dir.resolve("pic/plan.dot"))).startsWith("digraph cubed");
    if (vis.last().svg()) {
      String svg = parseSvg(dir.resolve("pic/plan.svg"));
      summary.ops().forEach(o -> assertThat(svg).contains(o.name()));
    }
    assertThat(reports).hasSize(1);
  }

  @Test
  void dotHasOneNodePerArrayAndClustersForFusedOps() {
    List<CubedArray> w = workload(spec());
    Plan plan = Cubed.plan(w);
    String dot = plan.dot();
    List<ArrayNode> nodes = new ArrayList<>();
    collect(w.stream().map(TestAccess::node).toList(), nodes);
    Matcher m = Pattern.compile("(?m)^\\s*\"([^\"]+)\" \\[label=").matcher(dot);
    List<String> declared = new ArrayList<>();
    while (m.find()) {
      declared.add(m.group(1));
    }
    assertThat(declared)
        .containsExactlyInAnyOrderElementsOf(nodes.stream().map(ArrayNode::name).toList());
    // a cluster per op, fused arrays listed in (and declared inside) their op's cluster
    PlanSummary s = plan.summary();
    PlanSummary.OpInfo fusedOp =
        s.ops().stream().filter(o -> !o.fused().isEmpty()).findFirst().orElseThrow();
    int cluster = dot.indexOf("label=\"op " + fusedOp.name());
    assertThat(cluster).isPositive();
    String body =
        dot.substring(
            dot.lastIndexOf("subgraph cluster_", cluster), dot.indexOf("\n  }\n", cluster));
    for (String f : fusedOp.fused()) {
      assertThat(body).contains("\"" + f + "\" [label=\"" + f + "\\nfused");
    }
    assertThat(body)
        .contains("fused: " + fusedOp.fused().size() + " array")
        .contains(fusedOp.tasks() + " task");
    assertThat(dot).contains("shape=ellipse, style=dashed").doesNotContain("cylinder");
    assertThat(dot).contains("(largest projected memory)").contains(PlanGraphColor.RED);
    assertThat(count(dot, "subgraph cluster_"))
        .isEqualTo(
            (int)
                s.ops().stream()
                    .map(o -> o.name().replaceAll("-stage\\d+$", ""))
                    .distinct()
                    .count());
  }

  @Test
  void anArrayRecomputedInSeveralOpsStandsOutsideTheClusters() {
    Spec spec = spec();
    CubedArray x = Cubed.random(new long[] {20, 20}, new long[] {5, 5}, 7, spec);
    CubedArray sq = Xp.multiply(x, x); // cheap chain with two consumers: recomputed in each
    // (two reductions of sq would share one multi-output op; an elementwise output does not)
    Plan plan = Cubed.plan(List.of(Xp.sum(sq, 0), Xp.add(sq, x)));
    String dot = plan.dot();
    String name = TestAccess.node(sq).name();
    int decl = dot.indexOf("\"" + name + "\" [label=");
    assertThat(decl).isPositive();
    assertThat(dot.substring(decl, dot.indexOf('\n', decl))).contains("fused into 2 ops");
    assertThat(dot.substring(0, decl))
        .as("declared before any cluster")
        .doesNotContain("subgraph cluster_");
  }

  @Test
  void withoutDotThePictureFallsBackToDotText() throws Exception {
    String saved = PlanPicture.dotCommand;
    PlanPicture.dotCommand = dir.resolve("no-such-dir/dot").toString();
    try {
      Plan plan = Cubed.plan(workload(spec()));
      PlanPicture.Result r = Diagnostics.visualize(plan, dir.resolve("plan.svg"));
      assertThat(r.svg()).isFalse();
      assertThat(r.file()).isEqualTo(dir.resolve("plan.dot"));
      assertThat(r.note())
          .contains("not installed")
          .contains("apt-get install graphviz")
          .contains(dir.resolve("plan.dot").toString());
      assertThat(Files.exists(dir.resolve("plan.svg"))).isFalse();
      assertThat(Files.readString(dir.resolve("plan.dot"))).isEqualTo(plan.dot());
    } finally {
      PlanPicture.dotCommand = saved;
    }
  }

  @Test
  void severalComputesAccumulateWithTheirNumbers() throws Exception {
    HistoryCallback h = new HistoryCallback(dir.resolve("h"));
    ComputeOptions opts = ComputeOptions.executor(new ThreadsExecutor(2, 1)).withCallback(h);
    CubedArray s = workload(spec()).get(0);
    s.compute(opts);
    s.compute(opts);
    List<Map<String, String>> tasks =
        readCsv(dir.resolve("h/tasks.csv"), HistoryCallback.TASK_COLUMNS);
    long n = s.plan().totalTasks();
    assertThat(tasks).hasSize((int) (2 * n));
    assertThat(tasks.stream().filter(t -> t.get("compute").equals("2")).count()).isEqualTo(n);
    assertThat(Files.readString(dir.resolve("h/plan.txt"))).contains("compute 2: ");
  }

  @Test
  void measuredValuesFillTheirColumnsAndTheChart() throws Exception {
    // an executor that measures (as a worker process does): events built by hand
    HistoryCallback h = new HistoryCallback(dir.resolve("h"));
    PlotsCallback p = new PlotsCallback(dir.resolve("p"));
    for (Recorder r : List.of(h, p)) {
      r.onComputeStart(new Events.ComputeStart("c1", 1, 3, 1000));
      r.onOpStart(new Events.OpStart("op-a", 3, 500, 1000));
      r.onTaskEnd(
          new Events.TaskEnd(
              "op-a", new long[] {0}, 1000, 1400, 1, 10_000, 500, false, "worker-1", 300, 90_000));
      r.onTaskEnd(
          new Events.TaskEnd(
              "op-a", new long[] {1}, 1000, 1600, 2, 20_000, 500, false, "worker-2", 450, 95_000));
      r.onTaskEnd(
          new Events.TaskEnd(
              "op-a", new long[] {2}, 1100, 1500, 1, 20_000, 500, false, "worker-1", 520, 99_000));
      r.onOpEnd(new Events.OpEnd("op-a", 3, 1000, 1600));
      r.onComputeEnd(new Events.ComputeEnd("c1", 1000, 1700, null));
    }
    Map<String, String> op = readCsv(dir.resolve("h/ops.csv"), HistoryCallback.OP_COLUMNS).get(0);
    assertThat(op.get("max_measured_peak_mem")).isEqualTo("520");
    assertThat(op.get("measured_over_projected")).isEqualTo("1.040");
    assertThat(op.get("tasks_over_projection")).isEqualTo("1");
    assertThat(op.get("max_peak_rss")).isEqualTo("99000");
    assertThat(op.get("retries")).isEqualTo("1");
    assertThat(op.get("wall_seconds")).isEqualTo("0.600");
    String mem = parseSvg(dir.resolve("p/memory.svg"));
    assertThat(mem).contains("measured peak heap").doesNotContain("NOT a peak");
    assertThat(parseSvg(dir.resolve("p/timeline.svg"))).contains("worker-2");
  }

  private static int count(String s, String sub) {
    int n = 0;
    for (int i = s.indexOf(sub); i >= 0; i = s.indexOf(sub, i + 1)) {
      n++;
    }
    return n;
  }

  private static void collect(List<ArrayNode> ns, List<ArrayNode> acc) {
    for (ArrayNode n : ns) {
      if (acc.stream().noneMatch(a -> a.name().equals(n.name()))) {
        acc.add(n);
        collect(n.inputs(), acc);
      }
    }
  }

  /** Parses the SVG as XML (throws if malformed) and returns its text. */
  static String parseSvg(Path f) throws Exception {
    DocumentBuilderFactory dbf = DocumentBuilderFactory.newInstance();
    dbf.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
    Document d = dbf.newDocumentBuilder().parse(f.toFile());
    assertThat(d.getDocumentElement().getNodeName()).isEqualTo("svg");
    return Files.readString(f).replace("&#45;", "-"); // Graphviz escapes hyphens
  }

  /** Reads a CSV written by the history (quoted cells allowed) into maps by column. */
  static List<Map<String, String>> readCsv(Path f, List<String> columns) throws Exception {
    List<String> lines = Files.readAllLines(f);
    assertThat(Arrays.asList(lines.get(0).split(",", -1))).isEqualTo(columns);
    List<Map<String, String>> rows = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      List<String> cells = new ArrayList<>();
      StringBuilder c = new StringBuilder();
      boolean q = false;
      for (int i = 0; i < line.length(); i++) {
        char ch = line.charAt(i);
        if (q && ch == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
          c.append('"');
          i++;
        } else if (ch == '"') {
          q = !q;
        } else if (ch == ',' && !q) {
          cells.add(c.toString());
          c.setLength(0);
        } else {
          c.append(ch);
        }
      }
      cells.add(c.toString());
      assertThat(cells).as(line).hasSize(columns.size());
      Map<String, String> row = new HashMap<>();
      for (int i = 0; i < columns.size(); i++) {
        row.put(columns.get(i), cells.get(i));
      }
      rows.add(row);
    }
    return rows;
  }

  /** The highlight colour of the heaviest op, as the DOT writes it. */
  static final class PlanGraphColor {
    static final String RED = "color=\"#d62728\"";
  }
}
