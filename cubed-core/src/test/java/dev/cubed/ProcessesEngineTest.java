package dev.cubed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
import dev.cubed.runtime.TaskFailedException;
import dev.cubed.runtime.ThreadsExecutor;
import dev.cubed.runtime.processes.ProcessesExecutor;
import dev.cubed.testing.NDAssert;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The engine's own ops on 2 worker processes give the threads executor's results. */
class ProcessesEngineTest {
  @TempDir Path dir;
  private final Set<ProcessHandle> seen = ConcurrentHashMap.newKeySet();

  @AfterEach
  void noWorkerLeftBehind() throws Exception {
    for (ProcessHandle h : seen) {
      h.onExit().get(2, TimeUnit.MINUTES);
      assertFalse(h.isAlive(), "worker " + h.pid() + " outlived its compute");
    }
  }

  private void same(Spec spec, Supplier<CubedArray> expr) {
    ProcessesExecutor p =
        ProcessesExecutor.builder()
            .workers(2)
            .allowedMem(spec.allowedMem())
            .reservedMem(spec.reservedMem())
            .build();
    p.onWorkerStart(seen::addAll);
    List<Events.TaskEnd> ends = new CopyOnWriteArrayList<>();
    NDArray got =
        expr.get()
            .compute(
                ComputeOptions.executor(p)
                    .withCallback(
                        new Callback() {
                          @Override
                          public void onTaskEnd(Events.TaskEnd e) {
                            ends.add(e);
                          }
                        }));
    NDArray want = expr.get().compute(ComputeOptions.executor(new ThreadsExecutor(2, 1)));
    NDAssert.assertExact(want, got, "processes vs threads");
    assertFalse(ends.isEmpty());
    for (Events.TaskEnd e : ends) {
      assertTrue(e.worker().startsWith("worker pid "), e.worker());
      assertTrue(e.measuredPeakMem() >= spec.reservedMem(), e.toString());
    }
  }

  @Test
  void randomAddSumRechunkMatmulEqualTheThreadsExecutor() {
    Spec spec =
        Spec.builder()
            .workDir(dir.resolve("w"))
            .allowedMem(100_000_000L)
            .reservedMem(10_000_000L)
            .build();
    long[] shape = {300, 200};
    long[] chunks = {70, 50};
    same(
        spec,
        () ->
            Xp.sum(
                Xp.add(Cubed.random(shape, chunks, 1, spec), Cubed.random(shape, chunks, 2, spec)),
                0));
    same(spec, () -> Xp.rechunk(Cubed.random(shape, chunks, 3, spec), 300, 20));
    same(
        spec,
        () ->
            Xp.matmul(
                Cubed.random(shape, chunks, 4, spec),
                Xp.permuteDims(Cubed.random(shape, chunks, 5, spec), 1, 0)));
  }

  @Test
  void specChoosesTheProcessesExecutorWithItsAttempts() {
    Spec spec =
        Spec.builder()
            .workDir(dir.resolve("w"))
            .executor("processes")
            .workers(2)
            .attempts(2)
            .allowedMem(100_000_000L)
            .reservedMem(10_000_000L)
            .build();
    assertTrue(Cubed.executor(spec) instanceof ProcessesExecutor);
    NDArray got = Xp.sum(Cubed.random(new long[] {100}, new long[] {30}, 7, spec)).compute();
    NDArray want =
        Xp.sum(Cubed.random(new long[] {100}, new long[] {30}, 7, spec))
            .compute(ComputeOptions.executor(new ThreadsExecutor(1, 1)));
    NDAssert.assertExact(want, got, "spec executor");
    assertThrows(IllegalArgumentException.class, () -> Spec.builder().attempts(0).build());
  }

  @Test
  void strictModeFailsATaskThatNeedsMoreThanItsProjection() {
    Spec spec =
        Spec.builder()
            .workDir(dir.resolve("w"))
            .allowedMem(200_000_000L)
            .reservedMem(10_000_000L)
            .build();
    ProcessesExecutor strict =
        ProcessesExecutor.builder()
            .workers(1)
            .attempts(1)
            .allowedMem(spec.allowedMem())
            .reservedMem(spec.reservedMem())
            .heapPerOp(true)
            .build();
    strict.onWorkerStart(seen::addAll);
    // a block function that holds 64 MB more than any projection knows about
    CubedArray x = Cubed.random(new long[] {1000}, new long[] {1000}, 1, spec);
    CubedArray hog =
        Xp.mapBlocks(
            blocks -> {
              long[][] held = new long[8][];
              for (int i = 0; i < held.length; i++) {
                held[i] = new long[1 << 20];
              }
              return held[7].length > 0 ? blocks[0] : blocks[0];
            },
            DType.FLOAT64,
            x);
    TaskFailedException e =
        assertThrows(TaskFailedException.class, () -> hog.compute(ComputeOptions.executor(strict)));
    assertTrue(e.getMessage().contains("OutOfMemoryError"), e.getMessage());
    assertEquals(1, e.attempts());
  }

  @Test
  void computeGivesTheRightAnswerWhenAWorkerIsKilledMidTask() throws Exception {
    Spec spec =
        Spec.builder()
            .workDir(dir.resolve("w"))
            .allowedMem(100_000_000L)
            .reservedMem(10_000_000L)
            .build();
    String marker = dir.resolve("running").toString();
    long[] shape = {400, 300};
    long[] chunks = {100, 100};
    NDArray input =
        Cubed.random(shape, chunks, 11, spec)
            .compute(ComputeOptions.executor(new ThreadsExecutor(1, 1)));
    double target = input.getDouble(200 * 300 + 100); // first element of block (2, 1)
    // the task of block (2, 1) announces its worker's pid on its first attempt, then waits to be
    // killed; its retry (marker present) computes normally
    Supplier<CubedArray> expr =
        () ->
            Xp.sum(
                Xp.mapBlocks(
                    blocks -> {
                      Path m = Path.of(marker);
                      if (blocks[0].getDouble(0) == target && !Files.exists(m)) {
                        Path tmp = Path.of(marker + ".tmp");
                        Files.writeString(tmp, Long.toString(ProcessHandle.current().pid()));
                        Files.move(tmp, m);
                        Thread.sleep(60_000);
                        throw new IllegalStateException("the test did not kill this worker");
                      }
                      return blocks[0];
                    },
                    DType.FLOAT64,
                    Cubed.random(shape, chunks, 11, spec)),
                0);
    ProcessesExecutor p =
        ProcessesExecutor.builder()
            .workers(2)
            .attempts(3)
            .allowedMem(spec.allowedMem())
            .reservedMem(spec.reservedMem())
            .build();
    p.onWorkerStart(seen::addAll);
    long[] killed = {-1};
    Thread killer =
        new Thread(
            () -> {
              try {
                Path m = Path.of(marker);
                while (!Files.exists(m)) {
                  Thread.sleep(10);
                }
                killed[0] = Long.parseLong(Files.readString(m));
                ProcessHandle.of(killed[0]).orElseThrow().destroyForcibly();
              } catch (Exception e) {
                throw new RuntimeException(e);
              }
            });
    killer.setDaemon(true);
    killer.start();
    List<Events.TaskEnd> ends = new CopyOnWriteArrayList<>();
    NDArray got =
        expr.get()
            .compute(
                ComputeOptions.executor(p)
                    .withCallback(
                        new Callback() {
                          @Override
                          public void onTaskEnd(Events.TaskEnd e) {
                            ends.add(e);
                          }
                        }));
    killer.join(5_000);
    assertTrue(killed[0] > 0, "the task announced its worker and it was killed");
    NDArray want =
        Xp.sum(Cubed.random(shape, chunks, 11, spec), 0)
            .compute(ComputeOptions.executor(new ThreadsExecutor(2, 1)));
    NDAssert.assertExact(want, got, "after a worker was killed mid-task");
    assertTrue(ends.stream().anyMatch(e -> e.attempts() == 2), "one task needed a retry");
    assertTrue(seen.size() >= 3, "2 workers + a replacement: " + seen.size());
  }
}
