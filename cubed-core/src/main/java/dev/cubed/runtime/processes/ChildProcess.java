package dev.cubed.runtime.processes;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.TimeUnit;

/**
 * A worker process this JVM started (a worker JVM, a Python worker), as its owner handles it: a
 * daemon thread echoes each line of its stderr to this JVM's stderr with a prefix naming the
 * process and keeps the last {@link #TAIL_LINES} lines for failure messages ({@link #text()}; the
 * thread ends when the process closes its stderr), its exit code ({@link #exitCode}), and killing
 * it ({@link #kill}).
 */
public final class ChildProcess {
  /** How many of the last lines are kept. */
  public static final int TAIL_LINES = 20;

  private final Process process;
  private final Deque<String> tail = new ArrayDeque<>();

  private ChildProcess(Process process) {
    this.process = process;
  }

  /**
   * Starts following a process's stderr.
   *
   * @param label how echoed lines and the thread are named, e.g. "cubed worker" gives lines "[cubed
   *     worker PID] ..."
   */
  public static ChildProcess follow(Process process, String label) {
    ChildProcess s = new ChildProcess(process);
    Thread t =
        new Thread(
            () -> s.loop("[" + label + " " + process.pid() + "] "),
            label.replace(' ', '-') + "-stderr-" + process.pid());
    t.setDaemon(true);
    t.start();
    return s;
  }

  private void loop(String prefix) {
    try (BufferedReader r =
        new BufferedReader(
            new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        synchronized (tail) {
          tail.addLast(line);
          if (tail.size() > TAIL_LINES) {
            tail.removeFirst();
          }
        }
        System.err.println(prefix + line);
      }
    } catch (IOException e) {
      // the process is gone
    }
  }

  /** The last lines so far joined by " | ", or "(empty)". */
  public String text() {
    synchronized (tail) {
      return tail.isEmpty() ? "(empty)" : String.join(" | ", tail);
    }
  }

  /**
   * The process's exit code once it has exited, waiting up to {@code waitSeconds}; -1 if it is
   * still running then (or the wait was interrupted: the interrupt is kept).
   */
  public int exitCode(long waitSeconds) {
    try {
      if (process.waitFor(waitSeconds, TimeUnit.SECONDS)) {
        return process.exitValue();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return -1;
  }

  /** Kills the process (SIGKILL) and waits up to 10 s for it to exit; an interrupt is kept. */
  public void kill() {
    process.destroyForcibly();
    boolean interrupted = Thread.interrupted();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      interrupted = true;
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
