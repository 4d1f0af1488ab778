package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.Index;
import dev.cubed.nd.Indexing;
import dev.cubed.nd.Manipulation;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.elementwise.Elementwise;
import dev.cubed.nd.reduce.Statistics;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
import dev.cubed.runtime.Executor;
import dev.cubed.runtime.Operation;
import dev.cubed.runtime.RunReport;
import dev.cubed.runtime.ThreadsExecutor;
import dev.cubed.testing.NDAssert;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many small random plans on a threads executor with more workers than cores and random delays in
 * the tasks, every result compared with the in-memory kernel on the same data.
 *
 * <p>Plans are generated from a seed (deterministic): 1-3 inputs ({@link Cubed#fromArray} with
 * random chunks, or {@link Cubed#random}), then 3-7 ops drawn from elementwise unary and binary
 * ops, reductions along an axis, slices with steps (negative included), rechunks and concats, each
 * applied to any earlier array, so inputs are shared and branches are independent; 1-3 of the
 * arrays are computed at once with {@link Cubed#compute}. allowedMem is tiny and fusion is limited
 * to 2 input blocks so plans have several ops. In every other plan the executor is wrapped so that
 * a quarter of the tasks first sleep a random 0-2 ms (seeded by op name and key), which shuffles
 * task and op completion orders; the other plans run tasks undelayed, so ops finish while the
 * scheduler's start-up loop is still running. This finds the double-start bug of the old scheduler
 * (an op started both by the start-up loop and by its finished predecessor): each task must run
 * exactly once (attempts = 1), and every output must match the kernel. The wrapper uses only the
 * {@link Executor} interface, so the test runs unchanged on any scheduler. A callback sleeps 0-2 ms
 * in most op start/end events (a slow progress bar), which widens the window between the start-up
 * loop's steps.
 */
class SchedulerStressTest {
  static final int PLANS = 150;
  static final int WORKERS = 6;

  @TempDir Path dir;

  /** Delays a quarter of the tasks by 0-2 ms (if {@code delays}); counts the runs of each task. */
  static final class DelayingExecutor implements Executor {
    final Executor delegate;
    final long seed;
    final boolean delays;
    final ConcurrentHashMap<String, AtomicInteger> taskRuns = new ConcurrentHashMap<>();

    DelayingExecutor(Executor delegate, long seed, boolean delays) {
      this.delegate = delegate;
      this.seed = seed;
      this.delays = delays;
    }

    @Override
    public String name() {
      return "delaying-" + delegate.name();
    }

    @Override
    public RunReport execute(String computeId, List<Operation> ops, List<Callback> callbacks) {
      List<Operation> wrapped = new ArrayList<>();
      for (Operation op : ops) {
        wrapped.add(
            new Operation(
                op.name(),
                op.keys(),
                k -> {
                  taskRuns
                      .computeIfAbsent(op.name() + Arrays.toString(k), x -> new AtomicInteger())
                      .incrementAndGet();
                  SplittableRandom r =
                      new SplittableRandom(
                          seed * 31 + op.name().hashCode() * 17L + Arrays.hashCode(k));
                  if (delays && r.nextInt(4) == 0) {
                    Thread.sleep(r.nextInt(3));
                  }
                  op.function().run(k);
                },
                op.projectedMem(),
                op.dependencies()));
      }
      return delegate.execute(computeId, wrapped, callbacks);
    }
  }

  /**
   * A callback that sleeps in 3/4 of the op start (1-2 ms) and op end (0-1 ms) events (seeded by op
   * name): a slow progress callback, which widens the windows between the scheduler's steps.
   */
  static Callback slowEvents(long seed) {
    return new Callback() {
      @Override
      public void onOpStart(Events.OpStart e) {
        pause("start" + e.opName(), 1, 1);
      }

      private void pause(String what, int minMs, int maxMs) {
        SplittableRandom r = new SplittableRandom(seed * 131 + what.hashCode());
        if (r.nextInt(4) != 0) {
          try {
            Thread.sleep(minMs + r.nextInt(maxMs - minMs + 1));
          } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
          }
        }
      }
    };
  }

  /** An engine array and the kernel's answer for it. */
  record Pair(CubedArray lazy, NDArray expected, String how) {}

  @Test
  void randomPlansMatchTheKernel() {
    Spec spec =
        Spec.builder().workDir(dir).allowedMem(400_000).reservedMem(1000).maxInputBlocks(2).build();
    long t0 = System.nanoTime();
    int outputs = 0;
    for (int p = 0; p < PLANS; p++) {
      long seed = 1000 + p;
      Random r = new Random(seed);
      List<Pair> pool = new ArrayList<>();
      int inputs = 1 + r.nextInt(3);
      long rows = 4 + r.nextInt(10);
      long cols = 3 + r.nextInt(10);
      for (int i = 0; i < inputs; i++) {
        pool.add(input(r, rows, cols, spec));
      }
      int nops = 3 + r.nextInt(5);
      for (int i = 0; i < nops; i++) {
        pool.add(randomOp(r, pool));
      }
      int k = 1 + r.nextInt(3);
      List<Pair> outs = new ArrayList<>();
      for (int i = 0; i < k; i++) {
        // mostly late arrays (long chains), sometimes early ones (short independent branches)
        int j =
            r.nextInt(3) == 0
                ? r.nextInt(pool.size())
                : pool.size() - 1 - r.nextInt(Math.min(3, pool.size()));
        Pair c = pool.get(j);
        if (!outs.contains(c)) {
          outs.add(c);
        }
      }
      DelayingExecutor ex = new DelayingExecutor(new ThreadsExecutor(WORKERS, 1), seed, p % 2 == 1);
      List<NDArray> got =
          Cubed.compute(
              ComputeOptions.executor(ex).withCallback(slowEvents(seed)),
              outs.stream().map(Pair::lazy).toArray(CubedArray[]::new));
      for (int i = 0; i < outs.size(); i++) {
        NDAssert.assertClose(
            outs.get(i).expected(),
            got.get(i),
            1e-9,
            8,
            "plan seed " + seed + ", output " + i + " = " + outs.get(i).how());
      }
      ex.taskRuns.forEach(
          (task, n) ->
              assertThat(n.get()).as("plan seed " + seed + ": runs of task " + task).isEqualTo(1));
      outputs += outs.size();
    }
    double s = (System.nanoTime() - t0) / 1e9;
    System.out.printf(
        "SchedulerStressTest: %d plans, %d outputs checked in %.1f s%n", PLANS, outputs, s);
  }

  private static long[] randomChunks(Random r, long[] shape) {
    long[] c = new long[shape.length];
    for (int i = 0; i < c.length; i++) {
      c[i] = 1 + r.nextInt((int) Math.max(1, Math.min(shape[i], 6)));
    }
    return c;
  }

  private static Pair input(Random r, long rows, long cols, Spec spec) {
    long[] shape = {rows, cols};
    long[] chunks = randomChunks(r, shape);
    if (r.nextBoolean()) {
      NDArray a = EngineTestSupport.randomDoubles(r.nextLong(), rows, cols);
      return new Pair(Cubed.fromArray(a, chunks, spec), a, "fromArray" + Arrays.toString(chunks));
    }
    long seed = r.nextInt(1000);
    NDArray a = NDArray.zeros(DType.FLOAT64, shape);
    for (int i = 0; i < a.size(); i++) {
      a.setDouble(i, Cubed.uniform(seed, i));
    }
    return new Pair(Cubed.random(shape, chunks, seed, spec), a, "random" + Arrays.toString(chunks));
  }

  private static Pair randomOp(Random r, List<Pair> pool) {
    Pair x = pool.get(r.nextInt(pool.size()));
    long[] shape = x.expected().shape();
    switch (r.nextInt(7)) {
      case 0:
        {
          return r.nextBoolean()
              ? new Pair(
                  Xp.negative(x.lazy()), Elementwise.negative(x.expected()), "neg(" + x.how() + ")")
              : new Pair(Xp.sin(x.lazy()), Elementwise.sin(x.expected()), "sin(" + x.how() + ")");
        }
      case 1:
        {
          Pair y = sameShape(r, pool, shape);
          if (y == null) {
            return new Pair(
                Xp.square(x.lazy()), Elementwise.square(x.expected()), "square(" + x.how() + ")");
          }
          return r.nextBoolean()
              ? new Pair(
                  Xp.add(x.lazy(), y.lazy()),
                  Elementwise.add(x.expected(), y.expected()),
                  "add(" + x.how() + ", " + y.how() + ")")
              : new Pair(
                  Xp.multiply(x.lazy(), y.lazy()),
                  Elementwise.multiply(x.expected(), y.expected()),
                  "mul(" + x.how() + ", " + y.how() + ")");
        }
      case 2:
        {
          if (shape.length == 0) {
            return new Pair(
                Xp.square(x.lazy()), Elementwise.square(x.expected()), "square(" + x.how() + ")");
          }
          int axis = r.nextInt(shape.length);
          return new Pair(
              Xp.sum(x.lazy(), axis),
              Statistics.sum(x.expected(), Axes.of(axis)),
              "sum(" + x.how() + ", " + axis + ")");
        }
      case 3:
        {
          if (shape.length == 0) {
            return new Pair(
                Xp.negative(x.lazy()), Elementwise.negative(x.expected()), "neg(" + x.how() + ")");
          }
          Index[] idx = new Index[shape.length];
          for (int i = 0; i < shape.length; i++) {
            long step = new long[] {1, 2, 3, -1, -2}[r.nextInt(5)];
            long n = shape[i];
            Long start = step > 0 ? (Long) (long) r.nextInt((int) Math.max(1, n / 2)) : null;
            idx[i] = new Index.Slice(start, null, step);
          }
          return new Pair(
              Xp.getItem(x.lazy(), idx), Indexing.get(x.expected(), idx), "slice(" + x.how() + ")");
        }
      case 4:
        {
          if (shape.length == 0) {
            return new Pair(
                Xp.sin(x.lazy()), Elementwise.sin(x.expected()), "sin(" + x.how() + ")");
          }
          long[] c = randomChunks(r, shape);
          return new Pair(
              Xp.rechunk(x.lazy(), c),
              x.expected(),
              "rechunk(" + x.how() + ", " + Arrays.toString(c) + ")");
        }
      case 5:
        {
          if (shape.length == 0) {
            return new Pair(
                Xp.negative(x.lazy()), Elementwise.negative(x.expected()), "neg(" + x.how() + ")");
          }
          Pair y = sameShape(r, pool, shape);
          Pair other = y == null ? x : y;
          return new Pair(
              Xp.concat(List.of(x.lazy(), other.lazy()), 0),
              Manipulation.concat(new NDArray[] {x.expected(), other.expected()}, 0),
              "concat(" + x.how() + ", " + other.how() + ")");
        }
      default:
        {
          Pair y = sameShape(r, pool, shape);
          Pair other = y == null ? x : y;
          return new Pair(
              Xp.subtract(x.lazy(), other.lazy()),
              Elementwise.subtract(x.expected(), other.expected()),
              "sub(" + x.how() + ", " + other.how() + ")");
        }
    }
  }

  private static Pair sameShape(Random r, List<Pair> pool, long[] shape) {
    List<Pair> c = pool.stream().filter(q -> Arrays.equals(q.expected().shape(), shape)).toList();
    return c.isEmpty() ? null : c.get(r.nextInt(c.size()));
  }
}
