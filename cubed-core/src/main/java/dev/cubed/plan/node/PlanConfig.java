package dev.cubed.plan.node;

import dev.cubed.primitive.RechunkPlanner;
import dev.cubed.primitive.RechunkPlanner.ConsumeIntermediates;
import dev.cubed.primitive.RechunkPlanner.IntermediateCompression;
import dev.cubed.zarr.store.Stores;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The settings a plan needs (the API layer's {@code Spec} converts to this; every setting is
 * described, with its name and default, in {@code dev.cubed.Spec}). Immutable; made with {@link
 * #builder(String)} and changed with {@link #toBuilder()}.
 *
 * <p>Settings that change what a plan writes (its tasks, groups, tiles, rechunk intermediates) are
 * part of its fingerprint and so of its compute id ({@link dev.cubed.plan.Plan#computeId()}): a
 * resume never reuses intermediates planned under other settings. These are {@link #foldGroups()},
 * {@link #tileBytes()}, {@link #rechunkCompression()}, {@link #rechunkConsume()} and {@link
 * #intermediateChecksums()}, besides the copies and the memory figures that shape the tasks.
 */
public final class PlanConfig {
  /** Default {@link #tileBytes()}: 256 KiB (a tile of each array of a chain stays in L2). */
  public static final long DEFAULT_TILE_BYTES = 256L << 10;

  /** Default {@link #inlineMaxBytes()}: 4 MiB. */
  public static final long DEFAULT_INLINE_MAX_BYTES = 4L << 20;

  private final String workDir;
  private final long allowedMem;
  private final long reservedMem;
  private final int maxInputBlocks;
  private final int maxSourceArrays;
  private final int readCopies;
  private final int writeCopies;
  private final boolean foldGroups;
  private final long tileBytes;
  private final long inlineMaxBytes;
  private final IntermediateCompression rechunkCompression;
  private final ConsumeIntermediates rechunkConsume;
  private final boolean intermediateChecksums;
  private final boolean diskCheck;
  private final int parallelism;

  private PlanConfig(Builder b) {
    this.workDir = b.workDir;
    this.allowedMem = b.allowedMem;
    this.reservedMem = b.reservedMem;
    this.maxInputBlocks = b.maxInputBlocks;
    this.maxSourceArrays = b.maxSourceArrays;
    this.readCopies = b.readCopies;
    this.writeCopies = b.writeCopies;
    this.foldGroups = b.foldGroups;
    this.tileBytes = b.tileBytes;
    this.inlineMaxBytes = b.inlineMaxBytes;
    this.rechunkCompression = b.rechunkCompression;
    this.rechunkConsume = b.rechunkConsume;
    this.intermediateChecksums = b.intermediateChecksums;
    this.diskCheck = b.diskCheck;
    this.parallelism = b.parallelism;
  }

  /**
   * A builder with the defaults: allowedMem 2 GB, reservedMem 100 MB, fusion limits 10 input blocks
   * and 4 source arrays, readCopies 0, writeCopies 1, fold groups on, tiles of 256 KiB, inline
   * plans up to 4 MiB, rechunk intermediates {@code AUTO}, intermediate checksums on, parallelism
   * 1.
   *
   * @param workDir location of intermediate arrays: a local directory (plain path or {@code
   *     file://} URI) or a store URI such as {@code s3://bucket/work} (opened with {@link
   *     Stores#open})
   */
  public static Builder builder(String workDir) {
    return new Builder(workDir);
  }

  /** {@link #builder(String)} with a local work directory. */
  public static Builder builder(Path workDir) {
    return new Builder(workDir.toString());
  }

  /** A builder starting from this configuration's values. */
  public Builder toBuilder() {
    Builder b = new Builder(workDir);
    b.allowedMem = allowedMem;
    b.reservedMem = reservedMem;
    b.maxInputBlocks = maxInputBlocks;
    b.maxSourceArrays = maxSourceArrays;
    b.readCopies = readCopies;
    b.writeCopies = writeCopies;
    b.foldGroups = foldGroups;
    b.tileBytes = tileBytes;
    b.inlineMaxBytes = inlineMaxBytes;
    b.rechunkCompression = rechunkCompression;
    b.rechunkConsume = rechunkConsume;
    b.intermediateChecksums = intermediateChecksums;
    b.diskCheck = diskCheck;
    b.parallelism = parallelism;
    return b;
  }

  /** Location of intermediate arrays (a local path, a file:// URI or a store URI). */
  public String workDir() {
    return workDir;
  }

  /** Memory a task may use, bytes. */
  public long allowedMem() {
    return allowedMem;
  }

  /** The worker's own memory, counted in every task, bytes. */
  public long reservedMem() {
    return reservedMem;
  }

  /** Fusion limit: input blocks read by one fused task. */
  public int maxInputBlocks() {
    return maxInputBlocks;
  }

  /** Fusion limit: stored arrays read by one fused task. */
  public int maxSourceArrays() {
    return maxSourceArrays;
  }

  /**
   * Extra copies of each chunk read (0 for local files of the default codec, decoded a block at a
   * time; 1 for other local chunks: encoded + decoded; 2 on object stores). A plan raises it to
   * what the arrays it reads and the stores it reads and writes need.
   */
  public int readCopies() {
    return readCopies;
  }

  /** Extra copies of each chunk written (1 locally, 2 on object stores; raised likewise). */
  public int writeCopies() {
    return writeCopies;
  }

  /** Whether fold groups ({@link dev.cubed.plan.eval.FoldGroups#findFolds}) are formed. */
  public boolean foldGroups() {
    return foldGroups;
  }

  /**
   * Bytes per array tile of tiled pointwise-to-reduction chains ({@link
   * dev.cubed.plan.eval.Tiles}); 0: untiled.
   */
  public long tileBytes() {
    return tileBytes;
  }

  /**
   * Largest total of a tiny plan's arrays (bytes) evaluated in the calling thread ({@link
   * dev.cubed.plan.Plan#tiny()}); 0 turns the shortcut off. Not in the fingerprint: an inline run
   * keeps nothing.
   */
  public long inlineMaxBytes() {
    return inlineMaxBytes;
  }

  /** The compressor of multistage rechunks' intermediate arrays. */
  public IntermediateCompression rechunkCompression() {
    return rechunkCompression;
  }

  /** Whether later rechunk stages delete the intermediate chunks they have copied. */
  public ConsumeIntermediates rechunkConsume() {
    return rechunkConsume;
  }

  /** Whether intermediate arrays get a crc32c checksum per chunk, checked on every read. */
  public boolean intermediateChecksums() {
    return intermediateChecksums;
  }

  /**
   * Whether a run first refuses a plan whose intermediates exceed the usable space of the local
   * work directory's file system ({@link dev.cubed.plan.Plan#checkDisk()}).
   */
  public boolean diskCheck() {
    return diskCheck;
  }

  /**
   * Tasks the executor runs at once (the spec's workers, or the processors when it leaves them to
   * the executor). Fusion keeps a reduction round's tasks apart from a later round with fewer tasks
   * than this many ({@code dev.cubed.plan.Fusion}). Not in the fingerprint: it counts only through
   * the ops and tasks it leads to, which are.
   */
  public int parallelism() {
    return parallelism;
  }

  /**
   * The settings that change what a plan writes, as one line of its fingerprint (see the class
   * comment).
   */
  public String fingerprintLine() {
    return "settings foldGroups="
        + foldGroups
        + " tileBytes="
        + tileBytes
        + " rechunkCompression="
        + rechunkCompression
        + " rechunkConsume="
        + rechunkConsume
        + " intermediateChecksums="
        + intermediateChecksums;
  }

  /**
   * The rechunk planner's budget: (allowedMem - reservedMem) / (3 + 2 x max(readCopies, 1)), i.e.
   * /5 locally and /7 on object stores.
   */
  public long rechunkBudget() {
    return Math.max(1, (allowedMem - reservedMem) / (3 + 2L * Math.max(readCopies, 1)));
  }

  /**
   * The rechunk planner's cost of one chunk read or write, in bytes moved: an object store's when
   * the plan touches one (read copies above 1, see {@link #rechunkBudget()}), else a local file's.
   */
  public long rechunkOpBytes() {
    return readCopies > 1 ? RechunkPlanner.OBJECT_STORE_OP_BYTES : RechunkPlanner.LOCAL_OP_BYTES;
  }

  /** True if the work directory is a local directory (plain path or file:// URI). */
  public boolean localWorkDir() {
    return Stores.isLocal(workDir);
  }

  /**
   * The local work directory.
   *
   * @throws IllegalArgumentException if the work directory is a store URI (see {@link
   *     #localWorkDir()})
   */
  public Path workDirPath() {
    return Stores.localPath(workDir);
  }

  /** This configuration with copies raised to at least {@code read} and {@code write}. */
  public PlanConfig withMinCopies(int read, int write) {
    if (read <= readCopies && write <= writeCopies) {
      return this;
    }
    return toBuilder().copies(Math.max(read, readCopies), Math.max(write, writeCopies)).build();
  }

  @Override
  public String toString() {
    return "PlanConfig[workDir="
        + Stores.redact(workDir)
        + ", allowedMem="
        + allowedMem
        + ", reservedMem="
        + reservedMem
        + ", maxInputBlocks="
        + maxInputBlocks
        + ", maxSourceArrays="
        + maxSourceArrays
        + ", readCopies="
        + readCopies
        + ", writeCopies="
        + writeCopies
        + ", "
        + fingerprintLine().substring("settings ".length()).replace(' ', ',')
        + ", inlineMaxBytes="
        + inlineMaxBytes
        + ", diskCheck="
        + diskCheck
        + ", parallelism="
        + parallelism
        + "]";
  }

  /** Builder of {@link PlanConfig}; every setter returns the builder. */
  public static final class Builder {
    private final String workDir;
    private long allowedMem = 2_000_000_000L;
    private long reservedMem = 100_000_000L;
    private int maxInputBlocks = 10;
    private int maxSourceArrays = 4;
    private int readCopies;
    private int writeCopies = 1;
    private boolean foldGroups = true;
    private long tileBytes = DEFAULT_TILE_BYTES;
    private long inlineMaxBytes = DEFAULT_INLINE_MAX_BYTES;
    private IntermediateCompression rechunkCompression = IntermediateCompression.AUTO;
    private ConsumeIntermediates rechunkConsume = ConsumeIntermediates.AUTO;
    private boolean intermediateChecksums = true;
    private boolean diskCheck = true;
    private int parallelism = 1;

    private Builder(String workDir) {
      this.workDir = Objects.requireNonNull(workDir, "workDir");
    }

    /** Memory a task may use and the worker's own part of it, bytes. */
    public Builder memory(long allowedMem, long reservedMem) {
      this.allowedMem = allowedMem;
      this.reservedMem = reservedMem;
      return this;
    }

    /** Fusion limits: input blocks and stored source arrays one fused task may read. */
    public Builder fusionLimits(int maxInputBlocks, int maxSourceArrays) {
      this.maxInputBlocks = maxInputBlocks;
      this.maxSourceArrays = maxSourceArrays;
      return this;
    }

    /** Extra copies of each chunk read and written (see {@link PlanConfig#readCopies()}). */
    public Builder copies(int readCopies, int writeCopies) {
      this.readCopies = readCopies;
      this.writeCopies = writeCopies;
      return this;
    }

    /**
     * See {@link PlanConfig#parallelism()}.
     *
     * @throws IllegalArgumentException if {@code n < 1}
     */
    public Builder parallelism(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("PlanConfig: parallelism must be >= 1, got " + n);
      }
      this.parallelism = n;
      return this;
    }

    /** See {@link PlanConfig#foldGroups()}. */
    public Builder foldGroups(boolean on) {
      this.foldGroups = on;
      return this;
    }

    /** See {@link PlanConfig#tileBytes()}. */
    public Builder tileBytes(long bytes) {
      this.tileBytes = bytes;
      return this;
    }

    /** See {@link PlanConfig#inlineMaxBytes()}. */
    public Builder inlineMaxBytes(long bytes) {
      this.inlineMaxBytes = bytes;
      return this;
    }

    /** See {@link PlanConfig#rechunkCompression()}. */
    public Builder rechunkCompression(IntermediateCompression c) {
      this.rechunkCompression = Objects.requireNonNull(c);
      return this;
    }

    /** See {@link PlanConfig#rechunkConsume()}. */
    public Builder rechunkConsume(ConsumeIntermediates c) {
      this.rechunkConsume = Objects.requireNonNull(c);
      return this;
    }

    /** See {@link PlanConfig#intermediateChecksums()}. */
    public Builder intermediateChecksums(boolean on) {
      this.intermediateChecksums = on;
      return this;
    }

    /** See {@link PlanConfig#diskCheck()}. */
    public Builder diskCheck(boolean on) {
      this.diskCheck = on;
      return this;
    }

    /** The configuration. */
    public PlanConfig build() {
      return new PlanConfig(this);
    }
  }
}
