package dev.cubed.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Forces, deterministically, the interleavings in which a scheduler can start an operation twice: a
 * pool that runs every task inline on the submitting thread makes each op finish (and start its
 * dependents) before the scheduler's start-up loop has looked at the next op. No timing involved.
 */
class SchedulerInterleavingTest {
  private static final Runnable NO_FAILURE_ACTION = () -> {};

  private static void runInline(List<Operation> ops, List<Callback> callbacks) {
    ThreadsExecutor.runDag(
        Runnable::run,
        NO_FAILURE_ACTION,
        ops,
        callbacks,
        (op, key, cbs) -> {
          try {
            op.function().run(key);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
          for (Callback c : cbs) {
            c.onTaskEnd(new Events.TaskEnd(op.name(), key, 0, 0, 1, -1, op.projectedMem()));
          }
        });
  }

  private static List<long[]> keys(int n) {
    List<long[]> k = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      k.add(new long[] {i});
    }
    return k;
  }

  /**
   * Op "b" depends on "a"; "c" is independent and comes last. With the inline pool, "a" finishes
   * while the start-up loop is at index 0, which starts "b" from a.finish; the loop then reaches
   * index 1 with b's waiting count already 0. An op must still run each task exactly once, and its
   * dependents must start only after all of them.
   */
  @Test
  void anOpStartedByItsPredecessorIsNotStartedAgainByTheStartUpLoop() {
    Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
    AtomicInteger bDone = new AtomicInteger();
    List<String> dSaw = new ArrayList<>();
    Operation a = new Operation("a", keys(1), k -> count(runs, "a", k), 1, List.of());
    Operation b =
        new Operation(
            "b",
            keys(3),
            k -> {
              count(runs, "b", k);
              bDone.incrementAndGet();
            },
            1,
            List.of("a"));
    Operation c = new Operation("c", keys(1), k -> count(runs, "c", k), 1, List.of());
    Operation d =
        new Operation("d", keys(1), k -> dSaw.add("b done " + bDone.get()), 1, List.of("b"));
    List<String> opStarts = new ArrayList<>();
    Callback cb =
        new Callback() {
          @Override
          public void onOpStart(Events.OpStart e) {
            opStarts.add(e.opName());
          }
        };
    runInline(List.of(a, b, c, d), List.of(cb));
    assertThat(runs).containsOnlyKeys("a:0", "b:0", "b:1", "b:2", "c:0");
    runs.forEach((k, v) -> assertThat(v.get()).as("runs of task " + k).isEqualTo(1));
    assertThat(opStarts).containsExactlyInAnyOrder("a", "b", "c", "d");
    assertThat(dSaw).containsExactly("b done 3");
  }

  /** The same race along a longer chain: every op of a -> b -> c -> d runs its tasks once. */
  @Test
  void aChainFinishingInlineRunsEachTaskOnce() {
    Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
    List<Operation> ops = new ArrayList<>();
    String prev = null;
    for (String n : List.of("a", "b", "c", "d")) {
      ops.add(
          new Operation(
              n, keys(2), k -> count(runs, n, k), 1, prev == null ? List.of() : List.of(prev)));
      prev = n;
    }
    ops.add(new Operation("z", keys(1), k -> count(runs, "z", k), 1, List.of()));
    runInline(ops, List.of());
    assertThat(runs).hasSize(9);
    runs.forEach((k, v) -> assertThat(v.get()).as("runs of task " + k).isEqualTo(1));
  }

  private static void count(Map<String, AtomicInteger> runs, String op, long[] k) {
    runs.computeIfAbsent(op + ":" + k[0], x -> new AtomicInteger()).incrementAndGet();
  }
}
