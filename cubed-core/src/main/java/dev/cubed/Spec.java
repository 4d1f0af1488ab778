package dev.cubed;

import dev.cubed.plan.node.NodeDigest;
import dev.cubed.primitive.RechunkPlanner.ConsumeIntermediates;
import dev.cubed.primitive.RechunkPlanner.IntermediateCompression;
import dev.cubed.zarr.store.Stores;
import java.io.Serializable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Every setting of a computation, in one place. Immutable; build with {@link #builder()}, {@link
 * #fromFile(Path)} or {@link #fromEnv()}, or set settings by name with {@link Builder#set} (the one
 * parser of {@code key=value} settings, used by spec files, the environment, the CLI's {@code
 * --setting KEY=VALUE} and the Python package's {@code cubed_java.configure(...)}).
 *
 * <p>The settings (names in snake_case; case, '-' and '_' do not matter when given; "plan id" marks
 * the settings that change what a plan writes, which are part of its compute id, so a resume never
 * reuses intermediates planned under other values):
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>name</th><th>default</th><th>what it changes</th></tr>
 *   <tr><td>work_dir</td><td>java.io.tmpdir/cubed-USER</td><td>where intermediate arrays go (a
 *       local directory or a store URI such as s3://bucket/work)</td></tr>
 *   <tr><td>allowed_mem</td><td>2GB</td><td>memory a task may use; plan id (through the
 *       tasks)</td></tr>
 *   <tr><td>reserved_mem</td><td>100MB</td><td>the worker's own part of allowed_mem</td></tr>
 *   <tr><td>executor</td><td>threads</td><td>the executor by name (threads, processes,
 *       processes-strict, spark, beam, ...)</td></tr>
 *   <tr><td>workers</td><td>0</td><td>threads or worker processes (0: one per processor); also the plan's parallelism: reduction trees and which of their rounds fuse</td></tr>
 *   <tr><td>attempts</td><td>3</td><td>attempts per task (1: no retry)</td></tr>
 *   <tr><td>checksum</td><td>false</td><td>crc32c per chunk of the Zarr targets the engine
 *       creates</td></tr>
 *   <tr><td>max_input_blocks</td><td>10</td><td>fusion limit: input blocks of a fused task (0:
 *       no fusion); plan id (through the ops)</td></tr>
 *   <tr><td>max_source_arrays</td><td>4</td><td>fusion limit: stored arrays a fused task
 *       reads</td></tr>
 *   <tr><td>scan_chain_max_blocks</td><td>0</td><td>the most blocks along the axis a scan walks
 *       as a chain (one task per row, input read once) before the tree scan is used instead (0:
 *       from the blocks and workers, see {@link #scanChainMaxBlocks()}); plan id (through the
 *       ops)</td></tr>
 *   <tr><td>fold_groups</td><td>true</td><td>reductions over one input planned as fold groups;
 *       plan id</td></tr>
 *   <tr><td>tile_bytes</td><td>256KiB</td><td>tiles of tiled pointwise-to-reduction chains (0:
 *       untiled); plan id</td></tr>
 *   <tr><td>inline_max_bytes</td><td>4MiB</td><td>tiny plans up to this size run in the calling
 *       thread (0: never)</td></tr>
 *   <tr><td>rechunk_intermediate_compression</td><td>auto</td><td>compressor of rechunk
 *       intermediates: auto, none, lz4, project (alias default); plan id</td></tr>
 *   <tr><td>rechunk_consume_intermediates</td><td>auto</td><td>later rechunk stages delete the
 *       intermediate chunks they copied: auto, true, false; plan id</td></tr>
 *   <tr><td>intermediate_checksums</td><td>true</td><td>crc32c per chunk of intermediate arrays;
 *       plan id</td></tr>
 *   <tr><td>disk_check</td><td>true</td><td>refuse, before anything runs, a plan whose
 *       intermediate arrays exceed the free space of a local work directory's file system</td></tr>
 *   <tr><td>processes_keep_alive</td><td>30</td><td>seconds the processes executors keep idle
 *       workers for the next compute (0: off)</td></tr>
 *   <tr><td>processes_gc_skip</td><td>true</td><td>workers may skip the full GC before a task
 *       when the heap is near its idle baseline</td></tr>
 *   <tr><td>worker_jvm_options</td><td>(none)</td><td>extra JVM options of worker processes,
 *       space-separated</td></tr>
 *   <tr><td>worker_post_task_gc</td><td>true</td><td>workers run that GC check right after
 *       each reply</td></tr>
 *   <tr><td>worker_stats</td><td>false</td><td>workers print their pre-task GC counts on
 *       exit</td></tr>
 *   <tr><td>executor_option.KEY</td><td>(none)</td><td>an option of an engine executor (e.g.
 *       executor_option.spark.master)</td></tr>
 * </table>
 *
 * <p>Memory strings accept B, KB/MB/GB/TB (powers of 1000) and KiB/MiB/GiB/TiB (powers of 1024).
 * The environment variable {@code CUBED_SPEC_<NAME>} (e.g. {@code CUBED_SPEC_TILE_BYTES}) sets a
 * setting in {@link #fromEnv()} and {@link #fromFile}. The system properties that set some of these
 * before ({@code cubed.plan.foldGroups}, {@code cubed.plan.tileBytes}, {@code
 * cubed.inlineMaxBytes}, {@code cubed.rechunk.intermediateCompression}, {@code
 * cubed.rechunk.consumeIntermediates}, {@code cubed.intermediateChecksums}, {@code
 * cubed.processes.keepAliveSeconds}, {@code cubed.processes.gcSkip}, {@code
 * cubed.processes.workerJvmOptions}, {@code cubed.worker.postTaskGc}, {@code cubed.worker.stats})
 * still work: {@link #builder()} reads them as its starting values, through the same parser.
 *
 * <p>A local work directory must be private to the user running the compute: when a compute first
 * uses it, it is created with mode 0700 if missing, and refused if another user owns it or its
 * group or others may write it (see {@link dev.cubed.plan.durable.WorkDirs}). Building a spec
 * checks and creates nothing.
 */
public final class Spec implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Default allowed memory per task: 2 GB. */
  public static final long DEFAULT_ALLOWED_MEM = 2_000_000_000L;

  /** Default reserved memory per task: 100 MB. */
  public static final long DEFAULT_RESERVED_MEM = 100_000_000L;

  private final SpecValues v;

  private Spec(Builder b) {
    this.v = b.v.copy();
    v.check();
  }

  /** A spec with every default (and the old {@code -Dcubed.*} properties, see above). */
  public static Spec defaults() {
    return builder().build();
  }

  /**
   * A builder starting from the defaults, with the old {@code -Dcubed.*} system properties of the
   * class comment applied (through {@link Builder#set}). The first call in a JVM also starts
   * warming up node digests on a daemon thread ({@link NodeDigest#warmUpInBackground}).
   *
   * @throws IllegalArgumentException naming the property if one of them has a malformed value
   */
  public static Builder builder() {
    NodeDigest.warmUpInBackground();
    Builder b = new Builder(new SpecValues());
    SpecKeys.applyLegacyProperties(b, System::getProperty);
    return b;
  }

  /** A builder starting from the defaults only (no system properties). */
  static Builder plainBuilder() {
    return new Builder(new SpecValues());
  }

  /** A builder starting from this spec's values. */
  public Builder toBuilder() {
    return new Builder(v.copy());
  }

  /**
   * Directory holding intermediate arrays (a subdirectory per compute), when it is local.
   *
   * @throws IllegalStateException if the work directory is a store URI such as {@code s3://...}
   *     (use {@link #workLocation()})
   */
  public Path workDir() {
    if (!Stores.isLocal(v.workDir)) {
      throw new IllegalStateException(
          "the work directory "
              + v.workDir
              + " is not a local"
              + " directory; use Spec.workLocation()");
    }
    return Stores.localPath(v.workDir);
  }

  /**
   * Where intermediate arrays go, as given: a local path, a {@code file://} URI or a store URI such
   * as {@code s3://bucket/work} (needs the store's plugin, e.g. cubed-s3, on the classpath).
   */
  public String workLocation() {
    return v.workDir;
  }

  /** Memory a task may use, bytes. */
  public long allowedMem() {
    return v.allowedMem;
  }

  /** Memory of the worker itself, counted in every task's projected memory, bytes. */
  public long reservedMem() {
    return v.reservedMem;
  }

  /** The executor's name (see {@link dev.cubed.runtime.Executor#byName}). */
  public String executor() {
    return v.executor;
  }

  /**
   * Options for the executor chosen by name, by key (for example {@code spark.master}); they are
   * handed to its {@link dev.cubed.runtime.ExecutorFactory}. Unmodifiable, sorted by key; empty by
   * default.
   */
  public Map<String, String> executorOptions() {
    return Collections.unmodifiableMap(v.executorOptions);
  }

  /**
   * Workers of the executor chosen by name: threads of the threads executor, worker processes of
   * the processes executor (0 = one per available processor). Plans take it (or the processors) as
   * the tasks that run at once: the split of reductions without an explicit one, and whether a
   * reduction round is fused into a later round with fewer tasks.
   */
  public int workers() {
    return v.workers;
  }

  /**
   * The tasks that run at once on this spec's executor: {@link #workers()}, or the available
   * processors of this JVM when it is 0. Plans, reduction splits and the executor use this one
   * rule.
   */
  int workersOrProcessors() {
    return v.workers > 0 ? v.workers : Runtime.getRuntime().availableProcessors();
  }

  /** Attempts per task of the executor chosen by name (1 = no retry; default 3). */
  public int attempts() {
    return v.attempts;
  }

  /**
   * Whether the Zarr targets the engine creates ({@link Cubed#toZarr}, {@link Cubed#toZarrLazy},
   * the CLI's rechunk target) get a crc32c checksum per chunk (the Zarr v3 {@code crc32c} codec
   * after the compressor), checked whenever the chunk is read (default false). Intermediate arrays
   * are always checksummed; targets passed to {@link Cubed#store} keep their own codecs.
   */
  public boolean checksum() {
    return v.checksum;
  }

  /** Fusion limit: input blocks one fused task may read (default 10). */
  public int maxInputBlocks() {
    return v.maxInputBlocks;
  }

  /** Fusion limit: stored source arrays one fused task may read (default 4). */
  public int maxSourceArrays() {
    return v.maxSourceArrays;
  }

  /**
   * The most blocks along the axis that a cumulative sum or product walks as a chain (default 0:
   * automatic). A chain is one op whose tasks each walk one row of blocks in order, reading the
   * input once and writing only the output, with one task per row (the blocks off the axis); a
   * longer axis gets the tree scan, whose blocks are all independent but which reads the input
   * twice and writes and reads back the scanned blocks. Automatic: {@code 4 * ceil(rows * blocks /
   * workers) / ceil(rows / workers)}, i.e. the chain whenever there are at least a quarter as many
   * rows as workers.
   */
  public int scanChainMaxBlocks() {
    return v.scanChainMaxBlocks;
  }

  /** Whether reductions over one input are planned as fold groups (default true; plan id). */
  public boolean foldGroups() {
    return v.foldGroups;
  }

  /** Bytes per array tile of tiled pointwise-to-reduction chains (default 256 KiB, 0: untiled). */
  public long tileBytes() {
    return v.tileBytes;
  }

  /** Largest tiny plan (bytes) run in the calling thread (default 4 MiB, 0: never). */
  public long inlineMaxBytes() {
    return v.inlineMaxBytes;
  }

  /** The compressor of multistage rechunks' intermediate arrays (default AUTO; plan id). */
  public IntermediateCompression rechunkIntermediateCompression() {
    return v.rechunkIntermediateCompression;
  }

  /** Whether later rechunk stages delete the intermediates they copied (default AUTO; plan id). */
  public ConsumeIntermediates rechunkConsumeIntermediates() {
    return v.rechunkConsumeIntermediates;
  }

  /** Whether intermediate arrays get a crc32c checksum per chunk (default true; plan id). */
  public boolean intermediateChecksums() {
    return v.intermediateChecksums;
  }

  /**
   * Whether a compute first compares the plan's intermediate bytes (uncompressed, all of them: they
   * are deleted after the compute) with the usable space of a local work directory's file system
   * and refuses a plan that does not fit, before anything runs (default true; object-store work
   * directories are never checked). Turn it off when the space will be there (compressed
   * intermediates, a cleanup running beside).
   */
  public boolean diskCheck() {
    return v.diskCheck;
  }

  /** How long the processes executors keep idle workers for the next compute (default 30 s). */
  public Duration processesKeepAlive() {
    return v.processesKeepAlive;
  }

  /** Whether worker processes may skip the pre-task full GC (default true). */
  public boolean processesGcSkip() {
    return v.processesGcSkip;
  }

  /** Extra JVM options of worker processes (default none). */
  public List<String> workerJvmOptions() {
    return v.workerJvmOptions;
  }

  /** Whether worker processes run the GC check right after each reply (default true). */
  public boolean workerPostTaskGc() {
    return v.workerPostTaskGc;
  }

  /** Whether worker processes print their pre-task GC counts when they exit (default false). */
  public boolean workerStats() {
    return v.workerStats;
  }

  /**
   * Every setting of this spec by name (the names {@link Builder#set} reads, in the order of the
   * class comment's table), then {@code executor_option.KEY} for each executor option; values as
   * text {@link Builder#set} reads back.
   */
  public Map<String, String> settings() {
    return SpecKeys.values(this);
  }

  /**
   * Parses a memory size: a plain number of bytes or a number with a unit (B, KB, MB, GB, TB, KiB,
   * MiB, GiB, TiB; case-insensitive; a fraction is allowed, e.g. "1.5GB").
   *
   * @throws IllegalArgumentException if the text is not such a size
   */
  public static long parseBytes(String text) {
    return SpecText.parseBytes(text);
  }

  /**
   * Reads a spec from a file: a Java properties file, or a flat YAML file of {@code key: value}
   * lines (optionally under a top-level {@code spec:} key). Keys: the settings of the class
   * comment, read by {@link Builder#set} (e.g. {@code allowed_mem: 1GB}, {@code
   * executor_option.spark.master: local[2]}); then {@code CUBED_SPEC_*} environment variables
   * override.
   *
   * @throws IllegalArgumentException if the file cannot be read or holds a bad value
   */
  public static Spec fromFile(Path file) {
    Builder b = builder();
    SpecText.readFile(file)
        .forEach(
            (k, v) -> {
              try {
                b.set(k, v);
              } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
              }
            });
    return b.applyEnv(System.getenv()).build();
  }

  /**
   * The defaults overridden by the environment: {@code CUBED_SPEC_<NAME>} for each setting of the
   * class comment (e.g. {@code CUBED_SPEC_ALLOWED_MEM=1GB}, {@code CUBED_SPEC_FOLD_GROUPS=false}).
   *
   * @throws IllegalArgumentException naming the variable if one has a malformed value
   */
  public static Spec fromEnv() {
    return builder().applyEnv(System.getenv()).build();
  }

  /**
   * The work directory (credentials redacted), memory, executor, workers and attempts, then every
   * other setting that differs from its default, then the executor options.
   */
  @Override
  public String toString() {
    return SpecText.describe(this);
  }

  /** Builder of {@link Spec}. */
  public static final class Builder {
    private final SpecValues v;

    private Builder(SpecValues v) {
      this.v = v;
    }

    /** See {@link Spec#foldGroups()}. */
    public Builder foldGroups(boolean on) {
      v.foldGroups = on;
      return this;
    }

    /** See {@link Spec#tileBytes()}. */
    public Builder tileBytes(long bytes) {
      v.tileBytes = bytes;
      return this;
    }

    /** See {@link Spec#inlineMaxBytes()}. */
    public Builder inlineMaxBytes(long bytes) {
      v.inlineMaxBytes = bytes;
      return this;
    }

    /** See {@link Spec#rechunkIntermediateCompression()}. */
    public Builder rechunkIntermediateCompression(IntermediateCompression c) {
      v.rechunkIntermediateCompression = Objects.requireNonNull(c);
      return this;
    }

    /** See {@link Spec#rechunkConsumeIntermediates()}. */
    public Builder rechunkConsumeIntermediates(ConsumeIntermediates c) {
      v.rechunkConsumeIntermediates = Objects.requireNonNull(c);
      return this;
    }

    /** See {@link Spec#intermediateChecksums()}. */
    public Builder intermediateChecksums(boolean on) {
      v.intermediateChecksums = on;
      return this;
    }

    /** See {@link Spec#diskCheck()}. */
    public Builder diskCheck(boolean on) {
      v.diskCheck = on;
      return this;
    }

    /**
     * See {@link Spec#processesKeepAlive()}.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder processesKeepAlive(Duration idle) {
      if (idle.isNegative()) {
        throw new IllegalArgumentException("Spec: processes_keep_alive must be >= 0, got " + idle);
      }
      v.processesKeepAlive = idle;
      return this;
    }

    /** See {@link Spec#processesGcSkip()}. */
    public Builder processesGcSkip(boolean on) {
      v.processesGcSkip = on;
      return this;
    }

    /** See {@link Spec#workerJvmOptions()}. */
    public Builder workerJvmOptions(List<String> options) {
      v.workerJvmOptions = List.copyOf(options);
      return this;
    }

    /** See {@link Spec#workerPostTaskGc()}. */
    public Builder workerPostTaskGc(boolean on) {
      v.workerPostTaskGc = on;
      return this;
    }

    /** See {@link Spec#workerStats()}. */
    public Builder workerStats(boolean on) {
      v.workerStats = on;
      return this;
    }

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
        v.executorOptions.remove(key);
      } else {
        v.executorOptions.put(key, value);
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
      v.attempts = n;
      return this;
    }

    /** Sets the threads executor's worker count (0 = one per available processor). */
    public Builder workers(int n) {
      v.workers = n;
      return this;
    }

    /** Sets the work directory. */
    public Builder workDir(Path dir) {
      v.workDir = Objects.requireNonNull(dir).toString();
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
      v.workDir = uriOrPath;
      return this;
    }

    /** Sets allowedMem in bytes. */
    public Builder allowedMem(long bytes) {
      v.allowedMem = bytes;
      return this;
    }

    /** Sets allowedMem from a size string such as "2GB". */
    public Builder allowedMem(String size) {
      return allowedMem(parseBytes(size));
    }

    /** Sets reservedMem in bytes. */
    public Builder reservedMem(long bytes) {
      v.reservedMem = bytes;
      return this;
    }

    /** Sets reservedMem from a size string such as "100MB". */
    public Builder reservedMem(String size) {
      return reservedMem(parseBytes(size));
    }

    /** Sets the executor name. */
    public Builder executor(String name) {
      v.executor = Objects.requireNonNull(name);
      return this;
    }

    /**
     * Whether the Zarr targets the engine creates get a crc32c checksum per chunk (see {@link
     * Spec#checksum()}; default false).
     */
    public Builder checksum(boolean on) {
      v.checksum = on;
      return this;
    }

    /** Sets the fusion limit on input blocks per task. */
    public Builder maxInputBlocks(int n) {
      v.maxInputBlocks = n;
      return this;
    }

    /**
     * Sets the most blocks a scan walks as a chain (0: automatic; see {@link
     * Spec#scanChainMaxBlocks()}).
     */
    public Builder scanChainMaxBlocks(int n) {
      v.scanChainMaxBlocks = n;
      return this;
    }

    /** Sets the fusion limit on stored source arrays per task. */
    public Builder maxSourceArrays(int n) {
      v.maxSourceArrays = n;
      return this;
    }

    /**
     * Sets one setting by its name (the one parser of settings: spec files, the environment, the
     * CLI's {@code --setting} and the Python package's {@code configure} use it): a name of the
     * class comment's table, or {@code executor_option.KEY}. Case, '-' and '_' do not matter, a
     * {@code spec.} prefix is ignored, and the old system property names (e.g. {@code
     * cubed.plan.foldGroups}) are accepted.
     *
     * @throws IllegalArgumentException for an unknown key (listing the known ones) or a malformed
     *     value (naming the key and the values it allows)
     */
    public Builder set(String key, String value) {
      SpecKeys.set(this, key, value);
      return this;
    }

    /** Sets every {@code key=value} of a map with {@link #set}, in its order. */
    public Builder set(Map<String, String> settings) {
      settings.forEach(this::set);
      return this;
    }

    Builder applyEnv(Map<String, String> env) {
      SpecKeys.applyEnv(this, env);
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
