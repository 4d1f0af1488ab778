package dev.cubed.beam;

import java.util.Arrays;

/**
 * What one successful task reports back to the launcher, as one line of text (the form Beam's
 * string-set metrics and the stage's output carry): {@code
 * op;k0,k1,...;startMillis;endMillis;attempts;allocatedBytes;peakRss;worker}.
 *
 * @param op index of the operation in the compute
 * @param key the task's key
 * @param startMillis start of the first attempt, epoch ms
 * @param endMillis end of the successful attempt, epoch ms
 * @param attempts attempts used (1 = no retry)
 * @param allocatedBytes bytes the successful attempt's thread allocated, -1 if unknown
 * @param peakRss the peak resident set of the process of its own the task's function ran its work
 *     in (a Python worker), bytes; -1 if unknown or none
 * @param worker where it ran (host and runner thread, preceded by that process if any: "python
 *     worker pid P on HOST/THREAD"), never containing ';'
 */
record TaskReport(
    int op,
    long[] key,
    long startMillis,
    long endMillis,
    int attempts,
    long allocatedBytes,
    long peakRss,
    String worker) {

  /** The record as one line. */
  String encode() {
    StringBuilder b = new StringBuilder(64).append(op).append(';');
    for (int i = 0; i < key.length; i++) {
      if (i > 0) {
        b.append(',');
      }
      b.append(key[i]);
    }
    return b.append(';')
        .append(startMillis)
        .append(';')
        .append(endMillis)
        .append(';')
        .append(attempts)
        .append(';')
        .append(allocatedBytes)
        .append(';')
        .append(peakRss)
        .append(';')
        .append(worker.replace(';', '_'))
        .toString();
  }

  /**
   * Parses a line made by {@link #encode}.
   *
   * @throws IllegalArgumentException if the line is not such a record
   */
  static TaskReport decode(String line) {
    String[] f = line.split(";", 8);
    if (f.length != 8) {
      throw new IllegalArgumentException(
          "beam executor: task record '"
              + line
              + "' has "
              + f.length
              + " fields, expected 8 (op;key;start;end;attempts;allocated;"
              + "peakRss;worker)");
    }
    try {
      long[] key =
          f[1].isEmpty()
              ? new long[0]
              : Arrays.stream(f[1].split(",")).mapToLong(Long::parseLong).toArray();
      return new TaskReport(
          Integer.parseInt(f[0]),
          key,
          Long.parseLong(f[2]),
          Long.parseLong(f[3]),
          Integer.parseInt(f[4]),
          Long.parseLong(f[5]),
          Long.parseLong(f[6]),
          f[7]);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "beam executor: task record '" + line + "' has a malformed number: " + e.getMessage(), e);
    }
  }

  /** The key as text, for de-duplicating records of the same task. */
  String keyText() {
    return Arrays.toString(key);
  }
}
