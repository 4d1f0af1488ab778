package dev.cubed;

import dev.cubed.core.Core;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.Plan;
import dev.cubed.plan.RunOptions;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.ChunkGrid;
import dev.cubed.plan.node.PlanConfig;
import dev.cubed.primitive.IndexFunction;
import dev.cubed.runtime.Executor;
import dev.cubed.runtime.ExecutorSettings;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.ZarrArrayBuilder;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.Stores;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Entry points: creating arrays from Zarr or memory, computing several arrays in one plan, writing
 * to Zarr, planning. See {@link Xp} for array functions.
 */
public final class Cubed {
  private Cubed() {}

  /**
   * An array backed by an existing Zarr array (opened by path or URI).
   *
   * @throws IllegalArgumentException if the array is marked incomplete (see {@link
   *     #fromZarr(ZarrArray, Spec)})
   */
  public static CubedArray fromZarr(String uriOrPath, Spec spec) {
    return fromZarr(ZarrArray.open(uriOrPath), spec);
  }

  /**
   * An array backed by an existing Zarr array.
   *
   * @throws IllegalArgumentException if the array is marked incomplete ({@link
   *     ZarrArray#INCOMPLETE_ATTRIBUTE}: a compute writing it failed or was killed, so missing
   *     chunks would read as fill values); {@link #fromZarr(ZarrArray, Spec, boolean)} reads it
   *     anyway
   */
  public static CubedArray fromZarr(ZarrArray array, Spec spec) {
    return fromZarr(array, spec, false);
  }

  /**
   * An array backed by an existing Zarr array; with {@code allowIncomplete} an array marked
   * incomplete is read too (its missing chunks read as the fill value).
   */
  public static CubedArray fromZarr(ZarrArray array, Spec spec, boolean allowIncomplete) {
    if (array.isIncomplete() && !allowIncomplete) {
      throw new IllegalArgumentException(
          "fromZarr: "
              + array
              + " is INCOMPLETE: "
              + array.attributes().get(ZarrArray.INCOMPLETE_ATTRIBUTE)
              + ". Its missing chunks"
              + " would read as fill values; rerun the compute that writes it, or pass"
              + " allowIncomplete=true to read it anyway");
    }
    return new CubedArray(new ArrayNode.Stored(array), spec);
  }

  /**
   * An array holding in-memory data split into chunks (-1 = whole axis; null = one chunk). The data
   * is not copied; it must not be modified before the compute ends.
   */
  public static CubedArray fromArray(NDArray a, long[] chunks, Spec spec) {
    return new CubedArray(Core.fromArray(a, chunks), spec);
  }

  /**
   * An array holding in-memory data split into blocks of explicit sizes per axis (Dask form, e.g.
   * {@code {{4, 4, 2}, {5}}} for shape (10, 5)); the data is not copied.
   *
   * @throws IllegalArgumentException if a list does not add up to its axis or has a size below 1
   */
  public static CubedArray fromArray(NDArray a, long[][] blockSizes, Spec spec) {
    return new CubedArray(Core.fromArray(a, ChunkGrid.of(a.shape(), blockSizes)), spec);
  }

  /**
   * An array holding {@code value}, the computed value of {@code source} (from {@link #compute}),
   * on source's chunks: what {@code persist} keeps. It is named after source (no hash of the data
   * is taken, so it costs no pass over the data); {@code value} is not copied and must not be
   * modified afterwards.
   *
   * @throws IllegalArgumentException if value's dtype or shape is not source's
   */
  public static CubedArray persisted(NDArray value, CubedArray source) {
    return new CubedArray(Core.persisted(value, source.node()), source.spec());
  }

  /** {@link #fromArray} with the whole array as one chunk. */
  public static CubedArray asarray(NDArray a, Spec spec) {
    return fromArray(a, (long[]) null, spec);
  }

  /** Plans the given arrays together (common work shared) under the first array's spec. */
  public static Plan plan(List<CubedArray> arrays) {
    if (arrays.isEmpty()) {
      throw new IllegalArgumentException("compute: at least one array is required");
    }
    Spec s = arrays.get(0).spec();
    List<ArrayNode> nodes = new ArrayList<>();
    for (CubedArray a : arrays) {
      nodes.add(a.node());
    }
    return Plan.of(nodes, config(s));
  }

  /** The plan settings of a spec (every setting of {@link Spec}'s table a plan uses). */
  static PlanConfig config(Spec s) {
    return PlanConfig.builder(s.workLocation())
        .memory(s.allowedMem(), s.reservedMem())
        .fusionLimits(s.maxInputBlocks(), s.maxSourceArrays())
        .copies(0, 1)
        .foldGroups(s.foldGroups())
        .tileBytes(s.tileBytes())
        .inlineMaxBytes(s.inlineMaxBytes())
        .rechunkCompression(s.rechunkIntermediateCompression())
        .rechunkConsume(s.rechunkConsumeIntermediates())
        .intermediateChecksums(s.intermediateChecksums())
        .diskCheck(s.diskCheck())
        .parallelism(s.workersOrProcessors())
        .build();
  }

  /** Computes several arrays in one plan (shared inputs computed once) on the spec's executor. */
  public static List<NDArray> compute(CubedArray... arrays) {
    return compute(ComputeOptions.defaults(), arrays);
  }

  /**
   * Computes several arrays in one plan with options.
   *
   * @throws dev.cubed.plan.MemoryBudgetExceededException before running if an op does not fit
   * @throws dev.cubed.runtime.TaskFailedException if a task fails on every attempt
   */
  public static List<NDArray> compute(ComputeOptions options, CubedArray... arrays) {
    return computeInto(null, options, arrays);
  }

  /**
   * {@link #compute(ComputeOptions, CubedArray...)}, with the results the run writes straight into
   * memory going into the buffers {@code buffers} gives (asked before any task runs; null: arrays
   * in the heap) rather than into new arrays: such a result comes back as {@code null} in the list,
   * its elements in its buffer (see {@link dev.cubed.plan.ResultBuffers}). The others come back as
   * arrays.
   */
  public static List<NDArray> computeInto(
      dev.cubed.plan.ResultBuffers buffers, ComputeOptions options, CubedArray... arrays) {
    Plan p = plan(List.of(arrays));
    options.report(p, List.of(arrays));
    return p.run(
            executor(options, arrays[0].spec()),
            options.callbacks(),
            RunOptions.defaults().resume(options.resumes()).into(buffers))
        .outputs();
  }

  /**
   * A lazy write of {@code x} to a new Zarr array at {@code path} of {@code store} (Zarr v3, x's
   * chunks, zarr-python's default codec {@link Compression#zarrPythonDefault()}; a crc32c checksum
   * per chunk if x's spec says {@link Spec#checksum()}); compute it (or pass it to {@link
   * #compute}) to run. Nothing is created or deleted now: the compute checks memory and the target
   * first, then creates it. An existing Zarr node at the path is refused; see {@link
   * #toZarrLazy(CubedArray, Store, String, boolean)}.
   */
  public static CubedArray toZarrLazy(CubedArray x, Store store, String path) {
    return toZarrLazy(x, store, path, false);
  }

  /**
   * {@link #toZarrLazy(CubedArray, Store, String)}; with {@code overwrite} an existing Zarr array
   * or group at the path is replaced (only its own keys are deleted; a path holding other files is
   * refused in any case, see {@link dev.cubed.zarr.ZarrArrayBuilder#overwrite()}).
   */
  public static CubedArray toZarrLazy(CubedArray x, Store store, String path, boolean overwrite) {
    ZarrArrayBuilder b =
        ZarrArray.create(store, path)
            .shape(x.shape())
            .chunks(x.chunkShape())
            .dtype(x.dtype())
            .compression(Compression.zarrPythonDefault());
    if (x.spec().checksum()) {
      b.crc32c();
    }
    if (overwrite) {
      b.overwrite();
    }
    return store(x, b.buildDeferred());
  }

  /**
   * Computes {@code x} and writes it to a new Zarr array at a path or URI ({@code "out/uv.zarr"},
   * {@code "s3://bucket/uv.zarr"}), the counterpart of {@link #fromZarr(String, Spec)}: Zarr v3,
   * x's chunks, zarr-python's default codec ({@code zstd}), so zarr-python, xarray and other tools
   * read it with their defaults. An existing Zarr node there is refused; {@link #toZarr(CubedArray,
   * String, ZarrWrite)} with {@link ZarrWrite#overwrite()} replaces it.
   *
   * @return the written array
   * @throws IllegalArgumentException if the path holds anything, overlaps a source array or leads
   *     out of its store through a link (nothing is changed)
   */
  public static ZarrArray toZarr(CubedArray x, String uriOrPath) {
    return toZarr(x, uriOrPath, ZarrWrite.defaults());
  }

  /**
   * {@link #toZarr(CubedArray, String)} with options: Zarr format, compressor, overwrite,
   * attributes and the compute's options ({@link ZarrWrite}).
   */
  public static ZarrArray toZarr(CubedArray x, String uriOrPath, ZarrWrite options) {
    Store store = Stores.open(uriOrPath);
    ZarrArrayBuilder b =
        ZarrArray.create(store, "")
            .shape(x.shape())
            .chunks(x.chunkShape())
            .dtype(x.dtype())
            .zarrFormat(options.format())
            .compression(options.compressionOrDefault())
            .attributes(options.extraAttributes());
    if (x.spec().checksum()) {
      b.crc32c();
    }
    if (options.overwrites()) {
      b.overwrite();
    }
    runForSideEffect(options.computeOptions(), store(x, b.buildDeferred()));
    return ZarrArray.open(store, "");
  }

  /**
   * A lazy write of {@code x} into an existing target of the same shape and dtype (or a deferred
   * one, {@link dev.cubed.zarr.ZarrArrayBuilder#buildDeferred()}). The compute refuses a target
   * overlapping one of its sources and marks the target incomplete while it writes.
   */
  public static CubedArray store(CubedArray x, ZarrArray target) {
    return new CubedArray(Core.store(x.node(), target), x.spec());
  }

  /**
   * Computes {@code x} and writes it to a new Zarr array at {@code path} of {@code store}; an
   * existing Zarr node there is refused (see {@link #toZarr(CubedArray, Store, String, boolean)}).
   *
   * @throws IllegalArgumentException if the path holds anything, if it overlaps a source array or
   *     leads out of the store through a link (nothing is changed)
   */
  public static ZarrArray toZarr(CubedArray x, Store store, String path) {
    return toZarr(x, store, path, false);
  }

  /**
   * Computes {@code x} and writes it to a Zarr array at {@code path} of {@code store}, replacing an
   * existing Zarr node there if {@code overwrite} (never anything else).
   */
  public static ZarrArray toZarr(CubedArray x, Store store, String path, boolean overwrite) {
    CubedArray w = toZarrLazy(x, store, path, overwrite);
    runForSideEffect(ComputeOptions.defaults(), w);
    return ZarrArray.open(store, path);
  }

  /**
   * {@link #toZarr(CubedArray, Store, String)} with options (executor, callbacks, resume). The new
   * array is written beside the target and swapped in when complete; with {@link
   * ComputeOptions#resume()} the tasks whose chunks a killed run left in that staging array are
   * skipped (see {@link dev.cubed.zarr.StagedWrite}).
   */
  public static ZarrArray toZarr(CubedArray x, Store store, String path, ComputeOptions opts) {
    runForSideEffect(opts, toZarrLazy(x, store, path));
    return ZarrArray.open(store, path);
  }

  /** Computes and writes several arrays to their targets in one plan. */
  public static void store(List<CubedArray> xs, List<ZarrArray> targets, ComputeOptions opts) {
    if (xs.size() != targets.size()) {
      throw new IllegalArgumentException(
          "store: " + xs.size() + " arrays but " + targets.size() + " targets");
    }
    CubedArray[] ws = new CubedArray[xs.size()];
    for (int i = 0; i < ws.length; i++) {
      ws[i] = store(xs.get(i), targets.get(i));
    }
    runForSideEffect(opts, ws);
  }

  private static void runForSideEffect(ComputeOptions opts, CubedArray... ws) {
    Plan p = plan(List.of(ws));
    opts.report(p, List.of(ws));
    execute(p, ws[0].spec(), opts);
  }

  /**
   * Runs a plan made by {@link #plan} for its side effects (the stores in it) with options, on the
   * options' executor or else the one {@code spec} names: what {@link #store(List, List,
   * ComputeOptions)} does after planning, for a caller that planned once to print or check the plan
   * first.
   *
   * @param spec the spec the plan's arrays were made with (it chooses the executor)
   */
  public static void execute(Plan plan, Spec spec, ComputeOptions opts) {
    plan.run(
        executor(opts, spec),
        opts.callbacks(),
        RunOptions.defaults().noResults().resume(opts.resumes()));
  }

  private static Executor executor(ComputeOptions opts, Spec spec) {
    if (opts.executorOrNull() != null) {
      return opts.executorOrNull();
    }
    return executor(spec);
  }

  /**
   * The executor a spec names, configured from it: {@code Executor.byName(spec.executor(),
   * settings)} with the spec's workers (0 = one per processor), attempts, allowedMem, reservedMem
   * {@link Spec#executorOptions()} and the spec's {@code processes_*} and {@code worker_*}
   * settings, so an executor of a name is configured the same way here and there (what each
   * built-in makes of the settings, keep-alive and heap bound included: {@link
   * Executor#byName(String, dev.cubed.runtime.ExecutorSettings)}).
   *
   * @throws IllegalArgumentException "unknown executor 'x'; available: ..." if no executor has that
   *     name
   */
  public static Executor executor(Spec spec) {
    int workers = spec.workersOrProcessors();
    return Executor.byName(
        spec.executor(),
        new ExecutorSettings(
            workers,
            spec.attempts(),
            spec.allowedMem(),
            spec.reservedMem(),
            spec.executorOptions(),
            new ExecutorSettings.Processes(
                spec.processesKeepAlive(),
                spec.processesGcSkip(),
                spec.workerJvmOptions(),
                spec.workerPostTaskGc(),
                spec.workerStats())));
  }

  /**
   * The figures of the plan computing {@code arrays} together (tasks, largest projected task
   * memory, intermediate bytes, largest chunk), planned as {@link #compute(CubedArray...)} would
   * plan them but not run: nothing is read, written or created.
   *
   * @throws IllegalArgumentException if the list is empty
   * @throws dev.cubed.plan.MemoryBudgetExceededException if an op does not fit the spec's memory
   */
  public static PlanFigures summary(List<CubedArray> arrays) {
    return PlanFigures.of(plan(arrays).summary(), arrays);
  }

  /**
   * A virtual array (no storage) made a block at a time by {@code f} inside the tasks that read it:
   * {@code f} gets each block's grid index, global start and shape (see {@link BlockFunction} for
   * its contract). Chunks as {@link #fromArray(NDArray, long[], Spec)}'s (-1 = whole axis).
   *
   * @throws IllegalArgumentException for chunks that do not fit the shape
   */
  public static CubedArray fromFunction(
      long[] shape, long[] chunks, DType dtype, BlockFunction f, Spec spec) {
    long[] c = Core.normChunks(shape, chunks);
    return new CubedArray(
        new ArrayNode.Virtual(
            "from_function",
            shape,
            c,
            dtype,
            FunctionBlocks.of(Objects.requireNonNull(f, "f"), c, dtype)),
        spec);
  }

  /**
   * A virtual array (no storage) whose boxes are written in place by {@code f} inside the tasks
   * that read it (see {@link FillFunction} for its contract): whole blocks, or only the part of a
   * block a task uses (a chain of elementwise ops written to a target a run at a time, a rechunk or
   * slice reading a region), so the engine makes nothing larger than what it reads. Chunks as
   * {@link #fromArray(NDArray, long[], Spec)}'s (-1 = whole axis).
   *
   * @throws IllegalArgumentException for chunks that do not fit the shape
   */
  public static CubedArray fromFunction(
      long[] shape, long[] chunks, DType dtype, FillFunction f, Spec spec) {
    long[] c = Core.normChunks(shape, chunks);
    return new CubedArray(
        new ArrayNode.Virtual(
            "from_function",
            shape,
            c,
            dtype,
            FunctionBlocks.of(Objects.requireNonNull(f, "f"), c, dtype)),
        spec);
  }

  /**
   * A virtual array (no storage) whose elements are set by {@code f} from their flat C-order index
   * in the whole array, block by block.
   */
  public static CubedArray fromFunction(
      long[] shape, long[] chunks, DType dtype, IndexFunction f, Spec spec) {
    return new CubedArray(Core.fromIndex("from_function", shape, chunks, dtype, f), spec);
  }

  /**
   * Uniform random numbers in [0, 1) that do not depend on the chunking: element i is derived from
   * a counter-based generator (SplitMix64 finalizer) keyed by (seed, flat index i).
   */
  public static CubedArray random(long[] shape, long[] chunks, long seed, Spec spec) {
    return new CubedArray(
        Core.fromIndex(
            "random",
            shape,
            chunks,
            DType.FLOAT64,
            (b, i, flat, in, bc) -> b.setDouble(i, uniform(seed, flat))),
        spec);
  }

  static double uniform(long seed, long index) {
    long z = seed * 0x9E3779B97F4A7C15L + index * 0xD1B54A32D192ED03L + 0x632BE59BD9B4E019L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    z = z ^ (z >>> 31);
    return (z >>> 11) * 0x1.0p-53;
  }
}
