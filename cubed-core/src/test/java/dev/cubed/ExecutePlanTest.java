package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.NDArray;
import dev.cubed.plan.Plan;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.MemoryStore;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Cubed#execute}: a plan made once, summarized, then run with options. */
class ExecutePlanTest {
  @TempDir Path dir;

  @Test
  void aPlanMadeOnceRunsWithTheOptionsCallbacksAndWritesItsStore() {
    Spec spec = EngineTestSupport.tinySpec(dir, 10_000_000);
    MemoryStore store = new MemoryStore();
    NDArray a = EngineTestSupport.randomDoubles(7, 20, 6);
    ZarrArray src =
        ZarrArray.create(store, "src").shape(a.shape()).chunks(4, 6).dtype(a.dtype()).build();
    src.write(new long[2], a);
    ZarrArray dst =
        ZarrArray.create(store, "dst").shape(a.shape()).chunks(20, 1).dtype(a.dtype()).build();
    Plan plan = Cubed.plan(List.of(Cubed.store(Cubed.fromZarr(src, spec), dst)));
    long tasks = plan.summary().totalTasks();
    AtomicInteger computes = new AtomicInteger();
    AtomicInteger taskEnds = new AtomicInteger();
    Callback c =
        new Callback() {
          @Override
          public void onComputeStart(Events.ComputeStart e) {
            computes.incrementAndGet();
          }

          @Override
          public void onTaskEnd(Events.TaskEnd e) {
            taskEnds.incrementAndGet();
          }
        };
    Cubed.execute(plan, spec, ComputeOptions.defaults().withCallback(c));
    assertThat(computes.get()).isEqualTo(1);
    assertThat((long) taskEnds.get()).isEqualTo(tasks);
    assertThat(ZarrArray.open(store, "dst").read()).isEqualTo(a);
  }
}
