package dev.cubed.runtime.processes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cubed.runtime.Events;
import dev.cubed.runtime.Operation;
import dev.cubed.runtime.TaskFunction;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Workers kept between computes: reused, stopped on close, gone when the coordinator is killed; and
 * the measured peak stays an upper bound when a worker skips the pre-task GC.
 */
class ProcessesKeepAliveTest {
  @TempDir Path dir;

  private static List<long[]> keys(int n) {
    List<long[]> ks = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ks.add(new long[] {i});
    }
    return ks;
  }

  private static Set<String> workers(ProcessesExecutorTest.Ends ends) {
    Set<String> s = new TreeSet<>();
    for (Events.TaskEnd e : ends.ends) {
      s.add(e.worker());
    }
    return s;
  }

  @Test
  void workersServeTheNextComputeAndStopOnClose() throws Exception {
    List<ProcessHandle> started = new CopyOnWriteArrayList<>();
    ProcessesExecutor ex =
        ProcessesExecutor.builder()
            .workers(2)
            .allowedMem(128L << 20)
            .reservedMem(1L << 20)
            .keepAlive(Duration.ofSeconds(60))
            .build();
    ex.onWorkerStart(started::addAll);
    try {
      ProcessesExecutorTest.Ends first = new ProcessesExecutorTest.Ends();
      ProcessesExecutorTest.Ends second = new ProcessesExecutorTest.Ends();
      ex.execute("k1", List.of(new Operation("a", keys(6), key -> {}, 8L << 20)), List.of(first));
      assertEquals(
          2,
          ProcessesExecutor.idleWorkers().stream().filter(h -> started.contains(h)).count(),
          "both workers wait in the pool");
      // same op index as the first compute, another function: must not run the old one
      String d = dir.toString();
      ex.execute(
          "k2",
          List.of(
              new Operation(
                  "b", keys(6), key -> Files.writeString(Path.of(d, "b" + key[0]), "x"), 8L << 20)),
          List.of(second));
      for (int i = 0; i < 6; i++) {
        assertTrue(Files.exists(dir.resolve("b" + i)), "task " + i + " of the 2nd compute ran");
      }
      assertEquals(workers(first), workers(second), "the second compute reused the workers");
      assertEquals(2, ends(started), "no worker was started for the second compute");
    } finally {
      ex.close();
    }
    for (ProcessHandle h : started) {
      h.onExit().get(2, TimeUnit.MINUTES);
      assertFalse(h.isAlive(), "worker " + h.pid() + " outlived close()");
    }
    assertTrue(ProcessesExecutor.idleWorkers().stream().noneMatch(started::contains));
  }

  /**
   * Two executors sharing the pool of kept workers compute at the same time, four rounds: every
   * task runs its own compute's function exactly once, and no worker ever serves the two computes
   * at overlapping times (a pooled worker is handed to one compute at a time).
   */
  @Test
  void concurrentComputesSharingThePoolNeverShareAWorker() throws Exception {
    ProcessesExecutor a =
        ProcessesExecutor.builder()
            .workers(2)
            .allowedMem(128L << 20)
            .reservedMem(1L << 20)
            .keepAlive(Duration.ofSeconds(60))
            .build();
    ProcessesExecutor b =
        ProcessesExecutor.builder()
            .workers(2)
            .allowedMem(128L << 20)
            .reservedMem(1L << 20)
            .keepAlive(Duration.ofSeconds(60))
            .build();
    String d = dir.toString();
    ExecutorService callers = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 4; round++) {
        List<Future<ProcessesExecutorTest.Ends>> fs = new ArrayList<>();
        for (ProcessesExecutor ex : List.of(a, b)) {
          String tag = (ex == a ? "a" : "b") + round;
          fs.add(
              callers.submit(
                  () -> {
                    ProcessesExecutorTest.Ends ends = new ProcessesExecutorTest.Ends();
                    ex.execute(
                        "k" + tag,
                        List.of(
                            new Operation(
                                "op",
                                keys(8),
                                key -> {
                                  Thread.sleep(20);
                                  Path f = Path.of(d, tag + "-" + key[0]);
                                  Files.writeString(f, tag, StandardOpenOption.CREATE_NEW);
                                },
                                8L << 20)),
                        List.of(ends));
                    return ends;
                  }));
        }
        ProcessesExecutorTest.Ends ea = fs.get(0).get(10, TimeUnit.MINUTES);
        ProcessesExecutorTest.Ends eb = fs.get(1).get(10, TimeUnit.MINUTES);
        for (String tag : List.of("a" + round, "b" + round)) {
          for (int i = 0; i < 8; i++) {
            assertEquals(
                tag,
                Files.readString(dir.resolve(tag + "-" + i)),
                "task " + i + " of compute " + tag);
          }
        }
        assertEquals(8, ea.ends.size());
        assertEquals(8, eb.ends.size());
        for (Events.TaskEnd x : ea.ends) {
          for (Events.TaskEnd y : eb.ends) {
            boolean overlap = x.startMillis() < y.endMillis() && y.startMillis() < x.endMillis();
            assertFalse(
                x.worker().equals(y.worker()) && overlap,
                "worker " + x.worker() + " ran tasks of both computes at once in round " + round);
          }
        }
      }
    } finally {
      callers.shutdownNow();
      a.close();
      b.close();
    }
  }

  private static long ends(List<ProcessHandle> started) {
    return started.stream().map(ProcessHandle::pid).distinct().count();
  }

  @Test
  void measuredPeakCoversTheTaskWhenThePreTaskGcIsSkipped() throws Exception {
    // each task allocates 28 MiB and holds 24 of them: below the slack (256 MiB / 8 = 32 MiB),
    // so every other task starts without a GC on the previous one's garbage; task 5 collects
    // while it holds its arrays (the charged-from-the-baseline path)
    TaskFunction t =
        key -> {
          byte[][] garbage = new byte[4][];
          for (int i = 0; i < garbage.length; i++) {
            garbage[i] = new byte[1 << 20];
          }
          long[][] held = new long[3][];
          for (int i = 0; i < held.length; i++) {
            held[i] = new long[1 << 20];
            held[i][(int) key[0]] = key[0];
          }
          if (key[0] == 5) {
            System.gc();
          }
          if (held[2][(int) key[0]] != key[0] || garbage[3].length == 0) {
            throw new IllegalStateException("unreachable");
          }
        };
    ProcessesExecutorTest.Ends ends = new ProcessesExecutorTest.Ends();
    try (ProcessesExecutor ex =
        ProcessesExecutor.builder()
            .workers(1)
            .allowedMem(256L << 20)
            .reservedMem(1L << 20)
            .build()) {
      ex.execute("g", List.of(new Operation("hold", keys(8), t, 60L << 20)), List.of(ends));
    }
    assertEquals(8, ends.ends.size());
    for (Events.TaskEnd e : ends.ends) {
      assertTrue(
          e.measuredPeakMem() >= (1L << 20) + (24L << 20),
          "measured " + e.measuredPeakMem() + " below the 24 MiB the task held");
      // charged at most its allocations (28 MiB) + the slack (32 MiB) + a few MiB
      assertTrue(e.measuredPeakMem() < 68L << 20, "measured " + e.measuredPeakMem());
    }
  }

  /** A coordinator for {@link #workersExitWhenTheCoordinatorIsKilled}: args = a marker dir. */
  public static void main(String[] args) throws Exception {
    Path d = Path.of(args[0]);
    ProcessesExecutor ex =
        ProcessesExecutor.builder()
            .workers(2)
            .allowedMem(64L << 20)
            .keepAlive(Duration.ofMinutes(10))
            .build();
    ex.onWorkerStart(hs -> hs.forEach(h -> System.out.println("worker " + h.pid())));
    ex.execute("c1", List.of(new Operation("quick", keys(2), key -> {}, 8L << 20)), List.of());
    System.out.println("pooled");
    String dd = d.toString();
    ex.execute(
        "c2",
        List.of(
            new Operation(
                "slow",
                keys(1),
                key -> {
                  Files.writeString(Path.of(dd, "running"), "1");
                  Thread.sleep(600_000);
                },
                8L << 20)),
        List.of());
  }

  @Test
  void workersExitWhenTheCoordinatorIsKilled() throws Exception {
    String java =
        System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
    Process c =
        new ProcessBuilder(
                java,
                "-Xmx128m",
                "-cp",
                System.getProperty("java.class.path"),
                ProcessesKeepAliveTest.class.getName(),
                dir.toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    List<ProcessHandle> ws = new ArrayList<>();
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(c.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null && !line.equals("pooled")) {
        if (line.startsWith("worker ")) {
          ProcessHandle.of(Long.parseLong(line.substring(7))).ifPresent(ws::add);
        }
      }
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
      while (!Files.exists(dir.resolve("running")) && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertTrue(Files.exists(dir.resolve("running")), "the slow task never started");
      assertEquals(2, ws.stream().distinct().count(), "two workers: " + ws);
      assertTrue(ws.stream().allMatch(ProcessHandle::isAlive));
      c.destroyForcibly(); // SIGKILL: no shutdown hook runs
      c.waitFor(2, TimeUnit.MINUTES);
    } finally {
      c.destroyForcibly();
    }
    for (ProcessHandle h : ws) {
      try {
        h.onExit().get(2, TimeUnit.MINUTES);
      } catch (TimeoutException e) {
        h.destroyForcibly();
      }
      assertFalse(h.isAlive(), "worker " + h.pid() + " outlived its killed coordinator");
    }
  }
}
