package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.StagedWrite;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.MemoryStore;
import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.ZarrFormatException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commit of a staged write on an object store (no rename), interrupted at every step by the
 * commit-step hook (as a kill would stop it): a reader must then see the whole old array, the whole
 * new one, or no array (never a mix, never fill values), and the compute's resume finishes it
 * (skipping every task). The filesystem's kill test is {@link CommitKillTest} (a child JVM halted
 * at every step).
 */
class StagedCommitTest {
  @TempDir Path dir;

  private Spec spec() {
    return Spec.builder()
        .workDir(dir.resolve("work"))
        .allowedMem(10_000_000)
        .reservedMem(1000)
        .build();
  }

  private static NDArray data(double base) {
    NDArray a = NDArray.zeros(DType.FLOAT64, 12, 12);
    for (int i = 0; i < a.size(); i++) {
      a.setDouble(i, base + i);
    }
    return a;
  }

  /** A store whose {@code failAt}-th mutation after a commit mark was put throws (a "kill"). */
  static final class CrashingStore implements Store {
    private static final long serialVersionUID = 1L;
    final Store inner;
    final int failAt;
    int afterMark = -1;
    volatile boolean armed = true;

    CrashingStore(Store inner, int failAt) {
      this.inner = inner;
      this.failAt = failAt;
    }

    private synchronized void step(String key) {
      if (armed && afterMark >= 0 && ++afterMark == failAt) {
        throw new IllegalStateException("killed at commit step " + failAt + " (" + key + ")");
      }
      if (key.endsWith(".cubed-commit") && afterMark < 0) {
        afterMark = 0;
      }
    }

    @Override
    public byte[] get(String key) {
      return inner.get(key);
    }

    @Override
    public byte[] getRange(String key, long offset, int length) {
      return inner.getRange(key, offset, length);
    }

    @Override
    public void put(String key, byte[] value) {
      inner.put(key, value);
      step(key);
    }

    @Override
    public void delete(String key) {
      step(key);
      inner.delete(key);
    }

    @Override
    public boolean exists(String key) {
      return inner.exists(key);
    }

    @Override
    public List<String> list(String prefix) {
      return inner.list(prefix);
    }
  }

  /** Thrown by the commit-step hook: the commit stops there, as a kill would stop it. */
  static final class Killed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Killed(String step) {
      super("killed before commit step: " + step, null, false, false);
    }
  }

  @Test
  void anObjectStoreCommitKilledAtEveryStepNeverShowsAMixAndItsResumeFinishesIt() {
    for (String path : new String[] {"t", "g/t", ""}) {
      for (int format : new int[] {2, 3}) {
        int commits = 0;
        for (int failAt = 1; failAt < 200; failAt++) {
          String what = "path '" + path + "' v" + format + " killed at commit step " + failAt;
          MemoryStore mem = new MemoryStore();
          ZarrArray old =
              ZarrArray.create(mem, path).shape(12, 12).chunks(5, 5).zarrFormat(format).build();
          old.write(new long[2], data(1));
          // the new array leaves one chunk all fill (stale old chunk to delete)
          NDArray fresh = data(1000);
          for (int i = 0; i < 25; i++) {
            fresh.setDouble(i / 5 * 12 + i % 5, 0);
          }
          CubedArray x = Cubed.fromArray(fresh, new long[] {5, 5}, spec());
          int[] seen = {0};
          int k = failAt;
          StagedWrite.onCommitStep(
              s -> {
                if (++seen[0] == k) {
                  throw new Killed(s);
                }
              });
          try {
            Cubed.store(List.of(x), List.of(target(mem, path, format)), ComputeOptions.defaults());
            assertThat(ZarrArray.open(mem, path).read()).as(what).isEqualTo(fresh);
            break; // the commit had fewer steps: it completed
          } catch (Killed e) {
            // stopped at step k
          } finally {
            StagedWrite.onCommitStep(null);
          }
          commits++;
          // a reader sees the old array whole, the new one whole, or no array
          ZarrArray seenArray = null;
          try {
            seenArray = ZarrArray.open(mem, path);
          } catch (ZarrFormatException e) {
            assertThat(e.getMessage()).as(what).contains("interrupted");
          }
          if (seenArray != null) {
            assertThat(seenArray.isIncomplete()).as(what).isFalse();
            assertThat(seenArray.read()).as(what).isIn(data(1), fresh);
          }
          // the compute's resume finishes the interrupted commit; the target is the new one
          long[] skipped = {-1};
          int[] ran = {0};
          Cubed.store(
              List.of(x),
              List.of(target(mem, path, format)),
              ComputeOptions.defaults()
                  .withResume(true)
                  .withCallback(
                      new dev.cubed.plan.PlanCallback() {
                        @Override
                        public void onPlan(dev.cubed.plan.Plan plan) {}

                        @Override
                        public void onResume(long n) {
                          skipped[0] = n;
                        }

                        @Override
                        public void onTaskEnd(dev.cubed.runtime.Events.TaskEnd e) {
                          ran[0]++;
                        }
                      }));
          assertThat(ZarrArray.open(mem, path).read()).as(what).isEqualTo(fresh);
          assertThat(skipped[0]).as(what + ": tasks done before the kill").isPositive();
          assertThat(ran[0]).as(what + ": tasks run again").isZero();
          assertThat(mem.list("")).as(what).noneMatch(key -> key.contains(".cubed-"));
        }
        assertThat(commits).as("path '" + path + "' v" + format).isGreaterThan(8);
      }
    }
  }

  private static ZarrArray target(Store store, String path, int format) {
    return ZarrArray.create(store, path)
        .shape(12, 12)
        .chunks(5, 5)
        .zarrFormat(format)
        .overwrite()
        .buildDeferred();
  }

  @Test
  void aRerunWithoutOverwriteFinishesItsOwnInterruptedCommit() {
    MemoryStore mem = new MemoryStore();
    CubedArray x = Cubed.fromArray(data(5), new long[] {5, 5}, spec());
    CrashingStore crashing = new CrashingStore(mem, 3);
    ZarrArray t = ZarrArray.create(crashing, "t").shape(12, 12).chunks(5, 5).buildDeferred();
    assertThatThrownBy(() -> Cubed.store(List.of(x), List.of(t), ComputeOptions.defaults()))
        .hasMessageContaining("killed at commit step");
    assertThatThrownBy(() -> ZarrArray.open(mem, "t")).hasMessageContaining("interrupted");
    crashing.armed = false; // the same store, so the same compute (and staging array)
    ZarrArray again = ZarrArray.create(crashing, "t").shape(12, 12).chunks(5, 5).buildDeferred();
    Cubed.store(List.of(x), List.of(again), ComputeOptions.defaults());
    assertThat(ZarrArray.open(mem, "t").read()).isEqualTo(data(5));
  }
}
