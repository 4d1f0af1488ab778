package dev.cubed.runtime.processes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
import dev.cubed.runtime.Executor;
import dev.cubed.runtime.InsufficientHeapException;
import dev.cubed.runtime.Operation;
import dev.cubed.runtime.RetryPolicy;
import dev.cubed.runtime.RunReport;
import dev.cubed.runtime.TaskFailedException;
import dev.cubed.runtime.TaskFunction;
import dev.cubed.runtime.WorkerTaskException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The processes executor with real worker JVMs: results, kills, OOM, failures, refusals. */
class ProcessesExecutorTest {
  @TempDir Path dir;

  /** Every worker process any test saw start. */
  private final Set<ProcessHandle> seen = ConcurrentHashMap.newKeySet();

  private ProcessesExecutor executor(ProcessesExecutor.Builder b) {
    ProcessesExecutor e = b.retryBackoff(Duration.ZERO).build();
    e.onWorkerStart(seen::addAll);
    return e;
  }

  @AfterEach
  void noWorkerLeftBehind() throws Exception {
    for (ProcessHandle h : seen) {
      h.onExit().get(2, TimeUnit.MINUTES);
      assertFalse(h.isAlive(), "worker process " + h.pid() + " outlived its compute");
    }
  }

  private static List<long[]> keys(int n) {
    List<long[]> ks = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ks.add(new long[] {i});
    }
    return ks;
  }

  /** Collects task ends. */
  static final class Ends implements Callback {
    final List<Events.TaskEnd> ends = new CopyOnWriteArrayList<>();

    @Override
    public void onTaskEnd(Events.TaskEnd e) {
      ends.add(e);
    }
  }

  @Test
  void runsEveryTaskInWorkerProcessesWithMeasurements() throws Exception {
    String d = dir.toString();
    long self = ProcessHandle.current().pid();
    TaskFunction write =
        key -> {
          long[] buf = new long[1 << 20]; // 8 MiB held during the task
          buf[(int) key[0]] = key[0];
          Files.writeString(
              Path.of(d, "a" + key[0]), ProcessHandle.current().pid() + " " + buf[(int) key[0]]);
        };
    TaskFunction sum =
        key -> {
          long s = 0;
          for (int i = 0; i < 6; i++) {
            s += Long.parseLong(Files.readString(Path.of(d, "a" + i)).split(" ")[1]);
          }
          Files.writeString(Path.of(d, "sum"), Long.toString(s));
        };
    ProcessesExecutor ex =
        executor(
            ProcessesExecutor.builder().workers(2).allowedMem(128L << 20).reservedMem(1L << 20));
    Ends ends = new Ends();
    RunReport report =
        ex.execute(
            "c1",
            List.of(
                new Operation("write", keys(6), write, 40L << 20),
                new Operation("sum", keys(1), sum, 40L << 20)),
            List.of(ends));
    assertEquals("15", Files.readString(dir.resolve("sum")));
    Set<String> pids = new HashSet<>();
    for (int i = 0; i < 6; i++) {
      String pid = Files.readString(dir.resolve("a" + i)).split(" ")[0];
      assertTrue(Long.parseLong(pid) != self, "task ran in the test JVM");
      pids.add(pid);
    }
    assertEquals(7, ends.ends.size());
    for (Events.TaskEnd e : ends.ends) {
      assertTrue(e.worker().startsWith("worker pid "), e.worker());
      assertTrue(e.peakRss() > 10L << 20, "peak RSS " + e.peakRss());
      assertTrue(e.measuredPeakMem() >= 1L << 20, "measured " + e.measuredPeakMem());
      // the coordinator's thread only shipped the task: no allocation figure of the task
      assertEquals(-1, e.allocatedBytes(), "allocated " + e.allocatedBytes());
      if (e.opName().equals("write")) {
        // the 8 MiB buffer is counted: reserved 1 MiB + at least 8 MiB of heap growth
        assertTrue(e.measuredPeakMem() >= 9L << 20, "measured " + e.measuredPeakMem());
        assertTrue(e.measuredPeakMem() < 40L << 20, "measured " + e.measuredPeakMem());
      }
      assertFalse(e.exceedsProjection());
    }
    assertTrue(pids.size() <= 2, "at most 2 worker processes: " + pids);
    assertEquals(128L << 20, report.heapBound());
    assertTrue(ex.liveWorkers().isEmpty());
    assertEquals(2, seen.size());
  }

  @Test
  void killedWorkerIsReplacedAndItsTaskRetried() throws Exception {
    String d = dir.toString();
    // task 3 writes its worker's pid, then waits for the test to kill that worker; on the next
    // attempt the marker exists and it just writes its result
    TaskFunction fn =
        key -> {
          Path marker = Path.of(d, "started");
          if (key[0] == 3 && !Files.exists(marker)) {
            Files.writeString(
                Path.of(d, "started.tmp"), Long.toString(ProcessHandle.current().pid()));
            Files.move(Path.of(d, "started.tmp"), marker);
            Thread.sleep(60_000);
            throw new IllegalStateException("the test did not kill this worker");
          }
          Files.writeString(Path.of(d, "out" + key[0]), Long.toString(key[0] * 10));
        };
    ProcessesExecutor ex =
        executor(ProcessesExecutor.builder().workers(2).attempts(3).allowedMem(64L << 20));
    Ends ends = new Ends();
    Thread killer =
        new Thread(
            () -> {
              try {
                Path marker = dir.resolve("started");
                while (!Files.exists(marker)) {
                  Thread.sleep(10);
                }
                long pid = Long.parseLong(Files.readString(marker));
                ProcessHandle.of(pid).orElseThrow().destroyForcibly();
              } catch (Exception e) {
                throw new RuntimeException(e);
              }
            });
    killer.start();
    ex.execute("c2", List.of(new Operation("op", keys(6), fn, 1L << 20)), List.of(ends));
    killer.join();
    for (int i = 0; i < 6; i++) {
      assertEquals(Long.toString(i * 10L), Files.readString(dir.resolve("out" + i)));
    }
    Events.TaskEnd three =
        ends.ends.stream().filter(e -> e.key()[0] == 3).findFirst().orElseThrow();
    assertEquals(2, three.attempts(), "the killed attempt counts");
    assertEquals(3, seen.size(), "2 workers + 1 replacement");
  }

  @Test
  void outOfMemoryIsRetriedThenFailsNamingTheHeapBound() {
    TaskFunction hog =
        key -> {
          long[][] keep = new long[64][];
          for (int i = 0; i < keep.length; i++) {
            keep[i] = new long[1 << 20]; // 64 x 8 MiB = 512 MiB > 64 MiB heap
          }
          if (keep[63].length == 0) {
            throw new IllegalStateException();
          }
        };
    ProcessesExecutor ex =
        executor(ProcessesExecutor.builder().workers(1).attempts(2).allowedMem(64L << 20));
    TaskFailedException e =
        assertThrows(
            TaskFailedException.class,
            () ->
                ex.execute("c3", List.of(new Operation("hog", keys(1), hog, 1L << 20)), List.of()));
    assertEquals(2, e.attempts());
    assertFalse(e.deterministic());
    assertTrue(e.getMessage().contains("OutOfMemoryError"), e.getMessage());
    assertTrue(e.getMessage().contains("67,108,864 bytes"), e.getMessage());
    assertTrue(e.getCause() instanceof WorkerDiedException w && w.outOfMemory());
    assertEquals(2, seen.size(), "the worker that ran out of heap was replaced");
  }

  @Test
  void deterministicRemoteFailureIsNotRetried() {
    TaskFunction bad =
        key -> {
          throw new RuntimeException("wrapped", new IllegalArgumentException("bad shape (3, 4)"));
        };
    ProcessesExecutor ex =
        executor(ProcessesExecutor.builder().workers(1).attempts(3).allowedMem(64L << 20));
    TaskFailedException e =
        assertThrows(
            TaskFailedException.class,
            () ->
                ex.execute("c4", List.of(new Operation("bad", keys(1), bad, 1L << 20)), List.of()));
    assertTrue(e.deterministic());
    assertEquals(1, e.attempts());
    WorkerTaskException w = (WorkerTaskException) e.getCause();
    assertEquals(
        List.of("java.lang.RuntimeException", "java.lang.IllegalArgumentException"),
        w.remoteClassChain());
    assertTrue(w.remoteStackTrace().contains("bad shape (3, 4)"), w.remoteStackTrace());
    assertTrue(e.getMessage().contains("java.lang.RuntimeException: wrapped"), e.getMessage());
  }

  @Test
  void transientRemoteFailureIsRetried() throws Exception {
    String d = dir.toString();
    TaskFunction flaky =
        key -> {
          Path m = Path.of(d, "failed-once");
          if (!Files.exists(m)) {
            Files.writeString(m, "x");
            throw new UncheckedIOException(new IOException("store hiccup"));
          }
        };
    ProcessesExecutor ex =
        executor(ProcessesExecutor.builder().workers(1).attempts(3).allowedMem(64L << 20));
    Ends ends = new Ends();
    ex.execute("c5", List.of(new Operation("flaky", keys(1), flaky, 1L << 20)), List.of(ends));
    assertEquals(2, ends.ends.get(0).attempts());
    assertEquals(1, seen.size(), "a failed task does not cost its worker");
  }

  @Test
  void planTooBigForTheWorkerHeapIsRefusedBeforeAnythingRuns() {
    ProcessesExecutor ex = executor(ProcessesExecutor.builder().workers(1).allowedMem(64L << 20));
    InsufficientHeapException e =
        assertThrows(
            InsufficientHeapException.class,
            () ->
                ex.execute(
                    "c6", List.of(new Operation("big", keys(1), k -> {}, 65L << 20)), List.of()));
    assertEquals("big", e.opName());
    assertTrue(e.getMessage().contains("worker heap bound of 67,108,864 bytes"), e.getMessage());
    assertTrue(seen.isEmpty(), "no worker was started");
  }

  @Test
  void unserializableFunctionIsRefusedWithItsOpName() {
    Object notSerializable = new Object();
    TaskFunction fn = key -> notSerializable.hashCode();
    ProcessesExecutor ex = executor(ProcessesExecutor.builder().workers(1).allowedMem(64L << 20));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ex.execute("c7", List.of(new Operation("opaque", keys(1), fn, 1)), List.of()));
    assertTrue(
        e.getMessage().contains("opaque") && e.getMessage().contains("java.lang.Object"),
        e.getMessage());
    assertTrue(seen.isEmpty());
  }

  @Test
  void measuredAboveProjectionIsFlagged() {
    TaskFunction fn =
        key -> {
          long[] held = new long[4 << 20]; // 32 MiB
          held[1] = 1;
        };
    ProcessesExecutor ex = executor(ProcessesExecutor.builder().workers(1).allowedMem(128L << 20));
    Ends ends = new Ends();
    ex.execute("c8", List.of(new Operation("under", keys(1), fn, 8L << 20)), List.of(ends));
    Events.TaskEnd e = ends.ends.get(0);
    assertTrue(e.measuredPeakMem() >= 32L << 20, "measured " + e.measuredPeakMem());
    assertTrue(e.exceedsProjection());
  }

  @Test
  void liveDataAboveProjectionIsReportedAsProven() {
    TaskFunction fn =
        key -> {
          long[] held = new long[4 << 20]; // 32 MiB, live across a full collection
          System.gc();
          held[1] = 1;
        };
    ProcessesExecutor ex = executor(ProcessesExecutor.builder().workers(1).allowedMem(128L << 20));
    List<String> warnings = new CopyOnWriteArrayList<>();
    Logger log = Logger.getLogger(ProcessesExecutor.class.getName());
    Handler h =
        new Handler() {
          @Override
          public void publish(LogRecord r) {
            warnings.add(r.getMessage());
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    log.addHandler(h);
    try {
      ex.execute("c9", List.of(new Operation("proven", keys(1), fn, 8L << 20)), List.of());
    } finally {
      log.removeHandler(h);
    }
    assertTrue(
        warnings.stream()
            .anyMatch(w -> w.contains("operation proven") && w.contains("IS under-projected")),
        warnings.toString());
  }

  @Test
  void byNameFindsTheProcessesExecutor() {
    assertEquals("processes", Executor.byName("processes").name());
    assertTrue(Executor.byName("processes") instanceof ProcessesExecutor);
  }

  @Test
  void measuresAnIdleWorker() {
    ProcessesExecutor.WorkerBaseline b = ProcessesExecutor.measureWorkerBaseline(128L << 20);
    assertTrue(b.idleHeap() > 0 && b.idleHeap() < 32L << 20, "idle heap " + b.idleHeap());
    assertTrue(b.idleRss() > 10L << 20 && b.idleRss() < 200L << 20, "idle RSS " + b.idleRss());
    assertTrue(b.emptyTaskMeasured() < 4L << 20, "empty task " + b.emptyTaskMeasured());
  }

  @Test
  void retryPolicyClassifiesRemoteClassNames() {
    assertTrue(
        RetryPolicy.isDeterministicRemote(
            List.of("java.lang.RuntimeException", "dev.cubed.zarr.store.ZarrFormatException")));
    assertFalse(
        RetryPolicy.isDeterministicRemote(
            List.of(
                "java.lang.IllegalStateException",
                "java.io.IOException",
                "java.lang.IllegalArgumentException")));
    assertFalse(RetryPolicy.isDeterministicRemote(List.of("com.example.Unknown")));
    assertTrue(
        RetryPolicy.isDeterministic(
            new WorkerTaskException(
                List.of("java.lang.ArithmeticException"), "/ by zero", "", "worker pid 1")));
  }
}
