package dev.cubed.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** Injected faults: computes survive them, and a seed makes them reproducible. */
class FaultsTest {
  private static List<long[]> keys(int n) {
    List<long[]> k = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      k.add(new long[] {i});
    }
    return k;
  }

  /** Two dependent ops: b reads what a wrote, so a lost write would show. */
  private static Map<Long, Long> run(ThreadsExecutor ex) {
    return run(ex, new RunReport[1]);
  }

  /** As {@link #run(ThreadsExecutor)}, putting the executor's report in {@code report[0]}. */
  private static Map<Long, Long> run(ThreadsExecutor ex, RunReport[] report) {
    Map<Long, Long> a = new ConcurrentHashMap<>();
    Map<Long, Long> b = new ConcurrentHashMap<>();
    Operation opA = new Operation("a", keys(60), k -> a.put(k[0], k[0] * k[0]), 10);
    Operation opB = new Operation("b", keys(60), k -> b.put(k[0], a.get(k[0]) + 1), 10);
    report[0] = ex.execute("c-faults", List.of(opA, opB), List.of());
    return b;
  }

  @Test
  void computesSurviveInjectedFailuresReproducibly() {
    Faults f1 = Faults.failing(0.3, 42);
    Map<Long, Long> b =
        run(
            ThreadsExecutor.builder()
                .workers(4)
                .attempts(10)
                .retryBackoff(Duration.ZERO)
                .faults(f1)
                .build());
    for (long i = 0; i < 60; i++) {
      assertThat(b.get(i)).isEqualTo(i * i + 1);
    }
    assertThat(f1.injectedFailures()).isGreaterThan(10);
    assertThat(f1.attemptsSeen()).isEqualTo(120 + f1.injectedFailures());
    Faults f2 = Faults.failing(0.3, 42);
    run(
        ThreadsExecutor.builder()
            .workers(2)
            .attempts(10)
            .retryBackoff(Duration.ZERO)
            .faults(f2)
            .build());
    assertThat(f2.injectedFailures()).as("same seed, same faults").isEqualTo(f1.injectedFailures());
  }

  @Test
  void hangsAreRescuedByTheTimeout() {
    Faults f =
        Faults.builder().seed(3).hang(0.15).delay(Duration.ZERO, Duration.ofMillis(3)).build();
    ThreadsExecutor ex =
        ThreadsExecutor.builder()
            .workers(4)
            .attempts(8)
            .taskTimeout(Duration.ofMillis(150))
            .faults(f)
            .build();
    RunReport[] report = new RunReport[1];
    Map<Long, Long> b = run(ex, report);
    assertThat(b).hasSize(60);
    assertThat(f.injectedHangs()).isGreaterThan(0);
    assertThat(report[0].timeouts()).isEqualTo(f.injectedHangs());
  }

  @Test
  void invalidRatesAreRejected() {
    assertThatThrownBy(() -> Faults.builder().failBefore(1.5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("failBefore");
    assertThatThrownBy(() -> Faults.builder().failBefore(0.6).hang(0.6).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must not exceed 1");
    assertThatThrownBy(() -> Faults.builder().delay(Duration.ofMillis(5), Duration.ofMillis(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("min <= max");
  }
}
