package dev.cubed.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Measures the peak resident set size of this JVM and all its descendant processes (worker JVMs)
 * while a workload runs, on Linux.
 *
 * <p>The peak of this process is read exactly from {@code VmHWM} in {@code /proc/self/status} (the
 * kernel's high-water mark). The process tree's peak is the maximum, over samples taken every
 * {@code intervalMillis}, of the summed {@code VmRSS} of this process and its descendants; it is
 * the larger of the two that {@link #peakBytes()} reports. Where /proc is missing it reports -1.
 */
public final class PeakRssMonitor implements AutoCloseable {
  private final Thread sampler;
  private volatile boolean running = true;
  private volatile long treePeak;

  private PeakRssMonitor(long intervalMillis) {
    if (intervalMillis <= 0) {
      sampler = null;
      return;
    }
    sampler =
        new Thread(
            () -> {
              while (running) {
                treePeak = Math.max(treePeak, treeRss());
                try {
                  Thread.sleep(intervalMillis);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "peak-rss-monitor");
    sampler.setDaemon(true);
    sampler.start();
  }

  /** Starts sampling now. */
  public static PeakRssMonitor start(long intervalMillis) {
    return new PeakRssMonitor(intervalMillis);
  }

  /**
   * A monitor of this JVM alone, for runs that start no worker processes (the threads executor):
   * its {@link #peakBytes()} is the kernel's exact high-water mark {@code VmHWM}, and no sampler
   * thread runs. The sampler's pass over the process table every few milliseconds costs CPU the
   * measured run would otherwise have (on a machine with many processes, a visible share of a short
   * run's samples).
   */
  public static PeakRssMonitor selfOnly() {
    return new PeakRssMonitor(0);
  }

  /** Peak RSS in bytes of this JVM and its descendants so far, or -1 if /proc is unavailable. */
  public long peakBytes() {
    long self = kb(statusField(Path.of("/proc/self/status"), "VmHWM:"));
    if (self < 0) {
      return -1;
    }
    if (sampler == null) {
      return self;
    }
    return Math.max(self, Math.max(treePeak, treeRss()));
  }

  @Override
  public void close() {
    running = false;
    if (sampler != null) {
      sampler.interrupt();
    }
  }

  /**
   * Current summed RSS of this process and its descendants, in bytes. The descendants come from
   * {@link ProcessHandle#descendants()} (one native pass over the process table) and only their
   * status files are read: reading every process's status file in Java took about a tenth of the
   * CPU samples of a bench run on a machine with many processes.
   */
  static long treeRss() {
    long total = kb(statusField(Path.of("/proc/self/status"), "VmRSS:"));
    if (total < 0) {
      return total;
    }
    try {
      for (ProcessHandle h :
          (Iterable<ProcessHandle>) ProcessHandle.current().descendants()::iterator) {
        total += Math.max(0, kb(statusField(Path.of("/proc/" + h.pid() + "/status"), "VmRSS:")));
      }
    } catch (RuntimeException e) {
      // the process table changed or is not readable: this process alone
    }
    return total;
  }

  private static long kb(long v) {
    return v < 0 ? v : v * 1024;
  }

  /** The first number of a /proc status field (kB for memory fields), or -1 if absent. */
  private static long statusField(Path status, String field) {
    try {
      for (String line : Files.readAllLines(status)) {
        if (line.startsWith(field)) {
          String[] parts = line.substring(field.length()).trim().split("\\s+");
          return Long.parseLong(parts[0]);
        }
      }
    } catch (IOException | RuntimeException e) {
      return -1;
    }
    return -1;
  }
}
