package dev.cubed;

import dev.cubed.zarr.store.Stores;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;

/**
 * Values of settings as text: sizes, booleans, counts, choices, spec files and a spec shown as text
 * ({@link Spec}).
 */
final class SpecText {
  private SpecText() {}

  /** See {@link Spec#parseBytes}. */
  static long parseBytes(String text) {
    String s = text.trim().toUpperCase(Locale.ROOT).replace(" ", "").replace("_", "");
    int i = 0;
    while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
      i++;
    }
    if (i == 0) {
      throw new IllegalArgumentException(
          "parseBytes: '"
              + text
              + "' is not a memory size (expected e.g. 2GB, 500MB, 1GiB or a number of bytes)");
    }
    double num = Double.parseDouble(s.substring(0, i));
    String unit = s.substring(i);
    double mult =
        switch (unit) {
          case "", "B" -> 1;
          case "K", "KB" -> 1e3;
          case "M", "MB" -> 1e6;
          case "G", "GB" -> 1e9;
          case "T", "TB" -> 1e12;
          case "KIB" -> 1024.0;
          case "MIB" -> 1024.0 * 1024;
          case "GIB" -> 1024.0 * 1024 * 1024;
          case "TIB" -> 1024.0 * 1024 * 1024 * 1024;
          default ->
              throw new IllegalArgumentException(
                  "parseBytes: unknown unit '"
                      + unit
                      + "' in '"
                      + text
                      + "' (use B, KB, MB, GB, TB, KiB, MiB, GiB or TiB)");
        };
    return Math.round(num * mult);
  }

  /**
   * The {@code key -> value} lines of a spec file: a Java properties file, or a flat YAML file of
   * {@code key: value} lines (optionally under a top-level {@code spec:} key).
   *
   * @throws IllegalArgumentException if the file cannot be read
   */
  static Map<String, String> readFile(Path file) {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file)) {
      if (file.toString().endsWith(".yaml") || file.toString().endsWith(".yml")) {
        for (String line : Files.readAllLines(file)) {
          String t = line.strip();
          int c = t.indexOf(':');
          if (t.isEmpty() || t.startsWith("#") || c < 0) {
            continue;
          }
          String v = t.substring(c + 1).strip();
          if (v.length() >= 2 && (v.startsWith("\"") || v.startsWith("'"))) {
            v = v.substring(1, v.length() - 1);
          }
          if (!v.isEmpty()) {
            p.setProperty(t.substring(0, c).strip(), v);
          }
        }
      } else {
        p.load(r);
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("Spec.fromFile: cannot read " + file + ": " + e, e);
    }
    Map<String, String> m = new LinkedHashMap<>();
    for (String k : new TreeSet<>(p.stringPropertyNames())) {
      m.put(k, p.getProperty(k));
    }
    return m;
  }

  static boolean bool(String key, String value) {
    return switch (value.strip().toLowerCase(Locale.ROOT)) {
      case "true", "yes", "on", "1" -> true;
      case "false", "no", "off", "0" -> false;
      default -> throw bad(key, value, "true or false (yes/no, on/off and 1/0 work too)");
    };
  }

  static int count(String key, String value, int min) {
    try {
      int n = Integer.parseInt(value.strip());
      if (n >= min) {
        return n;
      }
    } catch (NumberFormatException e) {
      // the message below
    }
    throw bad(key, value, "a whole number >= " + min);
  }

  static long size(String key, String value) {
    long n;
    try {
      n = parseBytes(value);
    } catch (IllegalArgumentException e) {
      throw bad(
          key,
          value,
          "a size: a number of bytes with an optional unit (B, KB, MB, GB, TB, KiB, MiB, GiB, TiB)");
    }
    if (n < 0) {
      throw bad(key, value, "a size >= 0");
    }
    return n;
  }

  static <E extends Enum<E>> E choice(String key, String value, Class<E> type) {
    for (E e : type.getEnumConstants()) {
      if (e.name().equalsIgnoreCase(value.strip())) {
        return e;
      }
    }
    List<String> allowed = new ArrayList<>();
    for (E e : type.getEnumConstants()) {
      allowed.add(lower(e));
    }
    throw bad(key, value, "one of " + String.join(", ", allowed));
  }

  static String lower(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT);
  }

  private static IllegalArgumentException bad(String key, String value, String allowed) {
    return new IllegalArgumentException(
        "Spec: " + key + ": '" + value.strip() + "' is not " + allowed);
  }

  /** {@link Spec#toString()}: see there. */
  static String describe(Spec spec) {
    Map<String, String> mine = spec.settings();
    Map<String, String> defaults = Spec.plainBuilder().build().settings();
    StringBuilder sb =
        new StringBuilder("Spec[workDir=")
            .append(Stores.redact(spec.workLocation()))
            .append(", allowedMem=")
            .append(spec.allowedMem())
            .append(", reservedMem=")
            .append(spec.reservedMem())
            .append(", executor=")
            .append(spec.executor())
            .append(", workers=")
            .append(spec.workers())
            .append(", attempts=")
            .append(spec.attempts());
    List<String> shown =
        List.of("work_dir", "allowed_mem", "reserved_mem", "executor", "workers", "attempts");
    mine.forEach(
        (k, value) -> {
          if (!shown.contains(k)
              && !k.startsWith("executor_option.")
              && !value.equals(defaults.get(k))) {
            sb.append(", ").append(k).append('=').append(value);
          }
        });
    if (!spec.executorOptions().isEmpty()) {
      sb.append(", executorOptions=").append(spec.executorOptions());
    }
    return sb.append(']').toString();
  }
}
