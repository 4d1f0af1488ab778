package dev.cubed.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.linalg.Linalg;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

class ThreadsExecutorTest {
  @Test
  void concurrencyIsCappedByHeap() {
    assertThat(ThreadsExecutor.cappedConcurrency(8, 100, 0, 1000, 200)).isEqualTo(8);
    assertThat(ThreadsExecutor.cappedConcurrency(8, 300, 0, 1000, 200)).isEqualTo(2);
    assertThat(ThreadsExecutor.cappedConcurrency(8, 5000, 0, 1000, 200)).isEqualTo(1);
    // reserved memory is the JVM's own (baseline and outside the heap), not counted in the heap:
    // (1000 - 200) / (300 - 100) = 4 tasks, not 2
    assertThat(ThreadsExecutor.cappedConcurrency(8, 300, 100, 1000, 200)).isEqualTo(4);
    assertThat(ThreadsExecutor.heapNeeded(3, 300, 100, 200)).isEqualTo(800);
    assertThat(ThreadsExecutor.heapNeeded(4, 300, 100, 200)).isEqualTo(1000);
    assertThat(ThreadsExecutor.heapNeeded(5, 300, 100, 200)).isEqualTo(1200);
    // a projection below reservedMem is all reserved: any number of such tasks fit
    assertThat(ThreadsExecutor.cappedConcurrency(8, 50, 100, 1000, 200)).isEqualTo(8);
    assertThat(ThreadsExecutor.heapNeeded(8, 50, 100, 200)).isEqualTo(200);
    // the two agree: the capped concurrency's heap fits, one more task's does not
    for (long task = 120; task < 900; task += 37) {
      int c = ThreadsExecutor.cappedConcurrency(64, task, 100, 1000, 200);
      if (c > 1) {
        assertThat(ThreadsExecutor.heapNeeded(c, task, 100, 200)).isLessThanOrEqualTo(1000);
      }
      if (c < 64) {
        assertThat(ThreadsExecutor.heapNeeded(c + 1, task, 100, 200)).isGreaterThan(1000);
      }
    }
  }

  /** A task that fits the heap alone, but not beside another: run one at a time, not refused. */
  @Test
  void hugeTasksRunOneAtATime() {
    ThreadsExecutor ex = new ThreadsExecutor(4, 1);
    AtomicInteger running = new AtomicInteger();
    AtomicInteger maxRunning = new AtomicInteger();
    List<long[]> keys = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      keys.add(new long[] {i});
    }
    Operation op =
        new Operation(
            "big",
            keys,
            k -> {
              maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
              Thread.sleep(5);
              running.decrementAndGet();
            },
            Runtime.getRuntime().maxMemory() / 4 * 3);
    RunReport report = ex.execute("c1", List.of(op), List.of());
    assertThat(report.concurrency()).isEqualTo(1);
    assertThat(maxRunning.get()).isEqualTo(1);
  }

  /** A task larger than the whole heap: refused before any event or task, with what to do. */
  @Test
  void aTaskLargerThanTheHeapIsRefusedBeforeRunning() {
    AtomicInteger ran = new AtomicInteger();
    List<String> events = Collections.synchronizedList(new ArrayList<>());
    Callback cb =
        new Callback() {
          @Override
          public void onComputeStart(Events.ComputeStart e) {
            events.add("start");
          }
        };
    long max = Runtime.getRuntime().maxMemory();
    Operation small =
        new Operation("small", List.<long[]>of(new long[] {0}), k -> ran.incrementAndGet(), 10);
    Operation big =
        new Operation(
            "too-big", List.<long[]>of(new long[] {0}), k -> ran.incrementAndGet(), max + 1);
    Assertions.assertThatThrownBy(
            () -> new ThreadsExecutor(2, 3).execute("c-heap", List.of(small, big), List.of(cb)))
        .isInstanceOf(InsufficientHeapException.class)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("operation too-big")
        .hasMessageContaining(String.format("%,d bytes", max + 1))
        .hasMessageContaining(String.format("max heap of %,d bytes", max))
        .hasMessageContaining("Lower allowedMem")
        .hasMessageContaining("-Xmx")
        .hasMessageContaining("CUBED_HEAP");
    assertThat(ran.get()).as("nothing ran").isZero();
    assertThat(events).as("no compute started").isEmpty();
    InsufficientHeapException e =
        Assertions.catchThrowableOfType(
            () -> ThreadsExecutor.checkFitsHeap(List.of(big), max),
            InsufficientHeapException.class);
    assertThat(e.opName()).isEqualTo("too-big");
    assertThat(e.projectedMem()).isEqualTo(max + 1);
    assertThat(e.maxHeap()).isEqualTo(max);
    ThreadsExecutor.checkFitsHeap(List.of(small), max); // fits: no exception
    // reservedMem is the JVM's own: a task projecting the max heap plus its reserved part fits
    ThreadsExecutor.checkFitsHeap(List.of(big), max, 1);
    InsufficientHeapException r =
        Assertions.catchThrowableOfType(
            () -> ThreadsExecutor.checkFitsHeap(List.of(big), max - 1, 1),
            InsufficientHeapException.class);
    assertThat(r).hasMessageContaining("reservedMem").hasMessageContaining("too-big");
  }

  @Test
  void eventsArriveInOrderWithTimings() {
    List<String> seen = Collections.synchronizedList(new ArrayList<>());
    Callback cb =
        new Callback() {
          @Override
          public void onComputeStart(Events.ComputeStart e) {
            seen.add("compute-start:" + e.numOps() + ":" + e.numTasks());
          }

          @Override
          public void onOpStart(Events.OpStart e) {
            seen.add("op-start:" + e.opName());
          }

          @Override
          public void onTaskEnd(Events.TaskEnd e) {
            assertThat(e.endMillis()).isGreaterThanOrEqualTo(e.startMillis());
            seen.add("task:" + e.opName());
          }

          @Override
          public void onOpEnd(Events.OpEnd e) {
            seen.add("op-end:" + e.opName());
          }

          @Override
          public void onComputeEnd(Events.ComputeEnd e) {
            seen.add("compute-end:" + (e.error() == null));
          }
        };
    Operation a = new Operation("a", List.of(new long[] {0}, new long[] {1}), k -> {}, 10);
    Operation b = new Operation("b", List.of(new long[] {0}), k -> {}, 10);
    new ThreadsExecutor(2, 3).execute("c2", List.of(a, b), List.of(cb));
    assertThat(seen)
        .containsExactly(
            "compute-start:2:3",
            "op-start:a",
            "task:a",
            "task:a",
            "op-end:a",
            "op-start:b",
            "task:b",
            "op-end:b",
            "compute-end:true");
    assertThat(Executor.byName("threads")).isInstanceOf(ThreadsExecutor.class);
  }

  @Test
  void independentOpsRunConcurrentlyAndDependentsWait() {
    // "a" cannot finish until "b" has run: with op-by-op execution this would time out
    CountDownLatch bRan = new CountDownLatch(1);
    AtomicBoolean aSawB = new AtomicBoolean();
    AtomicInteger aDone = new AtomicInteger();
    AtomicBoolean cSawA = new AtomicBoolean();
    Operation a =
        new Operation(
            "a",
            List.of(new long[] {0}),
            k -> {
              aSawB.set(bRan.await(5, TimeUnit.MINUTES));
              aDone.incrementAndGet();
            },
            10,
            List.of());
    Operation b = new Operation("b", List.of(new long[] {0}), k -> bRan.countDown(), 10, List.of());
    Operation c =
        new Operation(
            "c",
            List.of(new long[] {0}, new long[] {1}),
            k -> cSawA.set(aDone.get() == 1),
            10,
            List.of("a"));
    new ThreadsExecutor(2, 1).execute("c3", List.of(a, b, c), List.of());
    assertThat(aSawB).isTrue();
    assertThat(cSawA).isTrue();
  }

  @Test
  void unknownDependenciesMeanEveryEarlierOp() {
    List<String> order = Collections.synchronizedList(new ArrayList<>());
    Operation a =
        new Operation(
            "a",
            List.of(new long[] {0}),
            k -> {
              Thread.sleep(50);
              order.add("a");
            },
            10,
            List.of());
    Operation b = new Operation("b", List.of(new long[] {0}), k -> order.add("b"), 10, List.of());
    Operation c = new Operation("c", List.of(new long[] {0}), k -> order.add("c"), 10);
    new ThreadsExecutor(2, 1).execute("c4", List.of(a, b, c), List.of());
    assertThat(order).containsExactly("b", "a", "c");
  }

  @Test
  void aDependencyOnALaterOrMissingOpIsRejected() {
    Operation a = new Operation("a", List.of(new long[] {0}), k -> {}, 10, List.of("b"));
    Operation b = new Operation("b", List.of(new long[] {0}), k -> {}, 10, List.of());
    Assertions.assertThatThrownBy(
            () -> new ThreadsExecutor(1, 1).execute("c5", List.of(a, b), List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("operation a depends on 'b'")
        .hasMessageContaining("not an earlier operation");
  }

  @Test
  void aFailureInOneBranchFailsTheComputeWithItsCause() {
    AtomicInteger ran = new AtomicInteger();
    Operation bad =
        new Operation(
            "bad",
            List.of(new long[] {0}),
            k -> {
              throw new IOException("disk on fire");
            },
            10,
            List.of());
    Operation after =
        new Operation(
            "after", List.of(new long[] {0}), k -> ran.incrementAndGet(), 10, List.of("bad"));
    Assertions.assertThatThrownBy(
            () -> new ThreadsExecutor(2, 2).execute("c6", List.of(bad, after), List.of()))
        .isInstanceOf(TaskFailedException.class)
        .hasRootCauseMessage("disk on fire");
    assertThat(ran.get()).isZero();
  }

  @Test
  void workersHaveLargeStacksForNativeKernels() {
    ThreadsExecutor ex = new ThreadsExecutor(1, 1);
    int n = 600;
    double[] d = new double[n * n];
    Random rnd = new Random(7);
    for (int i = 0; i < d.length; i++) {
      d[i] = rnd.nextDouble();
    }
    for (int i = 0; i < n; i++) {
      d[i * n + i] += n;
    }
    NDArray a = new NDArray(DType.FLOAT64, new long[] {n, n}, d);
    double[] err = new double[1];
    Operation op =
        new Operation(
            "inv",
            List.<long[]>of(new long[] {0}),
            k -> {
              NDArray inv = Linalg.inv(a);
              NDArray id = Linalg.matmul(a, inv);
              double[] v = (double[]) id.data();
              double e = 0;
              for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                  e = Math.max(e, Math.abs(v[i * n + j] - (i == j ? 1 : 0)));
                }
              }
              err[0] = e;
            },
            0);
    ex.execute("c-stack", List.of(op), List.of());
    assertThat(err[0]).isLessThan(1e-9);
  }
}
