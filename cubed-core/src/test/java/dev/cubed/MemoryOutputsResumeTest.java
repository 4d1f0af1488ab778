package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
import dev.cubed.runtime.TaskFailedException;
import dev.cubed.runtime.ThreadsExecutor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A result read back by the run is written by its tasks straight into memory (nothing in the
 * compute directory while it runs); when the run fails, the blocks of its finished tasks are
 * written to the compute directory with their completion markers, so a resume skips them.
 */
class MemoryOutputsResumeTest {
  /** Block calls so far; the call numbered {@link #failAt} throws (static: not part of names). */
  static final AtomicInteger CALLS = new AtomicInteger();

  static volatile int failAt = -1;

  /** Chunk files in the work directory when the failing call ran (-1: it did not run). */
  static volatile long chunksAtFailure = -1;

  static volatile Path work;

  @TempDir Path tmp;

  @BeforeEach
  void reset() {
    CALLS.set(0);
    failAt = -1;
    chunksAtFailure = -1;
  }

  /** 40x40 in 15x15 blocks (3x3 tasks, edge blocks of 10): the op's output is the result. */
  private static CubedArray program(Spec spec) {
    NDArray a = EngineTestSupport.randomDoubles(7, 40, 40);
    CubedArray x = Cubed.fromArray(a, new long[] {15, 15}, spec);
    return Xp.mapBlocks(
        b -> {
          if (CALLS.incrementAndGet() == failAt) {
            chunksAtFailure = chunkFiles(work);
            throw new IllegalStateException("injected failure");
          }
          NDArray o = b[0].copy();
          for (int i = 0; i < o.size(); i++) {
            o.setDouble(i, o.getDouble(i) * 3 - 1);
          }
          return o;
        },
        DType.FLOAT64,
        x);
  }

  /**
   * 40x40 in irregular blocks (10, 15, 15) x (15, 15, 10), as a misaligned slice gives: the op's
   * output is the result, on an irregular grid.
   */
  private static CubedArray irregularProgram(Spec spec) {
    NDArray a = EngineTestSupport.randomDoubles(7, 40, 40);
    long[][] sizes = {{10, 15, 15}, {15, 15, 10}};
    CubedArray x = Cubed.fromArray(a, sizes, spec);
    return Xp.mapBlocks(
        b -> {
          if (CALLS.incrementAndGet() == failAt) {
            chunksAtFailure = chunkFiles(work);
            throw new IllegalStateException("injected failure");
          }
          NDArray o = b[0].copy();
          for (int i = 0; i < o.size(); i++) {
            o.setDouble(i, o.getDouble(i) * 3 - 1);
          }
          return o;
        },
        DType.FLOAT64,
        x);
  }

  private static final class Counter implements Callback {
    final List<String> tasks = Collections.synchronizedList(new ArrayList<>());

    @Override
    public void onTaskEnd(Events.TaskEnd e) {
      tasks.add(e.opName() + " " + Arrays.toString(e.key()));
    }
  }

  private static ComputeOptions opts(Counter c) {
    return ComputeOptions.executor(new ThreadsExecutor(1, 1)).withCallback(c);
  }

  /** Zarr chunk files (under a {@code c/} folder) anywhere below {@code dir}. */
  static long chunkFiles(Path dir) {
    if (!Files.isDirectory(dir)) {
      return 0;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile)
          .filter(p -> p.toString().contains("/c/") && !p.toString().contains("/.done/"))
          .count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static long markers(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).filter(p -> p.toString().contains("/.done/")).count();
    }
  }

  @Test
  void aFailedRunWritesTheFinishedBlocksItHeldAndResumeSkipsThem() throws Exception {
    work = tmp.resolve("fresh");
    Counter fresh = new Counter();
    NDArray expected =
        Cubed.compute(opts(fresh), program(EngineTestSupport.tinySpec(work, 10_000_000))).get(0);
    assertThat(fresh.tasks).hasSize(9);
    NDArray a = EngineTestSupport.randomDoubles(7, 40, 40);
    for (int i = 0; i < a.size(); i++) {
      assertThat(expected.getDouble(i)).isEqualTo(a.getDouble(i) * 3 - 1);
    }

    work = tmp.resolve("work");
    Spec spec = EngineTestSupport.tinySpec(work, 10_000_000);
    CALLS.set(0);
    failAt = 6;
    Counter first = new Counter();
    assertThatThrownBy(() -> Cubed.compute(opts(first), program(spec)))
        .isInstanceOf(TaskFailedException.class);
    assertThat(first.tasks).hasSize(5);
    assertThat(chunksAtFailure)
        .as("the result's blocks are held in memory while the run goes on")
        .isZero();
    assertThat(chunkFiles(work))
        .as("the finished blocks, written when the run failed")
        .isEqualTo(5);
    assertThat(markers(work)).as("and their completion markers").isEqualTo(5);

    failAt = -1;
    Counter resumed = new Counter();
    NDArray got = Cubed.compute(opts(resumed).resume(), program(spec)).get(0);
    assertThat(resumed.tasks).as("only the unfinished tasks run again").hasSize(4);
    assertThat(got).isEqualTo(expected);
    assertThat(chunkFiles(work)).as("success deletes the compute directory").isZero();
  }

  @Test
  void aRunWritingOnlyToMemoryTouchesTheWorkDirectoryOnlyWhenItFailsWithBlocksToKeep()
      throws Exception {
    work = tmp.resolve("light");
    Spec spec = EngineTestSupport.tinySpec(work, 10_000_000);
    NDArray expected = Cubed.compute(opts(new Counter()), program(spec)).get(0);
    assertThat(work)
        .as("a successful run writing only into memory makes no compute directory")
        .doesNotExist();

    CALLS.set(0);
    failAt = 1;
    assertThatThrownBy(() -> Cubed.compute(opts(new Counter()), program(spec)))
        .isInstanceOf(TaskFailedException.class);
    assertThat(work).as("a failure with no finished task keeps nothing").doesNotExist();

    CALLS.set(0);
    failAt = 4;
    assertThatThrownBy(() -> Cubed.compute(opts(new Counter()), program(spec)))
        .isInstanceOf(TaskFailedException.class);
    assertThat(markers(work)).as("a failure keeps its finished tasks for a resume").isEqualTo(3);

    failAt = -1;
    Counter plain = new Counter();
    NDArray again = Cubed.compute(opts(plain), program(spec)).get(0);
    assertThat(plain.tasks).as("a plain compute runs every task").hasSize(9);
    assertThat(again).isEqualTo(expected);
    try (Stream<Path> s = Files.list(work)) {
      assertThat(s.toList())
          .as("and removes what the failed run of the same plan kept, as before")
          .isEmpty();
    }
  }

  @Test
  void anIrregularResultIsHeldInMemoryAndAFailedRunStoresItPaddedForResume() throws Exception {
    work = tmp.resolve("irregular");
    Spec spec = EngineTestSupport.tinySpec(work, 10_000_000);
    NDArray a = EngineTestSupport.randomDoubles(7, 40, 40);
    failAt = 6;
    Counter first = new Counter();
    assertThatThrownBy(() -> Cubed.compute(opts(first), irregularProgram(spec)))
        .isInstanceOf(TaskFailedException.class);
    assertThat(first.tasks).hasSize(5);
    assertThat(chunksAtFailure)
        .as("an output on an irregular grid is held in memory too, not written and read back")
        .isZero();
    assertThat(chunkFiles(work))
        .as("the finished blocks, written when the run failed")
        .isEqualTo(5);

    failAt = -1;
    Counter resumed = new Counter();
    NDArray got = Cubed.compute(opts(resumed).resume(), irregularProgram(spec)).get(0);
    assertThat(resumed.tasks).as("only the unfinished tasks run again").hasSize(4);
    for (int i = 0; i < a.size(); i++) {
      assertThat(got.getDouble(i)).isEqualTo(a.getDouble(i) * 3 - 1);
    }
  }

  @Test
  void blocksStreamedInRunsLandAtTheirPlaceInTheResult() {
    // tiles of 64 bytes: the elementwise chain is a streamed write, its runs cross block rows
    Spec spec =
        Spec.builder()
            .workDir(tmp.resolve("streamed"))
            .allowedMem(10_000_000)
            .reservedMem(1000)
            .tileBytes(64)
            .build();
    NDArray a = EngineTestSupport.randomDoubles(3, 23, 17, 13);
    NDArray b = EngineTestSupport.randomDoubles(4, 23, 17, 13);
    CubedArray x = Cubed.fromArray(a, new long[] {5, 6, 4}, spec);
    CubedArray y = Cubed.fromArray(b, new long[] {5, 6, 4}, spec);
    NDArray got =
        Cubed.compute(
                ComputeOptions.executor(new ThreadsExecutor(2, 1)).withCallback(new Counter()),
                Xp.add(Xp.multiply(x, y), 1.0))
            .get(0);
    assertThat(got.shape()).containsExactly(23, 17, 13);
    for (int i = 0; i < a.size(); i++) {
      assertThat(got.getDouble(i)).isEqualTo(a.getDouble(i) * b.getDouble(i) + 1.0);
    }
    assertThat(chunkFiles(tmp.resolve("streamed"))).isZero();
  }

  /** The elements of a float64 little-endian result buffer, as an array of {@code shape}. */
  private static NDArray fromBuffer(ByteBuffer b, long... shape) {
    return NDArray.fromBytes(DType.FLOAT64, shape, b.duplicate().clear(), ByteOrder.LITTLE_ENDIAN);
  }

  @Test
  void resultsGoIntoTheCallersBuffersWhenGivenOne() {
    // tiles of 64 bytes: streamed runs cross block rows; 3-d blocks not spanning trailing axes
    Spec spec =
        Spec.builder()
            .workDir(tmp.resolve("buffers"))
            .allowedMem(10_000_000)
            .reservedMem(1000)
            .tileBytes(64)
            .build();
    NDArray a = EngineTestSupport.randomDoubles(3, 23, 17, 13);
    CubedArray x = Cubed.fromArray(a, new long[] {5, 6, 4}, spec);
    CubedArray y = Xp.add(Xp.multiply(x, x), 1.0);
    CubedArray z = Cubed.fromArray(a, new long[] {5, 17, 13}, spec);
    CubedArray w = Xp.multiply(z, 2.0);
    List<ByteBuffer> given = new ArrayList<>(Collections.nCopies(3, null));
    List<NDArray> got =
        Cubed.computeInto(
            (i, dtype, shape) -> {
              assertThat(dtype).isEqualTo(DType.FLOAT64);
              assertThat(shape).containsExactly(23, 17, 13);
              given.set(i, ByteBuffer.allocateDirect(23 * 17 * 13 * 8));
              return given.get(i);
            },
            ComputeOptions.executor(new ThreadsExecutor(2, 1)),
            y,
            w,
            y);
    assertThat(got.get(0)).as("the first position of a buffered result is null").isNull();
    assertThat(got.get(1)).isNull();
    assertThat(given.get(2)).as("asked once per output node").isNull();
    NDArray yy = fromBuffer(given.get(0), 23, 17, 13);
    NDArray ww = fromBuffer(given.get(1), 23, 17, 13);
    for (int i = 0; i < a.size(); i++) {
      assertThat(yy.getDouble(i)).isEqualTo(a.getDouble(i) * a.getDouble(i) + 1.0);
      assertThat(ww.getDouble(i)).isEqualTo(a.getDouble(i) * 2.0);
    }
    assertThat(got.get(2)).as("a repeated output comes back as a copy").isEqualTo(yy);
    assertThat(chunkFiles(tmp.resolve("buffers"))).isZero();
  }

  @Test
  void aFailedRunWritesTheFinishedBlocksOfABufferedResultAndResumeSkipsThem() throws Exception {
    work = tmp.resolve("buffered");
    Spec spec = EngineTestSupport.tinySpec(work, 10_000_000);
    NDArray expected = Cubed.compute(opts(new Counter()), program(spec)).get(0);
    CALLS.set(0);
    failAt = 6;
    Counter first = new Counter();
    ByteBuffer[] buf = new ByteBuffer[1];
    assertThatThrownBy(
            () ->
                Cubed.computeInto(
                    (i, dtype, shape) -> buf[0] = ByteBuffer.allocate(40 * 40 * 8),
                    opts(first),
                    program(spec)))
        .isInstanceOf(TaskFailedException.class);
    assertThat(buf[0]).isNotNull();
    assertThat(first.tasks).hasSize(5);
    assertThat(chunksAtFailure).as("the blocks are in the buffer while the run goes on").isZero();
    assertThat(chunkFiles(work))
        .as("the finished blocks, written when the run failed")
        .isEqualTo(5);
    assertThat(markers(work)).isEqualTo(5);

    failAt = -1;
    Counter resumed = new Counter();
    NDArray got = Cubed.compute(opts(resumed).resume(), program(spec)).get(0);
    assertThat(resumed.tasks).as("only the unfinished tasks run again").hasSize(4);
    assertThat(got).isEqualTo(expected);
  }
}
