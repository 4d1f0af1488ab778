package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.Plan;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.primitive.CopyOp;
import dev.cubed.primitive.RechunkPlanner;
import dev.cubed.runtime.TaskFailedException;
import dev.cubed.runtime.ThreadsExecutor;
import dev.cubed.testing.NDAssert;
import dev.cubed.zarr.MissingChunkException;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Rechunk round trips on real Zarr arrays (a file-system store): random shapes, source and target
 * chunks, dtypes and memory bounds; the result equals the source element for element, and the plan
 * has the planner's stage count and each stage the copy rule's projected memory within the bound.
 * Intermediates consumed by the next stage are checked for resume.
 */
class RechunkRoundTripTest {
  private static final long RESERVED = 1000;
  private static final DType[] DTYPES = {
    DType.FLOAT64,
    DType.FLOAT32,
    DType.INT64,
    DType.INT32,
    DType.INT16,
    DType.UINT8,
    DType.BOOL,
    DType.COMPLEX128
  };
  private static final DType[] WIDE = {DType.FLOAT64, DType.FLOAT32, DType.INT64, DType.COMPLEX128};

  @TempDir Path tmp;

  static IntStream seeds() {
    return IntStream.range(0, 32);
  }

  /** Random data for any dtype, filled through the backing array. */
  static NDArray random(DType dtype, long seed, long... shape) {
    NDArray a = NDArray.zeros(dtype, shape);
    Random r = new Random(seed);
    Object d = a.data();
    if (d instanceof double[] x) {
      for (int i = 0; i < x.length; i++) {
        x[i] = r.nextGaussian() * 1e3;
      }
    } else if (d instanceof float[] x) {
      for (int i = 0; i < x.length; i++) {
        x[i] = (float) r.nextGaussian();
      }
    } else if (d instanceof long[] x) {
      for (int i = 0; i < x.length; i++) {
        x[i] = r.nextLong();
      }
    } else if (d instanceof int[] x) {
      for (int i = 0; i < x.length; i++) {
        x[i] = r.nextInt();
      }
    } else if (d instanceof short[] x) {
      for (int i = 0; i < x.length; i++) {
        x[i] = (short) r.nextInt();
      }
    } else if (d instanceof byte[] x) {
      r.nextBytes(x);
    } else if (d instanceof boolean[] x) {
      for (int i = 0; i < x.length; i++) {
        x[i] = r.nextBoolean();
      }
    } else {
      throw new IllegalStateException("no filler for " + d.getClass());
    }
    return a;
  }

  private static long[] randomChunks(Random r, long[] shape) {
    long[] c = new long[shape.length];
    for (int i = 0; i < c.length; i++) {
      c[i] = 1 + r.nextInt((int) shape[i]);
    }
    return c;
  }

  private static long bytes(long[] chunks, long[] shape, int item) {
    long n = item;
    for (int i = 0; i < chunks.length; i++) {
      n *= Math.min(chunks[i], shape[i]);
    }
    return n;
  }

  /** One random case: shape, dtype, source and target chunks, allowed memory. */
  record Case(long[] shape, DType dtype, long[] source, long[] target, long allowed) {
    static Case of(int seed) {
      Random r = new Random(seed);
      int nd = 1 + r.nextInt(4);
      long[] shape = new long[nd];
      long maxPerAxis = nd == 1 ? 4000 : nd == 2 ? 90 : nd == 3 ? 24 : 11;
      for (int i = 0; i < nd; i++) {
        shape[i] = 1 + r.nextInt((int) maxPerAxis);
      }
      DType dtype = DTYPES[r.nextInt(DTYPES.length)];
      int item = dtype.itemSize();
      long[] source = randomChunks(r, shape);
      long[] target = randomChunks(r, shape);
      boolean slabToPencil = r.nextBoolean();
      if (slabToPencil) {
        // arrays of up to 1 MB: smaller ones are copied directly (a chunk request costs more)
        nd = 3;
        dtype = WIDE[r.nextInt(WIDE.length)];
        item = dtype.itemSize();
        shape = new long[] {20 + r.nextInt(41), 20 + r.nextInt(29), 20 + r.nextInt(29)};
        source = new long[nd];
        target = new long[nd];
        // thin along one axis to thin along the others (the rechunk workload's kind): multistage
        int a = r.nextInt(nd);
        for (int i = 0; i < nd; i++) {
          source[i] = i == a ? 1 + r.nextInt(2) : shape[i];
          target[i] = i == a ? shape[i] : 1 + r.nextInt((int) Math.max(1, shape[i] / 3));
        }
      }
      // a bound from a few times the larger chunk (where multistage plans appear) to plenty
      long big = Math.max(bytes(source, shape, item), bytes(target, shape, item));
      long times = slabToPencil ? 7 + r.nextInt(6) : 8 + r.nextInt(40);
      return new Case(shape, dtype, source, target, RESERVED + big * times);
    }

    int stages() {
      return RechunkPlanner.plan(shape, source, target, dtype.itemSize(), (allowed - RESERVED) / 5)
              .intermediates()
              .size()
          + 1;
    }
  }

  @Test
  void theCasesCoverMultistagePlans() {
    long multi = seeds().filter(s -> Case.of(s).stages() > 1).count();
    assertThat(multi).as("cases with an intermediate").isGreaterThanOrEqualTo(8);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void roundTripEqualsSourceWithThePlannedStagesAndMemory(int seed) throws Exception {
    Case t = Case.of(seed);
    long[] shape = t.shape();
    int nd = shape.length;
    DType dtype = t.dtype();
    int item = dtype.itemSize();
    long[] source = t.source();
    long[] target = t.target();
    long allowed = t.allowed();
    NDArray a = random(dtype, seed, shape);
    FileSystemStore store = new FileSystemStore(tmp.resolve("data"));
    ZarrArray src = ZarrArray.create(store, "src").shape(shape).chunks(source).dtype(dtype).build();
    src.write(new long[nd], a);
    Spec spec =
        Spec.builder()
            .workDir(tmp.resolve("work"))
            .allowedMem(allowed)
            .reservedMem(RESERVED)
            .build();
    CubedArray in = Cubed.fromZarr(src, spec);
    CubedArray x = Xp.rechunk(in, target);
    String what =
        "seed "
            + seed
            + ": "
            + dtype
            + " "
            + Shapes.format(shape)
            + " "
            + Arrays.toString(source)
            + " -> "
            + Arrays.toString(target)
            + " at "
            + allowed;

    PlanSummary p = x.plan();
    List<PlanSummary.OpInfo> copies =
        p.ops().stream().filter(o -> o.kind().equals("rechunk")).toList();
    long budget = (allowed - RESERVED) / 5;
    RechunkPlanner.Plan planned = RechunkPlanner.plan(shape, source, target, item, budget);
    if (joins(shape, source, target)) {
      // target blocks made of whole source blocks: one blockwise join, no copy stages
      assertThat(copies).as(what).isEmpty();
      assertThat(p.ops()).as(what).anyMatch(o -> o.name().startsWith(Plan.JOIN_OP + "-"));
    } else if (!Arrays.equals(source, target)) {
      assertThat(copies).as(what).hasSize(planned.intermediates().size() + 1);
      List<long[]> chain = new ArrayList<>();
      chain.add(source);
      chain.addAll(planned.intermediates());
      chain.add(target);
      for (int k = 0; k < copies.size(); k++) {
        long[] region =
            RechunkPlanner.copyRegion(shape, chain.get(k), chain.get(k + 1), item, budget);
        // every stage's target has the default codec: a stage of one target chunk per task
        // whose source chunks contain it on all axes but the first streams it
        boolean streamed = CopyOp.streams(chain.get(k), chain.get(k + 1), region, true);
        long expected =
            CopyOp.projectedMem(
                RESERVED,
                bytes(chain.get(k), shape, item),
                bytes(region, shape, item),
                bytes(chain.get(k + 1), shape, item),
                0,
                1,
                streamed);
        assertThat(copies.get(k).projectedMem())
            .as(what + " stage " + (k + 1))
            .isEqualTo(expected)
            .isLessThanOrEqualTo(allowed);
      }
    }

    ZarrArray out = ZarrArray.create(store, "dst").shape(shape).chunks(target).dtype(dtype).build();
    // storing the source into a target of other chunks rechunks straight into it (like the CLI);
    // storing the rechunked array does the same (its last stage writes the target)
    CubedArray stored = seed % 2 == 0 ? in : x;
    Cubed.store(List.of(stored), List.of(out), ComputeOptions.executor(new ThreadsExecutor(2, 1)));
    ZarrArray back = ZarrArray.open(store, "dst");
    assertThat(back.chunks()).as(what).containsExactly(target);
    NDAssert.assertExact(a, back.read(), what);
  }

  /** The rechunk workload's shape at medium and its 500 MB bound: plan only (metadata). */
  @Test
  void mediumWorkloadPlanIsTwoStagesWithEnoughTasks() {
    Store store = new FileSystemStore(tmp.resolve("data"));
    ZarrArray src =
        ZarrArray.create(store, "X")
            .shape(1000, 600, 600)
            .chunks(1, 600, 600)
            .dtype(DType.FLOAT64)
            .build();
    Spec spec =
        Spec.builder()
            .workDir(tmp.resolve("work"))
            .allowedMem(500_000_000)
            .reservedMem(100_000_000)
            .build();
    PlanSummary p = Xp.rechunk(Cubed.fromZarr(src, spec), 1000, 100, 100).plan();
    List<PlanSummary.OpInfo> copies =
        p.ops().stream().filter(o -> o.kind().equals("rechunk")).toList();
    assertThat(copies).hasSize(2);
    // stage 1: (1, 600, 600) -> (27, 100, 100), regions of (27, 600, 600): 38 tasks; a source
    // chunk is decoded from its file a block at a time (no copy of its stored bytes)
    assertThat(copies.get(0).tasks()).isEqualTo(38);
    assertThat(copies.get(0).projectedMem())
        .isEqualTo(100_000_000L + 2_880_000 + 77_760_000 + 2_160_000);
    // stage 2: one 80 MB target chunk per task: 36 tasks, each chunk written while it is read
    // (its (27, 100, 100) sources hold it on the last two axes): two source chunks, a run and a
    // box of it, the encoded chunk; not the chunk
    assertThat(copies.get(1).tasks()).isEqualTo(36);
    assertThat(copies.get(1).projectedMem())
        .isEqualTo(100_000_000L + 2 * 2_160_000 + 2 * 262_144 + 80_000_000);
    assertThat(copies).allMatch(o -> o.bytesRead() == 2_880_000_000L, "each stage reads once");

    // storing the rechunked array: the last stage writes the target, no blockwise copy after it
    ZarrArray out =
        ZarrArray.create(store, "Y")
            .shape(1000, 600, 600)
            .chunks(1000, 100, 100)
            .dtype(DType.FLOAT64)
            .build();
    PlanSummary s =
        Cubed.plan(List.of(Cubed.store(Xp.rechunk(Cubed.fromZarr(src, spec), 1000, 100, 100), out)))
            .summary();
    assertThat(s.ops()).as(s.toString()).hasSize(2).allMatch(o -> o.kind().equals("rechunk"));
    assertThat(s.ops().get(1).intermediate()).isFalse();
  }

  /**
   * A consuming copy deletes the source chunks wholly inside its region after writing, keeps those
   * straddling two regions, and run again (as after a crash before its completion marker) finds its
   * targets written and returns; a missing source with a missing target is an error.
   */
  @Test
  void consumingCopyDeletesItsSourceChunksAndCanRunAgain() throws Exception {
    FileSystemStore store = new FileSystemStore(tmp.resolve("data"));
    long[] shape = {40, 30};
    NDArray a = random(DType.FLOAT64, 5, shape);
    ZarrArray src =
        ZarrArray.create(store, "int").shape(shape).chunks(8, 10).dtype(DType.FLOAT64).build();
    src.write(new long[2], a);
    src = src.asIntermediate();
    ZarrArray dst =
        ZarrArray.create(store, "dst").shape(shape).chunks(20, 30).dtype(DType.FLOAT64).build();
    // regions of one target chunk (20 rows): source rows 16-23 straddle both regions
    var op = CopyOp.build("copy", src, dst, new long[] {20, 30}, 1, null, true);
    assertThat(op.keys()).hasSize(2);
    op.function().run(new long[] {0, 0});
    assertThat(src.chunkExists(0, 0)).isFalse();
    assertThat(src.chunkExists(1, 2)).isFalse();
    assertThat(src.chunkExists(2, 0)).as("straddles two regions").isTrue();
    op.function().run(new long[] {0, 0}); // again: its sources are gone, its target is written
    op.function().run(new long[] {1, 0});
    assertThat(src.chunkExists(2, 0)).as("the second region held the rest of it").isTrue();
    assertThat(src.chunkExists(3, 1)).isFalse();
    NDAssert.assertExact(a, dst.read(), "consumed copy");

    store.delete(dst.chunkKey(1, 0));
    ZarrArray srcAgain = src;
    assertThatThrownBy(() -> op.function().run(new long[] {1, 0}))
        .isInstanceOf(MissingChunkException.class)
        .hasMessageContaining("int");
    assertThat(srcAgain.chunkExists(2, 0)).isTrue();
  }

  /** Fails the Nth chunk write into the target (static: the store must serialize by value). */
  static final AtomicInteger PUTS = new AtomicInteger();

  static volatile int failPutAt = -1;

  /** A file-system store whose chunk puts fail once {@link #failPutAt} is reached. */
  static final class FailingPuts implements Store {
    private static final long serialVersionUID = 1L;
    private final FileSystemStore delegate;

    FailingPuts(FileSystemStore delegate) {
      this.delegate = delegate;
    }

    @Override
    public byte[] get(String key) {
      return delegate.get(key);
    }

    @Override
    public byte[] getRange(String key, long offset, int length) {
      return delegate.getRange(key, offset, length);
    }

    @Override
    public void put(String key, byte[] value) {
      put(key, value, value.length);
    }

    @Override
    public void put(String key, byte[] value, int length) {
      if (key.contains("/c/") && PUTS.incrementAndGet() >= failPutAt && failPutAt > 0) {
        throw new IllegalStateException("injected target write failure at " + key);
      }
      delegate.put(key, value, length);
    }

    @Override
    public void delete(String key) {
      delegate.delete(key);
    }

    @Override
    public boolean exists(String key) {
      return delegate.exists(key);
    }

    @Override
    public List<String> list(String prefix) {
      return delegate.list(prefix);
    }

    @Override
    public List<String> listChildren(String prefix) {
      return delegate.listChildren(prefix);
    }

    @Override
    public String describe() {
      return delegate.describe();
    }
  }

  private static long storedChunks(Path dir, String nameStart) throws Exception {
    if (!Files.isDirectory(dir)) {
      return 0;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile)
          .filter(f -> f.toString().contains(nameStart))
          .filter(f -> f.toString().contains("/c/"))
          .count();
    }
  }

  /** A two-stage rechunk interrupted by a failing target write: its input, target and data. */
  private record Interrupted(CubedArray in, ZarrArray out, NDArray a) {}

  /**
   * Runs a two-stage rechunk (60, 48, 48) from (1, 48, 48) to (60, 16, 16) chunks into a target
   * whose 5th chunk write fails, under the spec changed by {@code settings}; the compute directory
   * is kept in {@code work}.
   */
  private Interrupted interruptedTwoStageRechunk(Path work, Map<String, String> settings)
      throws Exception {
    long[] shape = {60, 48, 48};
    NDArray a = random(DType.FLOAT64, 11, shape);
    FileSystemStore data = new FileSystemStore(tmp.resolve(work.getFileName() + "-data"));
    ZarrArray src =
        ZarrArray.create(data, "src").shape(shape).chunks(1, 48, 48).dtype(DType.FLOAT64).build();
    src.write(new long[3], a);
    long allowed = RESERVED + 5 * 60 * 16 * 16 * 8 + 5;
    Spec spec =
        Spec.builder()
            .workDir(work)
            .allowedMem(allowed)
            .reservedMem(RESERVED)
            .set(settings)
            .build();
    CubedArray in = Cubed.fromZarr(src, spec);
    CubedArray x = Xp.rechunk(in, 60, 16, 16);
    assertThat(x.plan().ops().stream().filter(o -> o.kind().equals("rechunk")).count())
        .as(x.plan().toString())
        .isEqualTo(2);
    FailingPuts failing =
        new FailingPuts(new FileSystemStore(tmp.resolve(work.getFileName() + "-out")));
    ZarrArray out =
        ZarrArray.create(failing, "dst")
            .shape(shape)
            .chunks(60, 16, 16)
            .dtype(DType.FLOAT64)
            .build();
    PUTS.set(0);
    failPutAt = 5; // 9 target chunks: the 5th write fails
    try {
      assertThatThrownBy(
              () ->
                  Cubed.store(
                      List.of(in),
                      List.of(out),
                      ComputeOptions.executor(new ThreadsExecutor(1, 1))))
          .isInstanceOf(TaskFailedException.class);
    } finally {
      failPutAt = -1;
    }
    return new Interrupted(in, out, a);
  }

  /**
   * A two-stage rechunk into a target whose writes fail after some stage-2 tasks finished (and
   * consumed their intermediate chunks); the resumed compute writes the same array.
   */
  @Test
  void resumeAfterConsumedIntermediatesGivesTheSameResult() throws Exception {
    Path work = tmp.resolve("work");
    Interrupted r = interruptedTwoStageRechunk(work, Map.of());
    long left = storedChunks(work, "-int1");
    // intermediate chunks (6, 16, 16): 10 per target chunk, 90 in all; 4 target chunks written
    assertThat(left)
        .as("stage 2 consumed the intermediate chunks of the 4 target chunks written")
        .isEqualTo(90 - 4 * 10);
    Cubed.store(
        List.of(r.in()),
        List.of(r.out()),
        ComputeOptions.executor(new ThreadsExecutor(1, 1)).resume());
    NDAssert.assertExact(r.a(), ZarrArray.open(r.out().store(), "dst").read(), "resumed rechunk");
  }

  /**
   * The spec's rechunk settings reach the run: with {@code rechunk_consume_intermediates=false}
   * stage 2 leaves every intermediate chunk, and {@code rechunk_intermediate_compression=lz4}
   * writes them with Blosc-LZ4 level 5 (the local default, none, is level 0).
   */
  @Test
  void theSpecChoosesHowRechunkIntermediatesAreCompressedAndConsumed() throws Exception {
    Path work = tmp.resolve("work");
    interruptedTwoStageRechunk(
        work,
        Map.of(
            "rechunk_consume_intermediates", "false", "rechunk_intermediate_compression", "lz4"));
    assertThat(storedChunks(work, "-int1")).as("nothing consumed").isEqualTo(90);
    assertThat(intermediateMetadata(work)).containsPattern("\"clevel\"\\s*:\\s*5");
    Path plain = tmp.resolve("work-default");
    interruptedTwoStageRechunk(plain, Map.of());
    assertThat(intermediateMetadata(plain)).containsPattern("\"clevel\"\\s*:\\s*0");
  }

  private static String intermediateMetadata(Path work) throws Exception {
    try (Stream<Path> s = Files.walk(work)) {
      Path meta =
          s.filter(f -> f.getFileName().toString().equals("zarr.json"))
              .filter(f -> f.getParent().getFileName().toString().endsWith("-int1"))
              .findFirst()
              .orElseThrow(() -> new AssertionError("no -int1 array in " + work));
      return Files.readString(meta);
    }
  }

  /** Whether every target block is a box of whole source blocks (regular grids). */
  private static boolean joins(long[] shape, long[] source, long[] target) {
    if (Arrays.equals(source, target)) {
      return false;
    }
    for (int d = 0; d < shape.length; d++) {
      if (target[d] < shape[d] && target[d] % source[d] != 0) {
        return false;
      }
    }
    return true;
  }
}
