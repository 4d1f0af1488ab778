package dev.cubed.beam;

import dev.cubed.runtime.TaskFunction;
import java.net.InetAddress;
import java.util.Arrays;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.metrics.StringSet;
import org.apache.beam.sdk.transforms.DoFn;

/**
 * The stage of one operation: runs the task of each key it is given ({@link TaskAttempts}) and, for
 * each success, adds its {@link TaskReport} to a string-set metric of the run (which the launcher
 * polls for progress events) and outputs it (the stage's output, which later stages wait on). Beam
 * serializes this DoFn, and the task function with it, to every worker.
 */
final class TaskDoFn extends DoFn<long[], String> {
  private static final long serialVersionUID = 1L;
  private static final String HOST = hostName();

  private final String runId;
  private final int opIndex;
  private final String opName;
  private final TaskFunction fn;
  private final int attempts;
  private final long backoffMillis;
  private final int shards;
  private transient StringSet[] records;

  TaskDoFn(
      String runId,
      int opIndex,
      String opName,
      TaskFunction fn,
      int attempts,
      long backoffMillis,
      int shards) {
    this.runId = runId;
    this.opIndex = opIndex;
    this.opName = opName;
    this.fn = fn;
    this.attempts = attempts;
    this.backoffMillis = backoffMillis;
    this.shards = shards;
  }

  /** The metric namespace of a run's task records. */
  static String namespace(String runId) {
    return "cubed/" + runId;
  }

  /** The metric name of one shard of an operation's task records. */
  static String metricName(int opIndex, int shard) {
    return "tasks/" + opIndex + "/" + shard;
  }

  /** The shard a key's record goes to (spreads records over metrics of bounded size). */
  static int shardOf(long[] key, int shards) {
    return Math.floorMod(Arrays.hashCode(key), shards);
  }

  @Setup
  public void setup() {
    records = new StringSet[shards];
    for (int s = 0; s < shards; s++) {
      records[s] = Metrics.stringSet(namespace(runId), metricName(opIndex, s));
    }
  }

  @ProcessElement
  public void process(@Element long[] key, OutputReceiver<String> out) throws Exception {
    InFlight.enter(runId);
    try {
      TaskAttempts.Success s = TaskAttempts.run(runId, opName, fn, key, attempts, backoffMillis);
      String rec =
          new TaskReport(
                  opIndex,
                  key,
                  s.startMillis(),
                  s.endMillis(),
                  s.attempts(),
                  s.allocatedBytes(),
                  s.ran() == null ? -1 : s.ran().peakRss(),
                  (s.ran() == null ? "" : s.ran().worker() + " on ")
                      + HOST
                      + "/"
                      + Thread.currentThread().getName())
              .encode();
      records[shardOf(key, shards)].add(rec);
      out.output(rec);
    } finally {
      InFlight.exit(runId);
    }
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (Exception e) {
      return "unknown-host";
    }
  }
}
