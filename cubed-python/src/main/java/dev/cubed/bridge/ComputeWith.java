package dev.cubed.bridge;

import dev.cubed.ComputeOptions;
import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The bridge function {@code computeWith([handles], [key, value, ...], events)}: computes the
 * arrays in one plan, as {@code compute}, with per-compute options (what the xarray chunk manager's
 * {@code compute(**kwargs)} passes). Keys: {@code executor}, {@code workers}, {@code attempts} and
 * {@code executor_option.KEY} (the first array's spec with those settings names the executor, as
 * {@link Cubed#executor(Spec)} builds it) and {@code resume} (true/false, {@link
 * ComputeOptions#resume()}). Any other key is an IllegalArgumentException naming the known ones.
 * With {@code events} true the result is {@code [results, events]}: the compute's events in the
 * order they happened, each a list starting with its kind ({@code compute_start}, {@code op_start},
 * {@code task_end}, {@code op_end}, {@code compute_end}) followed by the fields of the {@link
 * Events} record; else the results alone.
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
    for (int i = 0; i < kv.size(); i += 2) {
      String key = String.valueOf(kv.get(i));
      String value = String.valueOf(kv.get(i + 1));
      String k = key.toLowerCase(Locale.ROOT).replace('-', '_');
      if (k.equals("resume")) {
        resume = Boolean.parseBoolean(value.strip());
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
                + " executor, workers, attempts, executor_option.KEY, resume)");
      }
    }
    ComputeOptions options = ComputeOptions.defaults().withResume(resume);
    if (settings) {
      options = options.withExecutor(Cubed.executor(b.build()));
    }
    Log log = new Log();
    if (events) {
      options = options.withCallback(log);
    }
    List<?> results = Cubed.compute(options, xs);
    return events ? List.of(results, log.copy()) : results;
  }

  /** Records every event as a list of plain values (thread-safe: task events come in parallel). */
  private static final class Log implements Callback {
    private final List<List<Object>> events = Collections.synchronizedList(new ArrayList<>());

    private void add(Object... fields) {
      List<Object> e = new ArrayList<>(fields.length);
      Collections.addAll(e, fields);
      events.add(e);
    }

    List<List<Object>> copy() {
      synchronized (events) {
        return new ArrayList<>(events);
      }
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
