package dev.cubed;

import dev.cubed.primitive.RechunkPlanner.ConsumeIntermediates;
import dev.cubed.primitive.RechunkPlanner.IntermediateCompression;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The one parser of {@code key=value} settings (see {@link Spec} for the table): used by {@link
 * Spec.Builder#set}, spec files, the environment ({@code CUBED_SPEC_<KEY>}), the old {@code
 * -Dcubed.*} system properties, the CLI's {@code --setting} and the Python package's {@code
 * configure}.
 */
final class SpecKeys {
  private SpecKeys() {}

  /** Prefix of the environment variables of the settings: {@code CUBED_SPEC_<NAME IN CAPS>}. */
  static final String ENV_PREFIX = "CUBED_SPEC_";

  /**
   * One setting.
   *
   * @param name the canonical name (snake_case; '-' or '_' and case do not matter when given)
   * @param aliases other accepted names
   * @param legacyProperty the system property that set it before (read by {@link Spec#builder()}),
   *     or null
   * @param apply parses a value (throwing {@link IllegalArgumentException} naming the key and the
   *     allowed values) and sets it
   * @param show the value of a spec as text the parser reads back
   */
  record Key(
      String name,
      List<String> aliases,
      String legacyProperty,
      BiConsumer<Spec.Builder, String> apply,
      Function<Spec, String> show) {}

  static final List<Key> KEYS =
      List.of(
          key("work_dir", null, (b, v) -> b.workDir(v.strip()), Spec::workLocation),
          key(
              "allowed_mem",
              null,
              (b, v) -> b.allowedMem(SpecText.size("allowed_mem", v)),
              s -> Long.toString(s.allowedMem())),
          key(
              "reserved_mem",
              null,
              (b, v) -> b.reservedMem(SpecText.size("reserved_mem", v)),
              s -> Long.toString(s.reservedMem())),
          key("executor", null, (b, v) -> b.executor(v.strip()), Spec::executor, "executor_name"),
          key(
              "workers",
              null,
              (b, v) -> b.workers(SpecText.count("workers", v, 0)),
              s -> Integer.toString(s.workers())),
          key(
              "attempts",
              null,
              (b, v) -> b.attempts(SpecText.count("attempts", v, 1)),
              s -> Integer.toString(s.attempts())),
          key(
              "checksum",
              null,
              (b, v) -> b.checksum(SpecText.bool("checksum", v)),
              s -> Boolean.toString(s.checksum()),
              "checksums"),
          key(
              "max_input_blocks",
              null,
              (b, v) -> b.maxInputBlocks(SpecText.count("max_input_blocks", v, 0)),
              s -> Integer.toString(s.maxInputBlocks())),
          key(
              "max_source_arrays",
              null,
              (b, v) -> b.maxSourceArrays(SpecText.count("max_source_arrays", v, 1)),
              s -> Integer.toString(s.maxSourceArrays())),
          key(
              "scan_chain_max_blocks",
              null,
              (b, v) -> b.scanChainMaxBlocks(SpecText.count("scan_chain_max_blocks", v, 0)),
              s -> Integer.toString(s.scanChainMaxBlocks())),
          key(
              "fold_groups",
              "cubed.plan.foldGroups",
              (b, v) -> b.foldGroups(SpecText.bool("fold_groups", v)),
              s -> Boolean.toString(s.foldGroups())),
          key(
              "tile_bytes",
              "cubed.plan.tileBytes",
              (b, v) -> b.tileBytes(SpecText.size("tile_bytes", v)),
              s -> Long.toString(s.tileBytes())),
          key(
              "inline_max_bytes",
              "cubed.inlineMaxBytes",
              (b, v) -> b.inlineMaxBytes(SpecText.size("inline_max_bytes", v)),
              s -> Long.toString(s.inlineMaxBytes())),
          key(
              "rechunk_intermediate_compression",
              "cubed.rechunk.intermediateCompression",
              (b, v) ->
                  b.rechunkIntermediateCompression(
                      SpecText.choice(
                          "rechunk_intermediate_compression",
                          v.strip().equalsIgnoreCase("default") ? "project" : v,
                          IntermediateCompression.class)),
              s -> lower(s.rechunkIntermediateCompression())),
          key(
              "rechunk_consume_intermediates",
              "cubed.rechunk.consumeIntermediates",
              (b, v) ->
                  b.rechunkConsumeIntermediates(
                      SpecText.choice(
                          "rechunk_consume_intermediates", v, ConsumeIntermediates.class)),
              s -> lower(s.rechunkConsumeIntermediates())),
          key(
              "intermediate_checksums",
              "cubed.intermediateChecksums",
              (b, v) -> b.intermediateChecksums(SpecText.bool("intermediate_checksums", v)),
              s -> Boolean.toString(s.intermediateChecksums())),
          key(
              "disk_check",
              null,
              (b, v) -> b.diskCheck(SpecText.bool("disk_check", v)),
              s -> Boolean.toString(s.diskCheck())),
          key(
              "processes_keep_alive",
              "cubed.processes.keepAliveSeconds",
              (b, v) ->
                  b.processesKeepAlive(
                      Duration.ofSeconds(SpecText.count("processes_keep_alive", v, 0))),
              s -> Long.toString(s.processesKeepAlive().toSeconds())),
          key(
              "processes_gc_skip",
              "cubed.processes.gcSkip",
              (b, v) -> b.processesGcSkip(SpecText.bool("processes_gc_skip", v)),
              s -> Boolean.toString(s.processesGcSkip())),
          key(
              "worker_jvm_options",
              "cubed.processes.workerJvmOptions",
              (b, v) -> b.workerJvmOptions(words(v)),
              s -> String.join(" ", s.workerJvmOptions())),
          key(
              "worker_post_task_gc",
              "cubed.worker.postTaskGc",
              (b, v) -> b.workerPostTaskGc(SpecText.bool("worker_post_task_gc", v)),
              s -> Boolean.toString(s.workerPostTaskGc())),
          key(
              "worker_stats",
              "cubed.worker.stats",
              (b, v) -> b.workerStats(SpecText.bool("worker_stats", v)),
              s -> Boolean.toString(s.workerStats())));

  private static final String OPTION_PREFIX = "executor_option.";

  private static final Map<String, Key> BY_NAME = index();

  private static Key key(
      String name,
      String legacy,
      BiConsumer<Spec.Builder, String> apply,
      Function<Spec, String> show,
      String... aliases) {
    return new Key(name, List.of(aliases), legacy, apply, show);
  }

  private static Map<String, Key> index() {
    Map<String, Key> m = new LinkedHashMap<>();
    for (Key k : KEYS) {
      m.put(normal(k.name()), k);
      k.aliases().forEach(a -> m.put(normal(a), k));
      if (k.legacyProperty() != null) {
        m.put(k.legacyProperty().toLowerCase(Locale.ROOT), k);
      }
    }
    return Collections.unmodifiableMap(m);
  }

  /** A key as looked up: lower case, no '_' or '-', without a leading {@code spec.}. */
  private static String normal(String key) {
    String k = key.strip().toLowerCase(Locale.ROOT);
    if (k.startsWith("spec.")) {
      k = k.substring("spec.".length());
    }
    return k.replace("_", "").replace("-", "");
  }

  /** The names of every setting, in table order, for messages. */
  static String names() {
    List<String> n = new ArrayList<>();
    KEYS.forEach(k -> n.add(k.name()));
    n.add(OPTION_PREFIX + "KEY");
    return String.join(", ", n);
  }

  /**
   * Sets one setting by name (see {@link Spec.Builder#set}).
   *
   * @throws IllegalArgumentException for an unknown key or a malformed value, naming the key and
   *     what it allows
   */
  static void set(Spec.Builder b, String key, String value) {
    if (key == null || value == null) {
      throw new IllegalArgumentException(
          "Spec: a setting needs a key and a value, got " + key + "=" + value);
    }
    String raw = key.strip();
    String lower = raw.toLowerCase(Locale.ROOT);
    for (String prefix : new String[] {"spec.", ""}) {
      for (String opt : new String[] {"executor_option.", "executor-option.", "executoroption."}) {
        if (lower.startsWith(prefix + opt)) {
          b.executorOption(raw.substring(prefix.length() + opt.length()), value.strip());
          return;
        }
      }
    }
    Key k = BY_NAME.get(lower);
    if (k == null) {
      k = BY_NAME.get(normal(raw));
    }
    if (k == null) {
      if (normal(raw).equals("spec")) {
        return; // the top-level "spec:" line of a YAML spec file
      }
      throw new IllegalArgumentException(
          "Spec: unknown key '" + key + "' (known: " + names() + ")");
    }
    k.apply().accept(b, value);
  }

  /**
   * Applies the {@code CUBED_SPEC_<NAME>} variables of an environment (e.g. {@code
   * CUBED_SPEC_ALLOWED_MEM=1GB}, {@code CUBED_SPEC_FOLD_GROUPS=false}); blank ones are ignored.
   *
   * @throws IllegalArgumentException naming the variable when a value is malformed
   */
  static void applyEnv(Spec.Builder b, Map<String, String> env) {
    for (Key k : KEYS) {
      String var = ENV_PREFIX + k.name().toUpperCase(Locale.ROOT);
      String v = env.get(var);
      if (v != null && !v.isBlank()) {
        try {
          set(b, k.name(), v);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(var + ": " + e.getMessage(), e);
        }
      }
    }
  }

  /**
   * Applies the old system properties ({@code -Dcubed.plan.foldGroups=false} and the others of
   * {@link Key#legacyProperty()}), kept as input to this parser.
   *
   * @throws IllegalArgumentException naming the property when a value is malformed
   */
  static void applyLegacyProperties(Spec.Builder b, Function<String, String> properties) {
    for (Key k : KEYS) {
      if (k.legacyProperty() == null) {
        continue;
      }
      String v = properties.apply(k.legacyProperty());
      if (v != null) {
        try {
          set(b, k.name(), v);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("-D" + k.legacyProperty() + ": " + e.getMessage(), e);
        }
      }
    }
  }

  /** Every setting of a spec by canonical name, then its executor options. */
  static Map<String, String> values(Spec s) {
    Map<String, String> m = new LinkedHashMap<>();
    for (Key k : KEYS) {
      m.put(k.name(), k.show().apply(s));
    }
    s.executorOptions().forEach((k, v) -> m.put(OPTION_PREFIX + k, v));
    return m;
  }

  private static List<String> words(String value) {
    String v = value.strip();
    return v.isEmpty() ? List.of() : Arrays.asList(v.split("\\s+"));
  }

  private static String lower(Enum<?> e) {
    return SpecText.lower(e);
  }
}
