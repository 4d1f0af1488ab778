package dev.cubed.bridge;

import dev.cubed.nd.NDArray;
import dev.cubed.nd.Npy;
import dev.cubed.runtime.processes.ChildProcess;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One Python worker process ({@code python -m cubed_java._worker}) and its channel: its stdin (JVM
 * to worker) and stdout (worker to JVM), never a port. Frames are big-endian ({@link
 * DataOutputStream}): a type byte, then its fields; strings are {@code int32} length + UTF-8,
 * arrays in {@code .npy} format ({@link Npy}: its header says how many bytes follow).
 *
 * <ul>
 *   <li>worker, once at start: {@code 'H'}, pid ({@code int64});
 *   <li>{@code 'D'} key, pickle bytes: the function of one op (cloudpickle), sent once per worker;
 *   <li>{@code 'T'} key, dtype name, expected shape ({@code int32} ndim, {@code int64}s), inputs
 *       ({@code int32} count, arrays): one task;
 *   <li>worker: {@code 'O'} VmHWM during the task, the output array; or {@code 'E'} VmHWM, kind
 *       ({@code "shape"} for a block of the wrong shape or dtype, else {@code "error"}), the Python
 *       exception's type, message and traceback;
 *   <li>{@code 'X'}: exit.
 * </ul>
 *
 * <p>Used by one task thread at a time; {@link PythonWorkers}' monitor may kill it meanwhile.
 */
final class PythonWorker {

  /** How long a starting worker may take to say hello (it fails at once if it exits). */
  static final long START_DEADLINE_SECONDS = 600;

  final PythonWorkers.Kind kind;
  private final Process process;
  private final DataOutputStream out;
  private final DataInputStream in;
  private final ChildProcess child;
  private final Set<String> defined = new HashSet<>();

  /** Set by the monitor before it kills this worker: why (shown as the task's failure). */
  volatile String killedFor;

  /** The thread running a task here, its RSS bound and description (null when idle). */
  volatile Thread taskThread;

  volatile long rssBound;
  volatile String what;

  /** When this worker last went idle ({@link System#nanoTime}). */
  volatile long idleSince;

  private PythonWorker(PythonWorkers.Kind kind, Process process) throws IOException {
    this.kind = kind;
    this.process = process;
    this.out = new DataOutputStream(new BufferedOutputStream(process.getOutputStream(), 1 << 16));
    this.in = new DataInputStream(new BufferedInputStream(process.getInputStream(), 1 << 16));
    this.child = ChildProcess.follow(process, "cubed python worker");
    int type;
    try {
      // the hello comes once Python has imported NumPy and cloudpickle (seconds on a busy machine)
      type = in.read();
      if (type == 'H') {
        in.readLong();
      }
    } catch (IOException e) {
      type = -1;
    }
    if (type != 'H') {
      process.destroyForcibly();
      throw new IOException(
          "a Python worker did not start (exit code "
              + child.exitCode(5)
              + "); command: "
              + String.join(" ", kind.command())
              + "; its stderr: "
              + child.text()
              + ". The worker runs the Python that made the plan (sys.executable) with its"
              + " sys.path: cubed_java, numpy and cloudpickle must import there");
    }
  }

  /** Starts a worker and waits for its hello. */
  static PythonWorker start(PythonWorkers.Kind kind) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(kind.command());
    Map<String, String> env = pb.environment();
    env.put("PYTHONPATH", String.join(File.pathSeparator, kind.path()));
    // one BLAS thread per worker: the engine runs tasks side by side, and each BLAS thread
    // reserves its own buffers
    for (String v : List.of("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")) {
      env.putIfAbsent(v, "1");
    }
    env.put("PYTHONUNBUFFERED", "1");
    pb.redirectError(ProcessBuilder.Redirect.PIPE);
    Process p;
    try {
      p = pb.start();
    } catch (IOException e) {
      throw new IOException(
          "a Python worker did not start: "
              + String.join(" ", kind.command())
              + ": "
              + e.getMessage()
              + ". The worker runs the Python that made the plan (its sys.executable), which must"
              + " exist where the task runs",
          e);
    }
    return new PythonWorker(kind, p);
  }

  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process.isAlive() && killedFor == null;
  }

  /** The result of one task: the output block and the worker's VmHWM during the task. */
  record Result(NDArray block, long vmHwm) {}

  /**
   * Runs one task: ships the function if this worker has not got it, sends the input blocks and
   * waits for the output block.
   *
   * @throws PythonTaskException the function raised (retried by the engine's policy)
   * @throws IllegalArgumentException the function returned a block of the wrong shape or dtype
   * @throws PythonWorkerDiedException the worker died or was killed (it is not reused)
   */
  Result run(PyFunction f, List<NDArray> inputs, long[] expectShape) throws Exception {
    try {
      if (defined.add(f.key())) {
        out.write('D');
        str(f.key());
        out.writeInt(f.payload().length);
        out.write(f.payload());
      }
      out.write('T');
      str(f.key());
      str(f.dtype().typeString(false));
      out.writeInt(expectShape.length);
      for (long s : expectShape) {
        out.writeLong(s);
      }
      out.writeInt(inputs.size());
      for (NDArray a : inputs) {
        Npy.write(out, a); // Python reads the header, then exactly the array's bytes
      }
      out.flush();
      int type = in.read();
      if (type == 'O') {
        long hwm = in.readLong();
        NDArray block;
        try {
          block = Npy.read(in, "the output of " + what);
        } catch (IllegalArgumentException e) {
          throw died("its output was cut short or unreadable: " + e.getMessage());
        }
        return new Result(block, hwm);
      }
      if (type == 'E') {
        long hwm = in.readLong();
        String errKind = readStr();
        String type1 = readStr();
        String message = readStr();
        String trace = readStr();
        if (errKind.equals("shape")) {
          throw new IllegalArgumentException(message);
        }
        throw new PythonTaskException(
            "the Python function of "
                + what
                + " raised "
                + type1
                + ": "
                + message
                + " (in Python worker pid "
                + pid()
                + ", VmHWM "
                + hwm
                + " B)\n"
                + trace);
      }
      throw died(type == -1 ? "end of its output" : "unexpected frame " + type);
    } catch (EOFException e) {
      throw died("end of its output");
    } catch (IOException e) {
      if (e instanceof PythonWorkerDiedException) {
        throw e;
      }
      throw died(e.getMessage());
    }
  }

  private PythonWorkerDiedException died(String how) {
    String reason = killedFor;
    if (reason != null) {
      kill();
      return new PythonWorkerDiedException(reason);
    }
    int code = child.exitCode(5);
    if (code == -1) {
      kill();
    }
    return new PythonWorkerDiedException(
        String.format(
            "Python worker pid %d died during %s (%s; exit code %d%s); it is replaced by a new"
                + " worker for the next attempt; its stderr: %s",
            pid(), what, how, code, code == 137 ? ", killed by SIGKILL" : "", child.text()));
  }

  /** The worker's VmHWM (peak resident set since its last reset), bytes; -1 if unreadable. */
  long vmHwm() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/" + pid() + "/status"))) {
        if (line.startsWith("VmHWM:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
    } catch (IOException | RuntimeException e) {
      // gone, or not Linux
    }
    return -1;
  }

  /** Kills the worker (SIGKILL) and waits for it to exit. */
  void kill() {
    child.kill();
  }

  /** Asks an idle worker to exit (it also exits at the end of its stdin). */
  void shutdown() {
    try {
      out.write('X');
      out.close();
    } catch (IOException e) {
      // already gone
    }
    process.destroyForcibly();
  }

  private void str(String s) throws IOException {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    out.writeInt(b.length);
    out.write(b);
  }

  private String readStr() throws IOException {
    int n = in.readInt();
    if (n < 0 || n > (64 << 20)) {
      throw new IOException("corrupt channel: a string of " + n + " bytes");
    }
    return new String(in.readNBytes(n), StandardCharsets.UTF_8);
  }

  /** The Python function raised: retried as the engine's policy says for user code. */
  static final class PythonTaskException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    PythonTaskException(String message) {
      super(message);
    }
  }

  /**
   * The worker died or was killed (SIGKILL from outside, its RSS bound, a crash) during a task: an
   * IOException, so the task is retried, on a new worker.
   */
  static final class PythonWorkerDiedException extends IOException {
    private static final long serialVersionUID = 1L;

    PythonWorkerDiedException(String message) {
      super(message);
    }
  }
}
