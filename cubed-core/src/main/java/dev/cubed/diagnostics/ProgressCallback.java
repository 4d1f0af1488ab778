package dev.cubed.diagnostics;

import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
import java.io.PrintStream;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.InteractiveConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarConsumer;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * One progress bar per operation, for any compute: a bar appears when an op starts, advances with
 * each finished task and stays (complete) when the op ends. Ops running concurrently each have
 * their own bar. On a terminal the bars are redrawn in place, one line each (ANSI cursor moves);
 * otherwise (a log file, CI) each bar prints a plain line when it starts, at most every few
 * seconds while it advances, and when it completes.
 */
public final class ProgressCallback implements Callback {
  private final PrintStream out;
  private final boolean interactive;
  private final Map<String, ProgressBar> bars = new ConcurrentHashMap<>();

  /** Bars on standard error, redrawn in place when it is a terminal. */
  public ProgressCallback() {
    this(System.err, stderrIsTerminal());
  }

  /**
   * Whether standard error is a terminal: on Linux, whether file descriptor 2 is a tty device
   * (so {@code ./cubed demo > out.json} still gets redrawn bars); elsewhere whether the JVM has a
   * console.
   */
  public static boolean stderrIsTerminal() {
    try {
      String target = java.nio.file.Files.readSymbolicLink(java.nio.file.Path.of(
          "/proc/self/fd/2")).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (java.io.IOException | UnsupportedOperationException | SecurityException e) {
      return System.console() != null;
    }
  }

  /**
   * Bars on {@code out}.
   *
   * @param interactive redraw in place (a terminal), or print plain lines (logs)
   */
  public ProgressCallback(PrintStream out, boolean interactive) {
    this.out = out;
    this.interactive = interactive;
  }

  @Override
  public void onOpStart(Events.OpStart e) {
    ProgressBarConsumer consumer = interactive ? new InteractiveConsoleProgressBarConsumer(out)
        : new LineConsumer(out);
    // names padded so the bars of concurrent ops line up
    ProgressBar bar = new ProgressBarBuilder().setTaskName(String.format("%-28s", e.opName()))
        .setInitialMax(e.numTasks())
        .setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(interactive ? 200 : 5000)
        .setConsumer(consumer).build();
    ProgressBar old = bars.put(e.opName(), bar);
    if (old != null) {
      old.close();
    }
  }

  @Override
  public void onTaskEnd(Events.TaskEnd e) {
    ProgressBar b = bars.get(e.opName());
    if (b != null) {
      b.step();
    }
  }

  @Override
  public void onOpEnd(Events.OpEnd e) {
    ProgressBar b = bars.remove(e.opName());
    if (b != null) {
      b.stepTo(b.getMax());
      b.close();
    }
  }

  @Override
  public void onComputeEnd(Events.ComputeEnd e) {
    // a failed compute leaves bars of unfinished ops: close them where they stopped
    bars.values().forEach(ProgressBar::close);
    bars.clear();
  }

  /** Prints each rendered bar as a line of its own, skipping repeats (non-terminal output). */
  static final class LineConsumer extends ConsoleProgressBarConsumer {
    private final PrintStream out;
    private String last = "";

    LineConsumer(PrintStream out) {
      super(out, 100);
      this.out = out;
    }

    @Override
    public int getMaxRenderedLength() {
      return 100;
    }

    @Override
    public synchronized void accept(String rendered) {
      String s = rendered.replace("\r", "").stripTrailing();
      // the elapsed/ETA part changes every second: compare the bar and counts only
      String key = s.replaceAll("\\(\\d+:\\d+:\\d+ / [^)]*\\)", "");
      if (!key.equals(last)) {
        last = key;
        out.println(s);
        out.flush();
      }
    }

    @Override
    public void close() {
      out.flush();
    }
  }
}
