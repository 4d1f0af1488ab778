package dev.cubed.beam;

import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
import dev.cubed.runtime.Operation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.logging.Logger;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricQueryResults;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.MetricResults;
import org.apache.beam.sdk.metrics.MetricsFilter;
import org.apache.beam.sdk.metrics.StringSetResult;

/**
 * Turns the task records a run's stages publish as Beam string-set metrics into {@link Callback}
 * events on the launching thread: an operation's {@link Events.OpStart} before its first {@link
 * Events.TaskEnd}, one TaskEnd per task (the first record of a key; a duplicate from a retried
 * bundle is ignored), and {@link Events.OpEnd} once every task has reported. Metrics are the
 * runner-independent channel: every runner aggregates them back to the {@link
 * org.apache.beam.sdk.PipelineResult}, while the job runs (attempted values) and after.
 */
final class EventRelay {
  private static final Logger LOG = Logger.getLogger(EventRelay.class.getName());
  private final List<Operation> ops;
  private final List<Callback> callbacks;
  private final MetricsFilter filter;
  private final OpState[] state;

  /** What has been reported of one operation. */
  private static final class OpState {
    final Set<String> seen = new HashSet<>();
    boolean started;
    boolean ended;
    long startMillis = Long.MAX_VALUE;
    long endMillis;
  }

  EventRelay(String runId, List<Operation> ops, List<Callback> callbacks) {
    this.ops = ops;
    this.callbacks = callbacks;
    this.filter =
        MetricsFilter.builder()
            .addNameFilter(MetricNameFilter.inNamespace(TaskDoFn.namespace(runId)))
            .build();
    this.state = new OpState[ops.size()];
    for (int i = 0; i < state.length; i++) {
      state[i] = new OpState();
    }
  }

  /** Reads the records published so far and reports what is new, operation by operation. */
  void poll(MetricResults metrics) {
    MetricQueryResults q = metrics.queryMetrics(filter);
    @SuppressWarnings("unchecked")
    List<TaskReport>[] byOp = new List[ops.size()];
    for (MetricResult<StringSetResult> r : q.getStringSets()) {
      for (String line : r.getAttempted().getStringSet()) {
        TaskReport t = TaskReport.decode(line);
        if (t.op() < 0 || t.op() >= ops.size()) {
          throw new IllegalStateException(
              "beam executor: task record '"
                  + line
                  + "' names"
                  + " operation "
                  + t.op()
                  + " but the compute has "
                  + ops.size());
        }
        if (byOp[t.op()] == null) {
          byOp[t.op()] = new ArrayList<>();
        }
        byOp[t.op()].add(t);
      }
    }
    for (int i = 0; i < ops.size(); i++) {
      if (byOp[i] != null) {
        report(i, byOp[i]);
      }
    }
  }

  private void report(int i, List<TaskReport> records) {
    Operation op = ops.get(i);
    OpState s = state[i];
    for (TaskReport t : records) {
      if (!s.seen.add(t.keyText())) {
        continue;
      }
      if (!s.started) {
        start(i, t.startMillis());
      }
      s.startMillis = Math.min(s.startMillis, t.startMillis());
      s.endMillis = Math.max(s.endMillis, t.endMillis());
      for (Callback c : callbacks) {
        c.onTaskEnd(
            new Events.TaskEnd(
                op.name(),
                t.key(),
                t.startMillis(),
                t.endMillis(),
                t.attempts(),
                t.allocatedBytes(),
                op.projectedMem(),
                false,
                t.worker(),
                -1,
                t.peakRss()));
      }
    }
    if (!s.ended && s.seen.size() >= op.keys().size()) {
      end(i);
    }
  }

  private void start(int i, long startMillis) {
    Operation op = ops.get(i);
    state[i].started = true;
    for (Callback c : callbacks) {
      c.onOpStart(new Events.OpStart(op.name(), op.keys().size(), op.projectedMem(), startMillis));
    }
  }

  private void end(int i) {
    Operation op = ops.get(i);
    OpState s = state[i];
    s.ended = true;
    long now = System.currentTimeMillis();
    long start = s.startMillis == Long.MAX_VALUE ? now : s.startMillis;
    for (Callback c : callbacks) {
      c.onOpEnd(
          new Events.OpEnd(
              op.name(), op.keys().size(), start, s.endMillis == 0 ? now : s.endMillis));
    }
  }

  /**
   * After a successful run: reports the start and end of every operation not ended yet (those
   * without tasks), in plan order.
   *
   * <p>An operation with fewer task records than tasks (a runner that drops metric values) is
   * logged as a warning and ended anyway: the pipeline's success already says every task ran.
   */
  void finishSuccessful() {
    for (int i = 0; i < ops.size(); i++) {
      OpState s = state[i];
      if (s.ended) {
        continue;
      }
      Operation op = ops.get(i);
      if (s.seen.size() < op.keys().size()) {
        LOG.warning(
            "beam executor: the pipeline succeeded but only "
                + s.seen.size()
                + " of the "
                + op.keys().size()
                + " tasks of operation "
                + op.name()
                + " reported back through"
                + " Beam metrics (the runner may not support string-set metrics, or dropped values);"
                + " progress and history miss the others");
      }
      if (!s.started) {
        start(i, System.currentTimeMillis());
      }
      end(i);
    }
  }

  /** Tasks reported so far, over all operations. */
  long reportedTasks() {
    long n = 0;
    for (OpState s : state) {
      n += s.seen.size();
    }
    return n;
  }
}
