package dev.cubed.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.ComputeOptions;
import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.Xp;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
import dev.cubed.runtime.ThreadsExecutor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The flush of the results held in memory ({@link MemoryOutputs}: at a failure or when the JVM is
 * asked to end) racing the tasks that finish at the same moment and the end of the run. Whatever
 * the order, the compute directory left behind must be resumable to the exact result: a task marker
 * only for a block fully written there, and every finished block either written with its marker or
 * unmarked (computed again by the resume). The orders are forced through {@link
 * MemoryOutputs#seam}; the SIGTERM hook's work is {@link MemoryOutputs#flushRunning}.
 */
class MemoryOutputsFlushRaceTest {
  private static final long WAIT_SECONDS = 60;

  /** Block calls so far; the call numbered {@link #failAt} throws (static: not part of names). */
  static final AtomicInteger CALLS = new AtomicInteger();

  static volatile int failAt = -1;

  @TempDir Path tmp;

  @BeforeEach
  @AfterEach
  void reset() {
    MemoryOutputs.seam = MemoryOutputs.Seam.NONE;
    CALLS.set(0);
    failAt = -1;
  }

  private static Spec spec(Path work) {
    return Spec.builder().workDir(work).allowedMem(50_000_000).reservedMem(1000).build();
  }

  /** {@code n x n} doubles in {@code b x b} blocks, each block mapped to {@code 3x - 1}. */
  private static CubedArray program(Spec spec, int n, int b) {
    CubedArray x = Cubed.fromArray(input(n), new long[] {b, b}, spec);
    return Xp.mapBlocks(
        in -> {
          if (CALLS.incrementAndGet() == failAt) {
            throw new IllegalStateException("injected failure");
          }
          NDArray o = in[0].copy();
          for (int i = 0; i < o.size(); i++) {
            o.setDouble(i, o.getDouble(i) * 3 - 1);
          }
          return o;
        },
        DType.FLOAT64,
        x);
  }

  private static NDArray input(int n) {
    Random r = new Random(n);
    NDArray a = NDArray.zeros(DType.FLOAT64, n, n);
    for (int i = 0; i < a.size(); i++) {
      a.setDouble(i, r.nextDouble() * 10 - 5);
    }
    return a;
  }

  private static NDArray expected(int n) {
    NDArray a = input(n);
    for (int i = 0; i < a.size(); i++) {
      a.setDouble(i, a.getDouble(i) * 3 - 1);
    }
    return a;
  }

  /** Counts the tasks that ended and runs {@code at} when the {@code k}th one ended. */
  private static final class Ends implements Callback {
    final AtomicInteger n = new AtomicInteger();
    final CountDownLatch reached;
    final int k;
    final Runnable at;

    Ends(int k, Runnable at) {
      this.reached = new CountDownLatch(k);
      this.k = k;
      this.at = at;
    }

    @Override
    public void onTaskEnd(Events.TaskEnd e) {
      if (n.incrementAndGet() == k) {
        at.run();
      }
      reached.countDown();
    }
  }

  private static ComputeOptions opts(int workers, Callback c) {
    return ComputeOptions.executor(new ThreadsExecutor(workers, 1)).withCallback(c);
  }

  /** Runs the compute on its own thread: its result, or what it threw. */
  private static CompletableFuture<NDArray> start(ComputeOptions o, CubedArray a) {
    CompletableFuture<NDArray> f = new CompletableFuture<>();
    Thread t =
        new Thread(
            () -> {
              try {
                f.complete(Cubed.compute(o, a).get(0));
              } catch (Throwable e) {
                f.completeExceptionally(e);
              }
            },
            "race-run");
    t.setDaemon(true);
    t.start();
    return f;
  }

  /** What the compute threw (its cause as {@link CompletableFuture#get} wraps it), or null. */
  private static Throwable outcome(CompletableFuture<NDArray> f) throws Exception {
    try {
      f.get(WAIT_SECONDS, TimeUnit.SECONDS);
      return null;
    } catch (java.util.concurrent.ExecutionException e) {
      return e.getCause();
    }
  }

  private static void await(CountDownLatch l) {
    try {
      assertThat(l.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("reached in time").isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static long count(Path dir, boolean markers) {
    if (!Files.isDirectory(dir)) {
      return 0;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile)
          .map(Path::toString)
          .filter(
              p -> markers ? p.contains("/.done/") : p.contains("/c/") && !p.contains("/.done/"))
          .count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Resumes in {@code work} and checks that exactly the unmarked tasks ran again and the result is
   * exact (a marker without its block would be skipped and read back as fill values).
   */
  private static void resumesExactly(Path work, int n, int b, long tasks) {
    long marked = count(work, true);
    Ends again = new Ends(0, () -> {});
    NDArray got = Cubed.compute(opts(2, again).resume(), program(spec(work), n, b)).get(0);
    assertThat(again.n.get()).as("the resume runs the unmarked tasks").isEqualTo(tasks - marked);
    assertThat(got).isEqualTo(expected(n));
  }

  private static boolean is(long[] key, long... want) {
    return key != null && Arrays.equals(key, want);
  }

  @Test
  void aTaskRecordedAfterTheExitFlushIsLeftUnmarkedAndTheRunKeepsTheDirectory() throws Exception {
    Path work = tmp.resolve("a");
    CountDownLatch written = new CountDownLatch(1);
    CountDownLatch taskGo = new CountDownLatch(1);
    MemoryOutputs.seam =
        (point, op, key) -> {
          if (point == MemoryOutputs.Point.TASK_WRITTEN && is(key, 1, 1)) {
            written.countDown();
            await(taskGo);
          }
        };
    Ends ends = new Ends(8, () -> {});
    CompletableFuture<NDArray> run = start(opts(2, ends), program(spec(work), 40, 15));
    await(written);
    await(ends.reached);

    // the JVM is asked to end: block (1, 1) is in the result but its task has not recorded it
    MemoryOutputs.flushRunning();
    assertThat(count(work, true)).as("markers of the 8 recorded tasks").isEqualTo(8);
    assertThat(count(work, false)).as("and only their blocks").isEqualTo(8);

    taskGo.countDown();
    Throwable e = outcome(run);
    assertThat(e)
        .as("a run whose results were flushed at exit fails, keeping its directory")
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("resume");
    assertThat(count(work, true)).as("the late task stays unmarked").isEqualTo(8);
    resumesExactly(work, 40, 15, 9);
  }

  @Test
  void aTaskRecordedWhileTheFlushWalksAndTheRunEndingMeanwhileWaitForTheFlush() throws Exception {
    Path work = tmp.resolve("b");
    CountDownLatch written = new CountDownLatch(1);
    CountDownLatch taskGo = new CountDownLatch(1);
    CountDownLatch taken = new CountDownLatch(1);
    CountDownLatch flushGo = new CountDownLatch(1);
    CountDownLatch fourthWritten = new CountDownLatch(1);
    CountDownLatch fourthGo = new CountDownLatch(1);
    CountDownLatch runEnding = new CountDownLatch(1);
    AtomicInteger flushed = new AtomicInteger();
    MemoryOutputs.seam =
        (point, op, key) -> {
          switch (point) {
            case TASK_WRITTEN -> {
              if (is(key, 1, 1)) {
                written.countDown();
                await(taskGo);
              }
            }
            case FLUSH_TAKEN -> {
              taken.countDown();
              await(flushGo);
            }
            case FLUSH_BLOCKS_WRITTEN -> {
              if (flushed.incrementAndGet() == 4) {
                fourthWritten.countDown();
                await(fourthGo);
              }
            }
            case RUN_ENDING -> runEnding.countDown();
          }
        };
    Ends ends = new Ends(8, () -> {});
    CompletableFuture<NDArray> run = start(opts(2, ends), program(spec(work), 40, 15));
    await(written);
    await(ends.reached);

    Thread hook = new Thread(MemoryOutputs::flushRunning, "race-exit-hook");
    hook.start();
    await(taken);
    // the flush took the 8 recorded tasks; now (1, 1) records that it finished and the run ends
    taskGo.countDown();
    await(runEnding);
    flushGo.countDown();
    await(fourthWritten);
    assertThat(count(work, true))
        .as("a JVM halting here leaves 3 markers, each beside its written block")
        .isEqualTo(3);
    assertThat(count(work, false)).isEqualTo(4);
    fourthGo.countDown();
    hook.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));

    Throwable e = outcome(run);
    assertThat(e)
        .as("the run's end waited for the flush and then failed, keeping its directory")
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("resume");
    assertThat(count(work, true)).as("only the tasks the flush took are marked").isEqualTo(8);
    assertThat(count(work, false)).isEqualTo(8);
    resumesExactly(work, 40, 15, 9);
  }

  @Test
  void aFlushAfterTheRunEndedWritesNothingAndTheResultIsReturned() throws Exception {
    Path work = tmp.resolve("c");
    NDArray got = Cubed.compute(opts(2, new Ends(0, () -> {})), program(spec(work), 40, 15)).get(0);
    MemoryOutputs.flushRunning();
    assertThat(got).isEqualTo(expected(40));
    assertThat(count(work, true) + count(work, false)).isZero();
  }

  /**
   * Many rounds, seeded: 8 workers (more than the machine's cores) on 36 tasks that yield at random
   * at the race's points, an exit flush started after a random number of finished tasks, and in
   * some rounds a task failing (the failure's flush then races the exit's). Every round ends either
   * with the exact result and nothing left, or with a failure leaving a directory that resumes to
   * the exact result running exactly its unmarked tasks. Bounded by rounds and time.
   */
  @Test
  void stressedRoundsAlwaysLeaveAnExactlyResumableDirectory() throws Exception {
    long seed = 20261129L;
    Random rounds = new Random(seed);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
    int n = 60;
    int b = 10;
    int tasks = 36;
    int done = 0;
    int flushedRounds = 0;
    for (int round = 0; round < 40 && System.nanoTime() < deadline; round++) {
      long roundSeed = rounds.nextLong();
      Random r = new Random(roundSeed);
      int exitAfter = r.nextInt(tasks + 6); // above tasks: no exit flush
      int fail = r.nextInt(4) == 0 ? 1 + r.nextInt(tasks) : -1;
      int spin = 1 + r.nextInt(200);
      Path work = tmp.resolve("stress-" + round);
      reset();
      failAt = fail;
      AtomicInteger calls = new AtomicInteger();
      MemoryOutputs.seam =
          (point, op, key) -> {
            int k = calls.incrementAndGet() * 7 + point.ordinal();
            for (int i = 0; i < k % spin; i++) {
              Thread.yield();
            }
          };
      AtomicReference<Thread> hook = new AtomicReference<>();
      Runnable exit =
          () -> {
            Thread t = new Thread(MemoryOutputs::flushRunning, "race-exit-hook");
            hook.set(t);
            t.start();
          };
      Ends ends = new Ends(exitAfter, exit);
      if (exitAfter == 0) {
        exit.run();
      }
      CompletableFuture<NDArray> run = start(opts(8, ends), program(spec(work), n, b));
      Throwable e = outcome(run);
      Thread t = hook.get();
      if (t != null) {
        t.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        assertThat(t.isAlive())
            .as("round %d (seed %d): exit flush ended", round, roundSeed)
            .isFalse();
      }
      MemoryOutputs.seam = MemoryOutputs.Seam.NONE;
      failAt = -1;
      if (e == null) {
        assertThat(run.get()).as("round %d (seed %d)", round, roundSeed).isEqualTo(expected(n));
        assertThat(count(work, true)).as("round %d: nothing left", round).isZero();
      } else {
        flushedRounds++;
        assertThat(count(work, true)).isLessThanOrEqualTo(tasks);
        resumesExactly(work, n, b, tasks);
      }
      done++;
    }
    assertThat(done).as("rounds run").isGreaterThanOrEqualTo(5);
    assertThat(flushedRounds).as("rounds that left a directory to resume").isPositive();
    System.out.println(
        "MemoryOutputsFlushRaceTest stress: " + done + " rounds, " + flushedRounds + " resumed");
  }
}
