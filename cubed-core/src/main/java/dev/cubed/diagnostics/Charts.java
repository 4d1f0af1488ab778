package dev.cubed.diagnostics;

import dev.cubed.runtime.Events;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.geom.Rectangle2D;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.SymbolAxis;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.Plot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.xy.StandardXYBarPainter;
import org.jfree.chart.renderer.xy.XYBarRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYIntervalSeries;
import org.jfree.data.xy.XYIntervalSeriesCollection;
import org.jfree.svg.SVGGraphics2D;

/** The timeline and memory charts (JFreeChart, drawn to SVG with JFreeSVG, headless). */
final class Charts {
  private Charts() {}

  static {
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
  }

  /** Distinct colours for up to 10 ops (then repeated), readable on white. */
  private static final Color[] PALETTE = {
    new Color(0x1f77b4),
    new Color(0xff7f0e),
    new Color(0x2ca02c),
    new Color(0xd62728),
    new Color(0x9467bd),
    new Color(0x8c564b),
    new Color(0xe377c2),
    new Color(0x7f7f7f),
    new Color(0xbcbd22),
    new Color(0x17becf)
  };

  private static final double MB = 1e6;

  /**
   * Tasks as horizontal bars over time (seconds since the first compute started), one colour per
   * op, one row per worker (or, when the executor names no workers, per task slot: tasks packed
   * greedily into rows that do not overlap in time).
   */
  static JFreeChart timeline(List<Recorder.ComputeRecord> computes, List<RecordedTask> tasks) {
    long t0 =
        computes.stream()
            .mapToLong(c -> c.start)
            .min()
            .orElse(tasks.stream().mapToLong(t -> t.event().startMillis()).min().orElse(0));
    boolean named = !tasks.isEmpty() && tasks.stream().allMatch(t -> t.event().worker() != null);
    List<RecordedTask> sorted = new ArrayList<>(tasks);
    sorted.sort(Comparator.comparingLong(t -> t.event().startMillis()));
    Map<RecordedTask, Integer> lane = new LinkedHashMap<>();
    List<String> laneNames = new ArrayList<>();
    if (named) {
      List<String> workers =
          new ArrayList<>(sorted.stream().map(t -> t.event().worker()).distinct().toList());
      workers.sort(Charts::naturalCompare);
      laneNames.addAll(workers);
      for (RecordedTask t : sorted) {
        lane.put(t, workers.indexOf(t.event().worker()));
      }
    } else {
      List<Long> laneEnd = new ArrayList<>();
      for (RecordedTask t : sorted) {
        int l = 0;
        while (l < laneEnd.size() && laneEnd.get(l) > t.event().startMillis()) {
          l++;
        }
        if (l == laneEnd.size()) {
          laneEnd.add(0L);
          laneNames.add("slot " + l);
        }
        laneEnd.set(l, t.event().endMillis());
        lane.put(t, l);
      }
    }
    long tEnd =
        Math.max(
            t0 + 1, sorted.stream().mapToLong(t -> t.event().endMillis()).max().orElse(t0 + 1));
    double minWidth = (tEnd - t0) / 1e3 / 400; // visible even for a 1 ms task
    boolean several = computes.size() > 1;
    Map<String, XYIntervalSeries> series = new LinkedHashMap<>();
    for (Recorder.ComputeRecord c : computes) {
      for (String op : Recorder.opNames(c, tasks)) {
        String name = several ? c.seq + ": " + op : op;
        series.putIfAbsent(name, new XYIntervalSeries(name));
      }
    }
    for (RecordedTask t : sorted) {
      String name = several ? t.compute() + ": " + t.op() : t.op();
      XYIntervalSeries s = series.computeIfAbsent(name, XYIntervalSeries::new);
      double x0 = (t.event().startMillis() - t0) / 1e3;
      double x1 = Math.max((t.event().endMillis() - t0) / 1e3, x0 + minWidth);
      int y = lane.get(t);
      s.add(x0, x0, x1, y, y - 0.38, y + 0.38);
    }
    XYIntervalSeriesCollection data = new XYIntervalSeriesCollection();
    series.values().forEach(data::addSeries);
    SymbolAxis yAxis =
        new SymbolAxis(
            named ? "worker" : "task slot (no worker names)", laneNames.toArray(new String[0]));
    yAxis.setGridBandsVisible(false);
    NumberAxis xAxis = new NumberAxis("seconds since the compute started");
    XYBarRenderer r = new XYBarRenderer();
    r.setUseYInterval(true);
    r.setBarPainter(new StandardXYBarPainter());
    r.setShadowVisible(false);
    r.setDrawBarOutline(true);
    r.setDefaultOutlinePaint(Color.WHITE);
    r.setDefaultOutlineStroke(new BasicStroke(0.5f));
    for (int i = 0; i < data.getSeriesCount(); i++) {
      r.setSeriesPaint(i, PALETTE[i % PALETTE.length]);
    }
    XYPlot plot = new XYPlot(data, xAxis, yAxis, r);
    plot.setOrientation(PlotOrientation.VERTICAL);
    style(plot);
    JFreeChart chart =
        new JFreeChart(
            String.format(
                Locale.ROOT,
                "Timeline: %d tasks of %d ops on %d %s",
                tasks.size(),
                series.size(),
                laneNames.size(),
                named ? "workers" : "task slots"),
            new Font("SansSerif", Font.BOLD, 15),
            plot,
            true);
    chart.setBackgroundPaint(Color.WHITE);
    chart.addSubtitle(new TextTitle("bars: one per task, from its start to its end; colour: op"));
    return chart;
  }

  /**
   * Per op: projected memory per task, the largest measured peak of its tasks and, where no peak is
   * measured (threads executor), the largest bytes allocated by a task's thread, labelled as such.
   */
  static JFreeChart memory(List<Recorder.ComputeRecord> computes, List<RecordedTask> tasks) {
    DefaultCategoryDataset data = new DefaultCategoryDataset();
    boolean several = computes.size() > 1;
    boolean anyMeasured = tasks.stream().anyMatch(t -> t.event().measuredPeakMem() >= 0);
    String projected = "projected per task (plan)";
    String measured = "measured peak heap (max over tasks)";
    String allocated =
        "allocated by the task's thread (max over tasks; threads executor:" + " NOT a peak)";
    String rss = "peak RSS of the worker process (max over tasks)";
    boolean anyRss = tasks.stream().anyMatch(t -> t.event().peakRss() >= 0);
    for (Recorder.ComputeRecord c : computes) {
      for (String op : Recorder.opNames(c, tasks)) {
        String cat = several ? c.seq + ": " + op : op;
        List<Events.TaskEnd> ts =
            tasks.stream()
                .filter(t -> t.compute() == c.seq && t.op().equals(op))
                .map(RecordedTask::event)
                .toList();
        data.addValue(Recorder.projected(c, op, tasks) / MB, projected, cat);
        if (anyMeasured) {
          long m = ts.stream().mapToLong(Events.TaskEnd::measuredPeakMem).max().orElse(-1);
          data.addValue(m < 0 ? null : m / MB, measured, cat);
        } else {
          long a = ts.stream().mapToLong(Events.TaskEnd::allocatedBytes).max().orElse(-1);
          data.addValue(a < 0 ? null : a / MB, allocated, cat);
        }
        if (anyRss) {
          long m = ts.stream().mapToLong(Events.TaskEnd::peakRss).max().orElse(-1);
          data.addValue(m < 0 ? null : m / MB, rss, cat);
        }
      }
    }
    JFreeChart chart =
        ChartFactory.createBarChart(
            anyMeasured
                ? "Memory per task: projected vs measured, by op"
                : "Memory per task: projected vs allocated (no measured peak), by op",
            "op",
            "MB",
            data,
            PlotOrientation.HORIZONTAL,
            true,
            false,
            false);
    chart.setBackgroundPaint(Color.WHITE);
    chart.getTitle().setFont(new Font("SansSerif", Font.BOLD, 15));
    if (!anyMeasured) {
      chart.addSubtitle(
          new TextTitle(
              "this executor cannot measure a task's peak (one heap for"
                  + " all tasks); allocated bytes include garbage and can exceed the peak"));
    }
    CategoryPlot plot = chart.getCategoryPlot();
    style(plot);
    CategoryAxis cats = plot.getDomainAxis();
    cats.setMaximumCategoryLabelWidthRatio(0.4f);
    cats.setTickLabelFont(new Font("SansSerif", Font.PLAIN, 11));
    BarRenderer r = (BarRenderer) plot.getRenderer();
    r.setBarPainter(new StandardBarPainter());
    r.setShadowVisible(false);
    r.setItemMargin(0.05);
    r.setSeriesPaint(0, new Color(0x1f77b4));
    r.setSeriesPaint(1, anyMeasured ? new Color(0xd62728) : new Color(0xbbbbbb));
    r.setSeriesPaint(2, new Color(0xff7f0e));
    r.setDefaultItemLabelGenerator(
        new StandardCategoryItemLabelGenerator("{2}", new DecimalFormat("0.0")));
    r.setDefaultItemLabelsVisible(true);
    r.setDefaultItemLabelFont(new Font("SansSerif", Font.PLAIN, 10));
    NumberAxis v = (NumberAxis) plot.getRangeAxis();
    v.setUpperMargin(0.15);
    return chart;
  }

  private static void style(Plot plot) {
    if (plot == null) {
      return;
    }
    plot.setBackgroundPaint(Color.WHITE);
    if (plot instanceof XYPlot xy) {
      xy.setDomainGridlinePaint(new Color(0xdddddd));
      xy.setRangeGridlinesVisible(false);
    } else if (plot instanceof CategoryPlot cp) {
      cp.setRangeGridlinePaint(new Color(0xdddddd));
    }
  }

  /** Height of a chart with {@code rows} rows of bars, pixels. */
  static int height(int rows, int perRow) {
    return Math.max(320, Math.min(4000, 170 + rows * perRow));
  }

  static void writeSvg(JFreeChart chart, int width, int height, Path file) throws IOException {
    SVGGraphics2D g = new SVGGraphics2D(width, height);
    chart.draw(g, new Rectangle2D.Double(0, 0, width, height));
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.writeString(file, g.getSVGDocument());
  }

  /** Orders "cubed-task-2" before "cubed-task-10". */
  static int naturalCompare(String a, String b) {
    String pa = a.replaceAll("\\d+$", "");
    String pb = b.replaceAll("\\d+$", "");
    if (pa.equals(pb) && a.length() > pa.length() && b.length() > pb.length()) {
      return Long.compare(
          Long.parseLong(a.substring(pa.length())), Long.parseLong(b.substring(pb.length())));
    }
    return a.compareTo(b);
  }
}
