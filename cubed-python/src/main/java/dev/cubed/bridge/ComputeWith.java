package dev.cubed.bridge;

import dev.cubed.ComputeOptions;
import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.diagnostics.Diagnostics;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The bridge function {@code computeWith([handles], [key, value, ...], events)}: computes the
 * arrays in one plan, as {@code compute}, with per-compute options (what the xarray chunk manager's
 * {@code compute(**kwargs)} passes). Keys: {@code executor}, {@code workers}, {@code attempts} and
 * {@code executor_option.KEY} (the first array's spec with those settings names the executor, as
 * {@link Cubed#executor(Spec)} builds it), {@code resume} (true/false, {@link
 * ComputeOptions#resume()}), and the engine's diagnostics (docs/diagnostics.md): {@code history}
 * DIR ({@link Diagnostics#history}: DIR/tasks.csv, ops.csv, plan.txt) and {@code plots} DIR ({@link
 * Diagnostics#plots}: DIR/timeline.svg, memory.svg; one callback per directory). Any other key is
 * an IllegalArgumentException naming the known ones. With {@code events} true every event of the
 * compute is sent to the client as an event frame WHILE the compute runs (before the reply, in the
 * order the engine reports them; {@link Calls.Session#events}), each a list starting with its kind
 * ({@code compute_start}, {@code op_start}, {@code task_end}, {@code op_end}, {@code compute_end})
 * followed by the fields of the {@link Events} record. The result is the arrays' values.
 *
 * <p>The frames are written by the engine's threads as the events happen; a client that reads them
 * slowly slows the compute once the pipe's buffer is full (events are small: a task end is about
 * 150 bytes).
 */
final class ComputeWith {
  private ComputeWith() {}

  static Object apply(Calls.Session s, List<Object> a) {
    if (a.size() != 3
        || !(a.get(0) instanceof List<?> hs)
        || !(a.get(1) instanceof List<?> kv)
        || !(a.get(2) instanceof Boolean events)) {
      throw new IllegalArgumentException(
          "computeWith: expected ([handles], [key, value, ...],"
              + " events), got "
              + a.size()
              + " arguments");
    }
    if (hs.isEmpty()) {
      throw new IllegalArgumentException("computeWith: no arrays to compute");
    }
    CubedArray[] xs = new CubedArray[hs.size()];
    for (int i = 0; i < xs.length; i++) {
      xs[i] = s.get(hs.get(i), "computeWith");
    }
    if (kv.size() % 2 != 0) {
      throw new IllegalArgumentException("computeWith: options come as key, value pairs");
    }
    Spec.Builder b = xs[0].spec().toBuilder();
    boolean settings = false;
    boolean resume = false;
    Set<Path> history = new LinkedHashSet<>();
    Set<Path> plots = new LinkedHashSet<>();
    for (int i = 0; i < kv.size(); i += 2) {
      String key = String.valueOf(kv.get(i));
      String value = String.valueOf(kv.get(i + 1));
      String k = key.toLowerCase(Locale.ROOT).replace('-', '_');
      if (k.equals("resume")) {
        resume = Boolean.parseBoolean(value.strip());
      } else if (k.equals("history")) {
        history.add(Path.of(value));
      } else if (k.equals("plots")) {
        plots.add(Path.of(value));
      } else if (k.equals("executor")
          || k.equals("workers")
          || k.equals("attempts")
          || k.startsWith("executor_option.")) {
        b.set(key, value);
        settings = true;
      } else {
        throw new IllegalArgumentException(
            "computeWith: unknown option '"
                + key
                + "' (known:"
                + " executor, workers, attempts, executor_option.KEY, resume, history, plots)");
      }
    }
    ComputeOptions options = ComputeOptions.defaults().withResume(resume);
    if (settings) {
      options = options.withExecutor(Cubed.executor(b.build()));
    }
    for (Path dir : history) {
      options = options.withCallback(Diagnostics.history(dir));
    }
    for (Path dir : plots) {
      options = options.withCallback(Diagnostics.plots(dir));
    }
    Stream stream = events ? new Stream(s.events) : null;
    if (stream != null) {
      options = options.withCallback(stream);
    }
    try {
      return ComputeCalls.computeShared(s.shm, options, xs);
    } finally {
      if (stream != null) {
        stream.close();
      }
    }
  }

  /**
   * Sends every event as a list of plain values, one event frame each, as it happens (task events
   * come from several threads: one frame at a time). Closed when the compute returns: a late event
   * is dropped rather than written into the reply.
   */
  private static final class Stream implements Callback {
    private final Consumer<Object> sink;
    private boolean open = true;

    Stream(Consumer<Object> sink) {
      this.sink = sink;
    }

    private synchronized void add(Object... fields) {
      if (open) {
        List<Object> e = new ArrayList<>(fields.length);
        Collections.addAll(e, fields);
        sink.accept(e);
      }
    }

    synchronized void close() {
      open = false;
    }

    @Override
    public void onComputeStart(Events.ComputeStart e) {
      add("compute_start", e.computeId(), e.numOps(), e.numTasks(), e.startMillis());
    }

    @Override
    public void onComputeEnd(Events.ComputeEnd e) {
      add(
          "compute_end",
          e.computeId(),
          e.startMillis(),
          e.endMillis(),
          e.error() == null ? null : e.error().toString());
    }

    @Override
    public void onOpStart(Events.OpStart e) {
      add("op_start", e.opName(), e.numTasks(), e.projectedMem(), e.startMillis());
    }

    @Override
    public void onOpEnd(Events.OpEnd e) {
      add("op_end", e.opName(), e.numTasks(), e.startMillis(), e.endMillis());
    }

    @Override
    public void onTaskEnd(Events.TaskEnd e) {
      List<Object> key = new ArrayList<>();
      for (long k : e.key()) {
        key.add(k);
      }
      add(
          "task_end",
          e.opName(),
          key,
          e.startMillis(),
          e.endMillis(),
          e.attempts(),
          e.allocatedBytes(),
          e.projectedMem(),
          e.backup(),
          e.worker(),
          e.measuredPeakMem(),
          e.peakRss());
    }
  }
}
