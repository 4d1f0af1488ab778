package dev.cubed.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link Events#computeStarted}: the start/end bracket every executor reports a compute with. */
class ComputeEventsTest {
  @Test
  void startCountsOpsAndTasksAndEndCarriesTheError() {
    List<Object> seen = new ArrayList<>();
    Callback c =
        new Callback() {
          @Override
          public void onComputeStart(Events.ComputeStart e) {
            seen.add(e);
          }

          @Override
          public void onComputeEnd(Events.ComputeEnd e) {
            seen.add(e);
          }
        };
    List<Operation> ops =
        List.of(
            new Operation("a", List.of(new long[] {0}, new long[] {1}, new long[] {2}), k -> {}, 1),
            new Operation("b", List.of(new long[] {0, 0}), k -> {}, 1));
    long t0 = System.currentTimeMillis();
    Events.Running r = Events.computeStarted("cid", ops, t0, List.of(c, c));
    assertThat(seen)
        .containsExactly(
            new Events.ComputeStart("cid", 2, 4, t0), new Events.ComputeStart("cid", 2, 4, t0));
    IllegalStateException boom = new IllegalStateException("boom");
    r.ended(boom);
    assertThat(seen).hasSize(4);
    Events.ComputeEnd end = (Events.ComputeEnd) seen.get(3);
    assertThat(end.computeId()).isEqualTo("cid");
    assertThat(end.startMillis()).isEqualTo(t0);
    assertThat(end.endMillis()).isGreaterThanOrEqualTo(t0);
    assertThat(end.error()).isSameAs(boom);
  }
}
