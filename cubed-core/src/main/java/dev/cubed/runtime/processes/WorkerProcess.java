package dev.cubed.runtime.processes;

import dev.cubed.nd.elementwise.FastTrig;
import dev.cubed.runtime.TileJitOptions;
import dev.cubed.runtime.WorkerTaskException;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * The parent's handle on one worker JVM: the process, its channel (stdin/stdout frames), a reader
 * thread turning frames into replies (end of stream or a corrupt frame becomes a "dead" reply), and
 * a thread copying the worker's stderr to this JVM's stderr while keeping its last lines for error
 * messages. Used by one dispatcher thread at a time.
 */
final class WorkerProcess {
  private static final Logger LOG = Logger.getLogger(ProcessesExecutor.class.getName());
  private static final WorkerProtocol.Frame DEAD = new WorkerProtocol.Frame((byte) -1, new byte[0]);

  /**
   * How worker JVMs are started.
   *
   * @param heapBound -Xmx, bytes
   * @param extraJvmArgs appended to the command's JVM options
   * @param gcSkipSlack the worker's pre-task GC skip slack ({@link WorkerMain}); 0 = a full GC
   *     before every task
   * @param postTaskGc with a slack, the worker also runs the GC check right after each reply
   * @param stats the worker prints its pre-task GC counts when it exits
   */
  record Settings(
      long heapBound,
      List<String> extraJvmArgs,
      long gcSkipSlack,
      boolean postTaskGc,
      boolean stats) {
    Settings(long heapBound, List<String> extraJvmArgs) {
      this(heapBound, extraJvmArgs, 0, true, false);
    }

    /**
     * The default skip slack for a heap bound: {@code min(64 MiB, heapBound / 8)}, the most garbage
     * of earlier tasks a task may start with (and be charged with, if it collects).
     */
    static long defaultGcSkipSlack(long heapBound) {
      return Math.min(64L << 20, heapBound / 8);
    }

    /**
     * The young generation: small ({@code max(2 MiB, heapBound / 32)}), so chunk-sized arrays are
     * allocated in the old generation and the heap bound is close to the capacity for a task's
     * chunks (a third of the heap in a young generation would be unusable for large arrays).
     */
    static long youngGen(long heapBound) {
      return Math.max(2L << 20, heapBound / 32);
    }

    /** The worker's command line. */
    List<String> command() {
      List<String> c = new ArrayList<>();
      c.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
      c.add("-Xmx" + heapBound);
      c.add("-Xmn" + youngGen(heapBound));
      c.add("-XX:+UseSerialGC");
      c.add("-XX:+ExitOnOutOfMemoryError");
      c.add("-XX:+DisplayVMOutputToStderr");
      c.add("-XX:MaxDirectMemorySize=" + Math.max(64L << 20, heapBound / 4));
      c.add("-Djdk.nio.maxCachedBufferSize=1048576");
      c.add("-Xshare:auto");
      if (ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()) {
        c.add("--add-modules");
        c.add("jdk.incubator.vector");
        c.addAll(FastTrig.JIT_OPTIONS);
      }
      for (String o : TileJitOptions.OPTIONS) {
        if (!c.contains(o)) {
          c.add(o); // quiet once, when FastTrig's options gave it
        }
      }
      String lib = System.getProperty("java.library.path");
      if (lib != null && !lib.isEmpty()) {
        c.add("-Djava.library.path=" + lib);
      }
      c.addAll(extraJvmArgs);
      c.add("-cp");
      c.add(System.getProperty("java.class.path"));
      c.add(WorkerMain.class.getName());
      c.addAll(new WorkerMain.Options(gcSkipSlack, postTaskGc, stats).args());
      return c;
    }
  }

  private final Settings settings;
  private final Process process;
  private final DataOutputStream out;
  private final BlockingQueue<WorkerProtocol.Frame> replies = new LinkedBlockingQueue<>();
  private final ChildProcess child;
  private final Set<Integer> defined = new HashSet<>();
  private final WorkerProtocol.Hello hello;
  private volatile String channelError;

  /** How long a starting worker JVM may take to say hello (it fails at once if it exits). */
  static final long START_DEADLINE_SECONDS = 600;

  private WorkerProcess(Settings settings, Process process) throws IOException {
    this.settings = settings;
    this.process = process;
    this.out = new DataOutputStream(new BufferedOutputStream(process.getOutputStream(), 1 << 16));
    DataInputStream in =
        new DataInputStream(new BufferedInputStream(process.getInputStream(), 1 << 16));
    Thread reader = new Thread(() -> readLoop(in), "cubed-worker-reader-" + process.pid());
    reader.setDaemon(true);
    reader.start();
    this.child = ChildProcess.follow(process, "cubed worker");
    WorkerProtocol.Frame f;
    try {
      // a worker that dies says so at once (DEAD); one still starting on a busy machine (JVM
      // start, class loading under load) gets minutes
      f = replies.poll(START_DEADLINE_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while a worker process started", e);
    }
    if (f == null || f.type() != WorkerProtocol.HELLO) {
      process.destroyForcibly();
      throw new IOException(
          "processes executor: a worker JVM did not start ("
              + (f == null
                  ? "no hello within " + START_DEADLINE_SECONDS + " s"
                  : "it exited with code " + child.exitCode(5))
              + "); command: "
              + String.join(" ", settings.command())
              + "; its stderr: "
              + child.text());
    }
    hello = WorkerProtocol.readHello(f);
  }

  /** Starts a worker and waits for its hello. */
  static WorkerProcess start(Settings settings) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(settings.command());
    pb.redirectInput(ProcessBuilder.Redirect.PIPE);
    pb.redirectOutput(ProcessBuilder.Redirect.PIPE);
    pb.redirectError(ProcessBuilder.Redirect.PIPE);
    return new WorkerProcess(settings, pb.start());
  }

  long pid() {
    return process.pid();
  }

  long heapBound() {
    return settings.heapBound();
  }

  Settings settings() {
    return settings;
  }

  /**
   * Tells the idle worker to forget its task functions (it goes back to the pool); false if the
   * channel is broken.
   */
  boolean reset() {
    try {
      WorkerProtocol.write(out, WorkerProtocol.RESET, new byte[0]);
      defined.clear();
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Sends SIGKILL without waiting (JVM exit). */
  void destroy() {
    process.destroyForcibly();
  }

  /** Heap used by the idle worker after a GC, bytes. */
  long idleHeap() {
    return hello.heapAfterGc();
  }

  /** The idle worker's resident set size, bytes (-1 off Linux). */
  long idleRss() {
    return hello.rss();
  }

  ProcessHandle handle() {
    return process.toHandle();
  }

  boolean isAlive() {
    return process.isAlive() && channelError == null;
  }

  private void readLoop(DataInputStream in) {
    try {
      while (true) {
        replies.add(WorkerProtocol.read(in));
      }
    } catch (EOFException e) {
      channelError = "end of stream";
    } catch (IOException e) {
      channelError = e.getMessage();
    } finally {
      replies.add(DEAD);
    }
  }

  /** Result of one task: measurements on success, or the remote failure. */
  record Reply(WorkerProtocol.Measured measured, WorkerTaskException failure) {}

  /**
   * Runs one task in the worker and waits for it; ships the op's function first if this worker has
   * not got it yet.
   *
   * @throws WorkerDiedException if the worker died or its channel broke (it is killed then)
   * @throws InterruptedException if this thread was interrupted (timeout, a backup won, the compute
   *     ended): the worker is killed, as its task cannot be stopped otherwise
   */
  Reply run(int op, byte[] function, long[] key, String what)
      throws WorkerDiedException, InterruptedException {
    try {
      if (op >= 0 && !defined.contains(op)) {
        WorkerProtocol.write(out, WorkerProtocol.DEFINE, WorkerProtocol.define(op, function));
        defined.add(op);
      }
      WorkerProtocol.write(out, WorkerProtocol.TASK, WorkerProtocol.task(op, key));
    } catch (IOException e) {
      throw died(what, "writing to it failed: " + e.getMessage());
    }
    WorkerProtocol.Frame f;
    try {
      f = replies.take();
    } catch (InterruptedException e) {
      kill();
      throw e;
    }
    try {
      if (f.type() == WorkerProtocol.OK) {
        return new Reply(WorkerProtocol.readOk(f), null);
      }
      if (f.type() == WorkerProtocol.ERR) {
        WorkerProtocol.Failure fl = WorkerProtocol.readErr(f);
        return new Reply(
            null,
            new WorkerTaskException(
                fl.classChain(), fl.message(), fl.stackText(), "worker pid " + pid()));
      }
    } catch (IOException e) {
      kill();
      throw died(what, "its reply was unreadable: " + e.getMessage());
    }
    throw died(what, channelError == null ? "unexpected frame " + f.type() : channelError);
  }

  private WorkerDiedException died(String what, String how) {
    int code = child.exitCode(5);
    if (code == -1) {
      kill();
    }
    boolean oom = code == 3 || child.text().contains("OutOfMemoryError");
    String msg =
        oom
            ? String.format(
                "java.lang.OutOfMemoryError: worker process %d ran out of heap during %s"
                    + " and exited (code %d): the task needed more than the worker heap bound -Xmx %,d"
                    + " bytes (%.1f MiB: allowedMem, or the op's projection with heapPerOp), so the projected memory is an under-estimate;"
                    + " worker stderr: %s",
                pid(),
                what,
                code,
                settings.heapBound(),
                settings.heapBound() / 1048576.0,
                child.text())
            : String.format(
                "worker process %d died during %s (%s; exit code %d%s); worker stderr: %s",
                pid(), what, how, code, code == 137 ? ", killed by SIGKILL" : "", child.text());
    return new WorkerDiedException(msg, pid(), code, oom);
  }

  /** Kills the worker (SIGKILL) and waits for it to exit. */
  void kill() {
    child.kill();
  }

  /** Asks the worker to exit; kills it if it has not within 5 s. */
  void shutdown() {
    if (process.isAlive()) {
      try {
        WorkerProtocol.write(out, WorkerProtocol.EXIT, new byte[0]);
        out.close();
      } catch (IOException e) {
        // already gone
      }
      try {
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
          LOG.warning("processes executor: worker " + pid() + " did not exit in 5 s; killing it");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    kill();
  }
}
