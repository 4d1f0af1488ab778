package dev.cubed.runtime.processes;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.GcInfo;
import dev.cubed.runtime.TaskFunction;
import dev.cubed.runtime.ThreadsExecutor;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * The main class of a processes-executor worker JVM (started by {@link ProcessesExecutor}; not for
 * people to run). It reads frames ({@link WorkerProtocol}) from stdin and answers on stdout, which
 * it takes for itself at start: {@code System.out} is redirected to stderr so that a task printing
 * cannot corrupt the channel. Tasks run one at a time, on a thread with a 16 MiB stack (as the
 * threads executor's, for native kernels). End of stdin (the parent is gone) ends the worker.
 *
 * <p><b>Measurements per task</b> (see {@link ProcessesExecutor} for what is reported): before the
 * task (Linux) {@code VmHWM} is reset through {@code /proc/self/clear_refs}, and a full GC runs
 * unless the heap in use exceeds the <i>idle baseline</i> (the heap in use right after the last
 * full GC run between tasks, i.e. the worker's own live data then) by at most the skip slack
 * ({@link Options#gcSkipSlack()}, bytes; 0 = a full GC before every task); a {@link
 * WorkerProtocol#RESET} (functions dropped) runs a GC and measures a new baseline. The reported
 * heap at start is the baseline in both cases (right after the GC it is the heap in use), so
 * everything above it during the task, the leftover of earlier tasks (at most the slack) included,
 * counts as the task's. Then the largest heap in use when a collection started and after one ended
 * during the task (GC notifications), the largest heap in use right after a full (major) collection
 * during the task (live data only: a lower bound on the task's peak), the heap in use at its end,
 * and {@code VmHWM}. With a skip slack the same check (and GC if needed) also runs right after each
 * reply (unless {@link Options#postTaskGc()} is off), so the collection overlaps the parent's
 * dispatch instead of delaying the next task.
 *
 * <p>Its settings come on its command line, after the class name ({@link Options#args()}: {@code
 * gcSkipSlack=N postTaskGc=true|false stats=true|false}), never from system properties.
 *
 * <p>A daemon thread exits the worker (status 4) within a second once its parent process is gone,
 * even during a task, so a coordinator killed with SIGKILL leaves no worker behind (an idle worker
 * also ends on the end of its stdin).
 */
public final class WorkerMain {
  private static final Set<String> HEAP_POOLS = ConcurrentHashMap.newKeySet();

  /**
   * Per collector: the last GC id that belongs to an earlier task (ids above it are this task's).
   */
  private static final Map<String, Long> GC_ID_AT_START = new ConcurrentHashMap<>();

  private static final Map<String, Long> GC_ID_SEEN = new ConcurrentHashMap<>();
  private static volatile long maxAfterGc = -1;
  private static volatile long maxBeforeGc = -1;
  private static volatile long maxAfterMajorGc = -1;
  private static volatile int gcsInTask;

  /** Start time (ms since JVM start) and heap before the task's earliest collection so far. */
  private static long firstGcStart = Long.MAX_VALUE;

  private static long firstGcBefore = -1;

  /** Largest heap before the task's collections other than the earliest. */
  private static long laterMaxBefore = -1;

  /** Heap in use right after the last full GC run between tasks (the worker's own live data). */
  private static long idleBaseline = -1;

  /** True until the first baseline is measured: GC before the next task. */
  private static boolean baselineStale = true;

  /**
   * Pre-task GCs skipped and run (for tests and diagnostics; printed at exit with {@link
   * Options#stats()}).
   */
  private static long gcsSkipped;

  private static long gcsRun;

  /** This worker's settings, from its command line (set once in {@link #main}). */
  private static volatile Options options = new Options(0, true, false);

  /**
   * A worker's settings, passed on its command line.
   *
   * @param gcSkipSlack the pre-task GC skip slack, bytes (0: a full GC before every task)
   * @param postTaskGc with a slack, also run the GC check right after each reply
   * @param stats print the pre-task GCs run and skipped to stderr at exit
   */
  record Options(long gcSkipSlack, boolean postTaskGc, boolean stats) {
    /** The command-line arguments giving these options. */
    List<String> args() {
      return List.of("gcSkipSlack=" + gcSkipSlack, "postTaskGc=" + postTaskGc, "stats=" + stats);
    }

    /**
     * The options of a command line ({@link #args()}); missing ones keep their defaults (0, true,
     * false).
     *
     * @throws IllegalArgumentException naming an unknown or malformed argument
     */
    static Options parse(String[] args) {
      long slack = 0;
      boolean post = true;
      boolean stats = false;
      for (String a : args) {
        int eq = a.indexOf('=');
        String k = eq < 0 ? a : a.substring(0, eq);
        String v = eq < 0 ? "" : a.substring(eq + 1);
        switch (k) {
          case "gcSkipSlack" -> slack = Long.parseLong(v);
          case "postTaskGc" -> post = bool(a, v);
          case "stats" -> stats = bool(a, v);
          default ->
              throw new IllegalArgumentException(
                  "cubed worker: unknown argument '"
                      + a
                      + "' (known: gcSkipSlack=N, postTaskGc=true|false, stats=true|false)");
        }
      }
      return new Options(slack, post, stats);
    }

    private static boolean bool(String arg, String v) {
      if (!v.equals("true") && !v.equals("false")) {
        throw new IllegalArgumentException(
            "cubed worker: '" + arg + "': the value must be true or false");
      }
      return v.equals("true");
    }
  }

  private WorkerMain() {}

  /**
   * Runs the worker loop; exits when stdin ends or on an EXIT frame.
   *
   * @param args the worker's {@link Options} ({@link Options#args()})
   */
  public static void main(String[] args) throws Exception {
    options = Options.parse(args);
    FileOutputStream channel = new FileOutputStream(FileDescriptor.out);
    System.setOut(System.err); // user prints go to stderr, never into the channel
    DataOutputStream out = new DataOutputStream(new BufferedOutputStream(channel, 1 << 16));
    DataInputStream in =
        new DataInputStream(
            new BufferedInputStream(new FileInputStream(FileDescriptor.in), 1 << 16));
    watchParent();
    Thread t =
        new Thread(
            null,
            () -> {
              try {
                loop(in, out);
              } catch (EOFException e) {
                // the parent closed the channel
              } catch (Throwable e) {
                System.err.println("cubed worker: channel failed: " + e);
              }
            },
            "cubed-worker-task",
            ThreadsExecutor.WORKER_STACK_BYTES);
    t.start();
    t.join();
    if (options.stats()) {
      System.err.println(
          "cubed worker stats: pre-task GCs run " + gcsRun + ", skipped " + gcsSkipped);
    }
    System.exit(0);
  }

  /** Exits (status 4) once the parent process is gone; checks every 500 ms. */
  private static void watchParent() {
    Optional<ProcessHandle> parent = ProcessHandle.current().parent();
    if (parent.isEmpty()) {
      return;
    }
    ProcessHandle p = parent.get();
    Optional<Instant> started = p.info().startInstant();
    Thread w =
        new Thread(
            () -> {
              while (true) {
                try {
                  Thread.sleep(500);
                } catch (InterruptedException e) {
                  return;
                }
                Optional<ProcessHandle> now = ProcessHandle.of(p.pid());
                boolean gone =
                    now.isEmpty()
                        || !now.get().isAlive()
                        || (started.isPresent()
                            && !started.equals(now.get().info().startInstant()));
                if (gone) {
                  System.err.println(
                      "cubed worker: parent process " + p.pid() + " is gone; exiting");
                  Runtime.getRuntime().halt(4);
                }
              }
            },
            "cubed-worker-parent-watch");
    w.setDaemon(true);
    w.start();
  }

  private static void loop(DataInputStream in, DataOutputStream out) throws IOException {
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP) {
        HEAP_POOLS.add(p.getName());
      }
    }
    listenToGc();
    System.gc();
    idleBaseline = heapUsed();
    baselineStale = false;
    WorkerProtocol.write(
        out,
        WorkerProtocol.HELLO,
        WorkerProtocol.hello(
            new WorkerProtocol.Hello(
                ProcessHandle.current().pid(), heapUsed(), procStatus("VmRSS"))));
    Map<Integer, TaskFunction> functions = new HashMap<>();
    Map<Integer, Throwable> badFunctions = new HashMap<>();
    while (true) {
      WorkerProtocol.Frame f = WorkerProtocol.read(in);
      switch (f.type()) {
        case WorkerProtocol.EXIT -> {
          return;
        }
        case WorkerProtocol.RESET -> {
          functions.clear();
          badFunctions.clear();
          // the worker's own live data shrank: a new baseline, measured now while idle (the GC
          // also gives the idle worker's garbage back before it waits in the pool)
          System.gc();
          idleBaseline = heapUsed();
          baselineStale = false;
        }
        case WorkerProtocol.DEFINE -> {
          DataInputStream d = f.data();
          int op = d.readInt();
          byte[] fn = new byte[d.readInt()];
          d.readFully(fn);
          try {
            functions.put(op, deserialize(fn));
          } catch (Exception | LinkageError e) {
            badFunctions.put(
                op,
                new IllegalStateException(
                    "worker: cannot deserialize the task" + " function of op #" + op + ": " + e,
                    e));
          }
        }
        case WorkerProtocol.TASK -> {
          DataInputStream d = f.data();
          int op = d.readInt();
          long[] key = new long[d.readInt()];
          for (int i = 0; i < key.length; i++) {
            key[i] = d.readLong();
          }
          runTask(op, key, functions, badFunctions, out);
        }
        default -> throw new IOException("worker: unexpected frame type " + f.type());
      }
    }
  }

  private static void runTask(
      int op,
      long[] key,
      Map<Integer, TaskFunction> functions,
      Map<Integer, Throwable> bad,
      DataOutputStream out)
      throws IOException {
    TaskFunction fn = functions.get(op);
    Throwable failure = null;
    if (op >= 0 && fn == null) {
      failure =
          bad.getOrDefault(
              op,
              new IllegalStateException(
                  "worker: op #" + op + " was never defined (protocol error)"));
    }
    long baseline = preTaskBaseline();
    startTask();
    long used = heapUsed(); // after the GC ids were taken: a collection from here on is the task's
    long t0 = System.nanoTime();
    if (failure == null && fn != null) {
      try {
        fn.run(key);
      } catch (Throwable e) {
        failure = e; // an OutOfMemoryError never gets here: the JVM exits (ExitOnOutOfMemoryError)
      }
    }
    long nanos = System.nanoTime() - t0;
    long end = heapUsed();
    if (failure != null) {
      WorkerProtocol.write(out, WorkerProtocol.ERR, WorkerProtocol.err(failure));
      return;
    }
    awaitGcNotifications();
    long hwm = procStatus("VmHWM");
    boolean collected = false;
    for (GarbageCollectorMXBean g : ManagementFactory.getGarbageCollectorMXBeans()) {
      collected |= g.getCollectionCount() > GC_ID_AT_START.getOrDefault(g.getName(), 0L);
    }
    long growth;
    synchronized (WorkerMain.class) {
      if (gcsInTask == 0 && !collected) {
        growth = end - used; // nothing collected: all present at the start is still there
      } else {
        growth = Math.max(firstGcBefore - used, Math.max(laterMaxBefore, end) - baseline);
      }
    }
    WorkerProtocol.write(
        out,
        WorkerProtocol.OK,
        WorkerProtocol.ok(
            new WorkerProtocol.Measured(
                baseline,
                end,
                maxBeforeGc,
                maxAfterGc,
                maxAfterMajorGc,
                gcsInTask,
                hwm,
                nanos,
                Math.max(0, growth))));
    if (options.gcSkipSlack() > 0 && options.postTaskGc()) {
      // collect now, while the parent handles the reply and the worker would wait for its next
      // task, rather than when that task is here (the pre-task check then finds a clean heap)
      preTaskBaseline();
    }
  }

  /**
   * Runs the pre-task full GC if needed (see the class comment) and returns the heap at start to
   * report: the idle baseline.
   */
  private static long preTaskBaseline() {
    long used = heapUsed();
    long slack = options.gcSkipSlack();
    if (baselineStale || slack <= 0 || used - idleBaseline > slack) {
      System.gc();
      idleBaseline = heapUsed();
      baselineStale = false;
      gcsRun++;
    } else {
      gcsSkipped++;
    }
    return idleBaseline;
  }

  private static void startTask() {
    try {
      Files.writeString(Path.of("/proc/self/clear_refs"), "5");
    } catch (IOException | RuntimeException e) {
      // not Linux, or not allowed: VmHWM then is the process's peak since start
    }
    // no wait for the notification of the GC before the task: the listener compares each id
    // with the ids taken here when it arrives, so a late one is never counted as the task's
    for (GarbageCollectorMXBean g : ManagementFactory.getGarbageCollectorMXBeans()) {
      GC_ID_AT_START.put(g.getName(), g.getCollectionCount());
    }
    maxAfterGc = -1;
    maxBeforeGc = -1;
    maxAfterMajorGc = -1;
    synchronized (WorkerMain.class) {
      gcsInTask = 0;
      firstGcStart = Long.MAX_VALUE;
      firstGcBefore = -1;
      laterMaxBefore = -1;
    }
  }

  /** Waits (at most 200 ms) until the notifications of every collection so far have arrived. */
  private static void awaitGcNotifications() {
    long deadline = System.nanoTime() + 200_000_000L;
    for (GarbageCollectorMXBean g : ManagementFactory.getGarbageCollectorMXBeans()) {
      long count = g.getCollectionCount();
      while (GC_ID_SEEN.getOrDefault(g.getName(), 0L) < count && System.nanoTime() < deadline) {
        Thread.onSpinWait();
        try {
          Thread.sleep(1);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  private static void listenToGc() {
    for (GarbageCollectorMXBean g : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (!(g instanceof NotificationEmitter em)) {
        continue;
      }
      em.addNotificationListener(
          (n, hb) -> {
            if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
                n.getType())) {
              return;
            }
            GarbageCollectionNotificationInfo info =
                GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
            GcInfo gi = info.getGcInfo();
            String name = info.getGcName();
            Long atStart = GC_ID_AT_START.get(name);
            if (atStart != null && gi.getId() > atStart) {
              long used = heapOf(gi.getMemoryUsageAfterGc());
              long before = heapOf(gi.getMemoryUsageBeforeGc());
              synchronized (WorkerMain.class) {
                maxAfterGc = Math.max(maxAfterGc, used);
                maxBeforeGc = Math.max(maxBeforeGc, before);
                if (info.getGcAction().contains("major")) {
                  maxAfterMajorGc = Math.max(maxAfterMajorGc, used); // live data only
                }
                gcsInTask++;
                if (gi.getStartTime() < firstGcStart) {
                  laterMaxBefore = Math.max(laterMaxBefore, firstGcBefore);
                  firstGcStart = gi.getStartTime();
                  firstGcBefore = before;
                } else {
                  laterMaxBefore = Math.max(laterMaxBefore, before);
                }
              }
            }
            GC_ID_SEEN.merge(name, gi.getId(), Math::max);
          },
          null,
          null);
    }
  }

  private static long heapOf(Map<String, MemoryUsage> pools) {
    long used = 0;
    for (Map.Entry<String, MemoryUsage> e : pools.entrySet()) {
      if (HEAP_POOLS.contains(e.getKey())) {
        used += e.getValue().getUsed();
      }
    }
    return used;
  }

  static long heapUsed() {
    long used = 0;
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP) {
        used += p.getUsage().getUsed();
      }
    }
    return used;
  }

  /** A {@code /proc/self/status} field in bytes (e.g. VmHWM), or -1 where there is none. */
  static long procStatus(String field) {
    try {
      List<String> lines = Files.readAllLines(Path.of("/proc/self/status"));
      for (String l : lines) {
        if (l.startsWith(field + ":")) {
          String[] parts = l.substring(field.length() + 1).trim().split("\\s+");
          return Long.parseLong(parts[0]) * 1024;
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux
    }
    return -1;
  }

  private static TaskFunction deserialize(byte[] bytes) throws IOException, ClassNotFoundException {
    ClassLoader cl = WorkerMain.class.getClassLoader();
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes)) {
          @Override
          protected Class<?> resolveClass(ObjectStreamClass desc)
              throws IOException, ClassNotFoundException {
            try {
              return Class.forName(desc.getName(), false, cl);
            } catch (ClassNotFoundException e) {
              return super.resolveClass(desc);
            }
          }
        }) {
      in.setObjectInputFilter(DeserializationFilters.tasks(bytes.length));
      return (TaskFunction) in.readObject();
    }
  }
}
