package dev.cubed.diagnostics;

import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One progress bar per operation, for any compute: a bar appears when an op starts, advances with
 * each finished task and stays (complete) when the op ends. Ops running concurrently each have
 * their own bar. On a terminal the bars are redrawn in place, one line each (ANSI cursor moves,
 * five times a second); otherwise (a log file, CI) each bar prints a plain line when it starts, at
 * most every five seconds while it advances, and when it completes. A line reads {@code NAME 42%
 * [===== ] 21/50 (0:00:07 / 0:00:10)}: percent, bar, tasks done of all, elapsed and estimated
 * remaining time ({@code ?} before the first task ends). The rendering is this class's own, so the
 * core needs no terminal library.
 */
public final class ProgressCallback implements Callback {
  static final int BAR_WIDTH = 40;
  private static final long LINE_INTERVAL_MILLIS = 5000;
  private static final long REDRAW_MILLIS = 200;

  private final PrintStream out;
  private final boolean interactive;
  private final Map<String, Bar> bars = new ConcurrentHashMap<>();

  /** Bars in the order their ops started (interactive mode: the lines on screen). */
  private final List<Bar> order = new ArrayList<>();

  private int frozen;
  private int drawn;
  private ScheduledExecutorService redrawer;

  /** Bars on standard error, redrawn in place when it is a terminal. */
  public ProgressCallback() {
    this(System.err, stderrIsTerminal());
  }

  /**
   * Whether standard error is a terminal: on Linux, whether file descriptor 2 is a tty device (so
   * {@code ./cubed demo > out.json} still gets redrawn bars); elsewhere whether the JVM has a
   * console.
   */
  public static boolean stderrIsTerminal() {
    try {
      String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
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

  /** One op's bar. */
  static final class Bar {
    final String name;
    final long max;
    final long startMillis;
    final AtomicLong done = new AtomicLong();
    volatile boolean finished;
    long lastLineMillis;
    String lastLine = "";

    Bar(String name, long max, long startMillis) {
      this.name = name;
      this.max = max;
      this.startMillis = startMillis;
    }

    /** The bar as one line at {@code nowMillis}. */
    String render(long nowMillis) {
      long d = Math.min(done.get(), max);
      int pct = max == 0 ? 100 : (int) (100 * d / max);
      int filled = max == 0 ? BAR_WIDTH : (int) (BAR_WIDTH * d / max);
      long elapsed = Math.max(0, nowMillis - startMillis);
      String eta = d == 0 ? "?" : clock(d >= max ? 0 : elapsed * (max - d) / d);
      return String.format(
          Locale.ROOT,
          "%-28s %3d%% [%s%s] %d/%d (%s / %s)",
          name,
          pct,
          "=".repeat(filled),
          " ".repeat(BAR_WIDTH - filled),
          d,
          max,
          clock(elapsed),
          eta);
    }

    /** The line without its times (to print a log line only when the bar moved). */
    String withoutTimes(long nowMillis) {
      String s = render(nowMillis);
      return s.substring(0, s.lastIndexOf(" ("));
    }
  }

  /** {@code h:mm:ss}. */
  static String clock(long millis) {
    long s = millis / 1000;
    return String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
  }

  @Override
  public void onOpStart(Events.OpStart e) {
    Bar bar = new Bar(e.opName(), e.numTasks(), System.currentTimeMillis());
    Bar old = bars.put(e.opName(), bar);
    if (old != null) {
      old.finished = true;
    }
    if (interactive) {
      synchronized (this) {
        order.add(bar);
        if (redrawer == null) {
          redrawer =
              Executors.newSingleThreadScheduledExecutor(
                  r -> {
                    Thread t = new Thread(r, "cubed-progress");
                    t.setDaemon(true);
                    return t;
                  });
          redrawer.scheduleAtFixedRate(
              this::redraw, REDRAW_MILLIS, REDRAW_MILLIS, TimeUnit.MILLISECONDS);
        }
      }
      redraw();
    } else {
      printLine(bar, true);
    }
  }

  @Override
  public void onTaskEnd(Events.TaskEnd e) {
    Bar b = bars.get(e.opName());
    if (b != null) {
      b.done.incrementAndGet();
      if (!interactive) {
        printLine(b, false);
      }
    }
  }

  @Override
  public void onOpEnd(Events.OpEnd e) {
    Bar b = bars.remove(e.opName());
    if (b != null) {
      b.done.set(b.max);
      b.finished = true;
      if (interactive) {
        redraw();
      } else {
        printLine(b, true);
      }
    }
  }

  @Override
  public void onComputeEnd(Events.ComputeEnd e) {
    // a failed compute leaves bars of unfinished ops: they stay where they stopped
    bars.values().forEach(b -> b.finished = true);
    bars.clear();
    if (interactive) {
      ScheduledExecutorService r;
      synchronized (this) {
        r = redrawer;
        redrawer = null;
      }
      if (r != null) {
        r.shutdownNow();
      }
      redraw();
      synchronized (this) {
        order.clear();
        frozen = 0;
        drawn = 0;
      }
    }
  }

  /** Log mode: prints the bar's line if it moved and five seconds passed, or if {@code force}. */
  private void printLine(Bar b, boolean force) {
    long now = System.currentTimeMillis();
    synchronized (this) {
      if (!force && now - b.lastLineMillis < LINE_INTERVAL_MILLIS) {
        return;
      }
      String key = b.withoutTimes(now);
      if (key.equals(b.lastLine)) {
        return;
      }
      b.lastLine = key;
      b.lastLineMillis = now;
      out.println(b.render(now));
      out.flush();
    }
  }

  /**
   * Terminal mode: moves the cursor up over the bars drawn last time and draws them again. Bars at
   * the top that are complete stay on screen and leave the redrawn region, so it never grows beyond
   * the ops still running plus those started after them.
   */
  private synchronized void redraw() {
    if (frozen >= order.size() && drawn == 0) {
      return;
    }
    long now = System.currentTimeMillis();
    StringBuilder sb = new StringBuilder();
    if (drawn > 0) {
      sb.append("\033[").append(drawn).append('A');
    }
    sb.append('\r');
    for (int i = frozen; i < order.size(); i++) {
      sb.append(order.get(i).render(now)).append("\033[K").append(System.lineSeparator());
    }
    drawn = order.size() - frozen;
    while (frozen < order.size() && order.get(frozen).finished) {
      frozen++;
      drawn--;
    }
    out.print(sb);
    out.flush();
  }
}
