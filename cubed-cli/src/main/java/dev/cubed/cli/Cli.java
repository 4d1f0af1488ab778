package dev.cubed.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Small helpers shared by the commands. */
final class Cli {
  private Cli() {}

  /** Heap in use after a GC (the worker's baseline), at least 20 MB. */
  static long measuredReserved() {
    Runtime rt = Runtime.getRuntime();
    System.gc();
    long used = rt.totalMemory() - rt.freeMemory();
    return Math.max(20_000_000L, used * 2);
  }

  /** Deletes a directory tree (best effort). */
  static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (java.util.stream.Stream<Path> s = Files.walk(dir)) {
      s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.deleteIfExists(p);
        } catch (IOException e) {
          // best effort
        }
      });
    } catch (IOException e) {
      // best effort
    }
  }

  /** Peak resident set size of this process (VmHWM), bytes; -1 if unknown. */
  static long peakRss() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmHWM:")) {
          String[] f = line.split("\\s+");
          return Long.parseLong(f[1]) * 1024;
        }
      }
    } catch (IOException | RuntimeException e) {
      return -1;
    }
    return -1;
  }
}
