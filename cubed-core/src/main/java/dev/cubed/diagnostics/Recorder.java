package dev.cubed.diagnostics;

import dev.cubed.plan.Plan;
import dev.cubed.plan.PlanCallback;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.runtime.Events;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Records the events of one or more computes (one at a time) for the history and the plots. The
 * same instance may be passed to several computes in a row: its records accumulate and {@link
 * #computeEnded} is called after each, with everything recorded so far. Thread-safe.
 */
abstract class Recorder implements PlanCallback {
  /** One compute: id, start and end, plan summary (null if run without a plan). */
  static final class ComputeRecord {
    final int seq;
    final String id;
    final long start;
    long end = -1;
    final PlanSummary plan;
    Throwable error;
    final Map<String, Events.OpStart> opStarts = new LinkedHashMap<>();
    final Map<String, Events.OpEnd> opEnds = new LinkedHashMap<>();

    ComputeRecord(int seq, String id, long start, PlanSummary plan) {
      this.seq = seq;
      this.id = id;
      this.start = start;
      this.plan = plan;
    }
  }

  private final List<ComputeRecord> computes = new ArrayList<>();
  private final List<RecordedTask> tasks = new ArrayList<>();
  private PlanSummary pendingPlan;
  private ComputeRecord current;

  @Override
  public synchronized void onPlan(Plan plan) {
    pendingPlan = plan.summary();
  }

  @Override
  public synchronized void onComputeStart(Events.ComputeStart e) {
    current = new ComputeRecord(computes.size() + 1, e.computeId(), e.startMillis(), pendingPlan);
    pendingPlan = null;
    computes.add(current);
  }

  @Override
  public synchronized void onOpStart(Events.OpStart e) {
    if (current != null) {
      current.opStarts.put(e.opName(), e);
    }
  }

  @Override
  public synchronized void onOpEnd(Events.OpEnd e) {
    if (current != null) {
      current.opEnds.put(e.opName(), e);
    }
  }

  @Override
  public synchronized void onTaskEnd(Events.TaskEnd e) {
    tasks.add(
        current == null
            ? new RecordedTask(0, "", e)
            : new RecordedTask(current.seq, current.id, e));
  }

  @Override
  public void onComputeEnd(Events.ComputeEnd e) {
    List<ComputeRecord> cs;
    List<RecordedTask> ts;
    synchronized (this) {
      if (current != null) {
        current.end = e.endMillis();
        current.error = e.error();
      }
      current = null;
      cs = List.copyOf(computes);
      ts = List.copyOf(tasks);
    }
    computeEnded(cs, ts);
  }

  /** Called after each compute with every compute and task recorded so far. */
  abstract void computeEnded(List<ComputeRecord> computes, List<RecordedTask> tasks);

  /** The projected memory per task of an op: from the plan, else from its op-start event. */
  static long projected(ComputeRecord c, String op, List<RecordedTask> tasks) {
    if (c.plan != null) {
      for (PlanSummary.OpInfo o : c.plan.ops()) {
        if (o.name().equals(op)) {
          return o.projectedMem();
        }
      }
    }
    Events.OpStart s = c.opStarts.get(op);
    if (s != null) {
      return s.projectedMem();
    }
    return tasks.stream()
        .filter(t -> t.compute() == c.seq && t.op().equals(op))
        .mapToLong(t -> t.event().projectedMem())
        .max()
        .orElse(0);
  }

  /** The kind of an op ("blockwise", "rechunk") from the plan, or "" without one. */
  static String kind(ComputeRecord c, String op) {
    if (c.plan != null) {
      for (PlanSummary.OpInfo o : c.plan.ops()) {
        if (o.name().equals(op)) {
          return o.kind();
        }
      }
    }
    return "";
  }

  /** The op names of a compute in run order (op-start order, then any seen only in tasks). */
  static List<String> opNames(ComputeRecord c, List<RecordedTask> tasks) {
    List<String> names = new ArrayList<>(c.opStarts.keySet());
    for (RecordedTask t : tasks) {
      if (t.compute() == c.seq && !names.contains(t.op())) {
        names.add(t.op());
      }
    }
    return names;
  }
}
