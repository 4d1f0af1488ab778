package dev.cubed;

import java.io.IOException;
import java.io.Reader;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * Resources for a computation: where intermediate data go ({@code workDir}), the memory a task may
 * use ({@code allowedMem}), the part of it taken by the worker itself ({@code reservedMem}) and the
 * executor's name, and whether the targets the engine creates carry checksums ({@code checksum}).
 * Immutable; build with {@link #builder()}, {@link #fromFile(Path)} or {@link #fromEnv()}.
 * Defaults: workDir = {@code java.io.tmpdir/cubed-<user name>} (per user, see {@link
 * dev.cubed.plan.WorkDirs#defaultWorkDir()}), allowedMem 2 GB, reservedMem 100 MB, executor
 * "threads", checksum false. Memory strings accept B, KB/MB/GB/TB (powers of 1000) and
 * KiB/MiB/GiB/TiB (powers of 1024).
 *
 * <p>A local work directory must be private to the user running the compute: when a compute first
 * uses it, it is created with mode 0700 if missing, and refused if another user owns it or its
 * group or others may write it (see {@link dev.cubed.plan.WorkDirs}). Building a spec checks and
 * creates nothing.
 */
public final class Spec implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Default allowed memory per task: 2 GB. */
  public static final long DEFAULT_ALLOWED_MEM = 2_000_000_000L;

  /** Default reserved memory per task: 100 MB. */
  public static final long DEFAULT_RESERVED_MEM = 100_000_000L;

  private final String workDir;
  private final long allowedMem;
  private final long reservedMem;
  private final String executor;
  private final int maxInputBlocks;
  private final int maxSourceArrays;
  private final int workers;
  private final int attempts;
  private final boolean checksum;
  private final java.util.TreeMap<String, String> executorOptions;

  private Spec(Builder b) {
    this.workDir = b.workDir;
    this.allowedMem = b.allowedMem;
    this.reservedMem = b.reservedMem;
    this.executor = b.executor;
    this.maxInputBlocks = b.maxInputBlocks;
    this.maxSourceArrays = b.maxSourceArrays;
    this.workers = b.workers;
    this.attempts = b.attempts;
    this.checksum = b.checksum;
    this.executorOptions = new java.util.TreeMap<>(b.executorOptions);
    if (attempts < 1) {
      throw new IllegalArgumentException(
          "Spec: attempts must be >= 1 (1 = no retry), got " + attempts);
    }
    if (workers < 0) {
      throw new IllegalArgumentException(
          "Spec: workers must be >= 0 (0 = one per processor), got " + workers);
    }
    if (reservedMem < 0 || allowedMem <= reservedMem) {
      throw new IllegalArgumentException(
          "Spec: allowedMem ("
              + allowedMem
              + " B) must exceed reservedMem ("
              + reservedMem
              + " B), and reservedMem must be >= 0");
    }
  }

  /** A spec with every default. */
  public static Spec defaults() {
    return builder().build();
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from this spec's values. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.workDir = workDir;
    b.allowedMem = allowedMem;
    b.reservedMem = reservedMem;
    b.executor = executor;
    b.maxInputBlocks = maxInputBlocks;
    b.maxSourceArrays = maxSourceArrays;
    b.workers = workers;
    b.attempts = attempts;
    b.checksum = checksum;
    b.executorOptions.putAll(executorOptions);
    return b;
  }

  /**
   * Directory holding intermediate arrays (a subdirectory per compute), when it is local.
   *
   * @throws IllegalStateException if the work directory is a store URI such as {@code s3://...}
   *     (use {@link #workLocation()})
   */
  public Path workDir() {
    if (!dev.cubed.zarr.Stores.isLocal(workDir)) {
      throw new IllegalStateException(
          "the work directory "
              + workDir
              + " is not a local"
              + " directory; use Spec.workLocation()");
    }
    return dev.cubed.zarr.Stores.localPath(workDir);
  }

  /**
   * Where intermediate arrays go, as given: a local path, a {@code file://} URI or a store URI such
   * as {@code s3://bucket/work} (needs the store's plugin, e.g. cubed-s3, on the classpath).
   */
  public String workLocation() {
    return workDir;
  }

  /** Memory a task may use, bytes. */
  public long allowedMem() {
    return allowedMem;
  }

  /** Memory of the worker itself, counted in every task's projected memory, bytes. */
  public long reservedMem() {
    return reservedMem;
  }

  /** The executor's name (see {@link dev.cubed.runtime.Executor#byName}). */
  public String executor() {
    return executor;
  }

  /**
   * Options for the executor chosen by name, by key (for example {@code spark.master}); they are
   * handed to its {@link dev.cubed.runtime.ExecutorFactory}. Unmodifiable, sorted by key; empty by
   * default.
   */
  public Map<String, String> executorOptions() {
    return java.util.Collections.unmodifiableMap(executorOptions);
  }

  /**
   * Workers of the executor chosen by name: threads of the threads executor, worker processes of
   * the processes executor (0 = one per available processor).
   */
  public int workers() {
    return workers;
  }

  /** Attempts per task of the executor chosen by name (1 = no retry; default 3). */
  public int attempts() {
    return attempts;
  }

  /**
   * Whether the Zarr targets the engine creates ({@link Cubed#toZarr}, {@link Cubed#toZarrLazy},
   * the CLI's rechunk target) get a crc32c checksum per chunk (the Zarr v3 {@code crc32c} codec
   * after the compressor), checked whenever the chunk is read (default false). Intermediate arrays
   * are always checksummed; targets passed to {@link Cubed#store} keep their own codecs.
   */
  public boolean checksum() {
    return checksum;
  }

  /** Fusion limit: input blocks one fused task may read (default 10). */
  public int maxInputBlocks() {
    return maxInputBlocks;
  }

  /** Fusion limit: stored source arrays one fused task may read (default 4). */
  public int maxSourceArrays() {
    return maxSourceArrays;
  }

  /**
   * Parses a memory size: a plain number of bytes or a number with a unit (B, KB, MB, GB, TB, KiB,
   * MiB, GiB, TiB; case-insensitive; a fraction is allowed, e.g. "1.5GB").
   *
   * @throws IllegalArgumentException if the text is not such a size
   */
  public static long parseBytes(String text) {
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
   * Reads a spec from a file: a Java properties file, or a flat YAML file of {@code key: value}
   * lines (optionally under a top-level {@code spec:} key). Keys: work_dir (or workDir),
   * allowed_mem, reserved_mem, executor, workers, attempts, checksum (true/false), and {@code
   * executor_option.KEY} for each executor option KEY (e.g. {@code executor_option.spark.master:
   * local[2]}); then {@code CUBED_SPEC_*} environment variables override.
   *
   * @throws IllegalArgumentException if the file cannot be read or holds a bad value
   */
  public static Spec fromFile(Path file) {
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
    Builder b = builder();
    for (String k : p.stringPropertyNames()) {
      b.set(k, p.getProperty(k));
    }
    return b.applyEnv(System.getenv()).build();
  }

  /** The defaults overridden by {@code CUBED_SPEC_WORK_DIR}, {@code _ALLOWED_MEM}, etc. */
  public static Spec fromEnv() {
    return builder().applyEnv(System.getenv()).build();
  }

  @Override
  public String toString() {
    return "Spec[workDir="
        + dev.cubed.zarr.Stores.redact(workDir)
        + ", allowedMem="
        + allowedMem
        + ", reservedMem="
        + reservedMem
        + ", executor="
        + executor
        + ", workers="
        + workers
        + ", attempts="
        + attempts
        + (checksum ? ", checksum=true" : "")
        + (executorOptions.isEmpty() ? "" : ", executorOptions=" + executorOptions)
        + "]";
  }

  /** Builder of {@link Spec}. */
  public static final class Builder {
    private String workDir = dev.cubed.plan.WorkDirs.defaultWorkDir();
    private long allowedMem = DEFAULT_ALLOWED_MEM;
    private long reservedMem = DEFAULT_RESERVED_MEM;
    private String executor = "threads";
    private int maxInputBlocks = 10;
    private int maxSourceArrays = 4;
    private int workers;
    private int attempts = 3;
    private boolean checksum;
    private final java.util.TreeMap<String, String> executorOptions = new java.util.TreeMap<>();

    private Builder() {}

    /**
     * Sets one option of the executor chosen by name (see {@link Spec#executorOptions()}); a {@code
     * null} value removes it.
     *
     * @throws IllegalArgumentException if the key is blank
     */
    public Builder executorOption(String key, String value) {
      if (key == null || key.isBlank()) {
        throw new IllegalArgumentException("Spec: an executor option needs a non-empty key");
      }
      if (value == null) {
        executorOptions.remove(key);
      } else {
        executorOptions.put(key, value);
      }
      return this;
    }

    /** Sets several executor options (see {@link #executorOption}). */
    public Builder executorOptions(Map<String, String> options) {
      options.forEach(this::executorOption);
      return this;
    }

    /** Sets the attempts per task (1 = no retry) of the executor chosen by name. */
    public Builder attempts(int n) {
      this.attempts = n;
      return this;
    }

    /** Sets the threads executor's worker count (0 = one per available processor). */
    public Builder workers(int n) {
      this.workers = n;
      return this;
    }

    /** Sets the work directory. */
    public Builder workDir(Path dir) {
      this.workDir = Objects.requireNonNull(dir).toString();
      return this;
    }

    /**
     * Sets the work directory from a local path or a URI: {@code /tmp/cubed}, {@code
     * file:///tmp/cubed} or an object store location such as {@code s3://bucket/work}
     * (intermediates, completion markers and the fingerprint are then objects; see docs/s3.md).
     *
     * @throws IllegalArgumentException if the location is empty
     */
    public Builder workDir(String uriOrPath) {
      if (Objects.requireNonNull(uriOrPath).isBlank()) {
        throw new IllegalArgumentException("Spec: the work directory must not be empty");
      }
      this.workDir = uriOrPath;
      return this;
    }

    /** Sets allowedMem in bytes. */
    public Builder allowedMem(long bytes) {
      this.allowedMem = bytes;
      return this;
    }

    /** Sets allowedMem from a size string such as "2GB". */
    public Builder allowedMem(String size) {
      return allowedMem(parseBytes(size));
    }

    /** Sets reservedMem in bytes. */
    public Builder reservedMem(long bytes) {
      this.reservedMem = bytes;
      return this;
    }

    /** Sets reservedMem from a size string such as "100MB". */
    public Builder reservedMem(String size) {
      return reservedMem(parseBytes(size));
    }

    /** Sets the executor name. */
    public Builder executor(String name) {
      this.executor = Objects.requireNonNull(name);
      return this;
    }

    /**
     * Whether the Zarr targets the engine creates get a crc32c checksum per chunk (see {@link
     * Spec#checksum()}; default false).
     */
    public Builder checksum(boolean on) {
      this.checksum = on;
      return this;
    }

    /** Sets the fusion limit on input blocks per task. */
    public Builder maxInputBlocks(int n) {
      this.maxInputBlocks = n;
      return this;
    }

    /** Sets the fusion limit on stored source arrays per task. */
    public Builder maxSourceArrays(int n) {
      this.maxSourceArrays = n;
      return this;
    }

    /**
     * Sets one setting by its name, as spec files, the environment and the Python package's {@code
     * configure} give them: work_dir, allowed_mem, reserved_mem, executor, workers, attempts,
     * checksum (true/false), executor_option.KEY (case and '-'/'_' do not matter; a {@code spec.}
     * prefix is ignored).
     *
     * @throws IllegalArgumentException for an unknown key or a malformed value, naming it
     */
    public Builder set(String key, String value) {
      String raw = key.strip();
      for (String prefix :
          new String[] {
            "executor_option.", "executor-option.", "executorOption.", "spec.executor_option."
          }) {
        if (raw.startsWith(prefix)) {
          return executorOption(raw.substring(prefix.length()), value.strip());
        }
      }
      String k = key.toLowerCase(Locale.ROOT).replace("-", "_").replace("spec.", "");
      switch (k) {
        case "work_dir", "workdir" -> workDir(value.trim());
        case "allowed_mem", "allowedmem" -> allowedMem(value);
        case "reserved_mem", "reservedmem" -> reservedMem(value);
        case "executor", "executor_name" -> executor(value);
        case "workers" -> workers(Integer.parseInt(value.trim()));
        case "attempts" -> attempts(Integer.parseInt(value.trim()));
        case "checksum", "checksums" -> checksum(parseBoolean(k, value));
        case "spec" -> {}
        default ->
            throw new IllegalArgumentException(
                "Spec: unknown key '"
                    + key
                    + "' (known: work_dir, allowed_mem, reserved_mem, executor, workers, attempts,"
                    + " checksum, executor_option.KEY)");
      }
      return this;
    }

    private static boolean parseBoolean(String key, String value) {
      return switch (value.strip().toLowerCase(Locale.ROOT)) {
        case "true", "yes", "on", "1" -> true;
        case "false", "no", "off", "0" -> false;
        default ->
            throw new IllegalArgumentException(
                "Spec: " + key + ": '" + value.strip() + "' is not true or false");
      };
    }

    Builder applyEnv(Map<String, String> env) {
      String[][] keys = {
        {"CUBED_SPEC_WORK_DIR", "work_dir"},
        {"CUBED_SPEC_ALLOWED_MEM", "allowed_mem"},
        {"CUBED_SPEC_RESERVED_MEM", "reserved_mem"},
        {"CUBED_SPEC_EXECUTOR", "executor"},
        {"CUBED_SPEC_WORKERS", "workers"},
        {"CUBED_SPEC_ATTEMPTS", "attempts"},
        {"CUBED_SPEC_CHECKSUM", "checksum"}
      };
      for (String[] kv : keys) {
        String v = env.get(kv[0]);
        if (v != null && !v.isBlank()) {
          set(kv[1], v);
        }
      }
      return this;
    }

    /**
     * Builds the spec.
     *
     * @throws IllegalArgumentException if {@code allowedMem <= reservedMem}
     */
    public Spec build() {
      return new Spec(this);
    }
  }
}
