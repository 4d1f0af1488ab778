package dev.cubed.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.ComputeOptions;
import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.Plan;
import dev.cubed.plan.PlanCallback;
import dev.cubed.runtime.Events;
import dev.cubed.zarr.StagedWrite;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.Stores;
import dev.cubed.zarr.store.ZarrFormatException;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * An overwrite of an S3 target (s3proxy on 127.0.0.1, the work directory on S3 too) stopped at
 * every step of its commit by the commit-step hook, as a kill would stop it: a reader then sees the
 * old array whole, the new one whole, or no array (told that a commit was interrupted), never a
 * mix; the compute's resume finishes the commit (it runs no task again) and leaves the new array
 * and no staging keys.
 */
@Tag("s3")
class S3CommitKillTest {
  static S3TestServer server;

  @BeforeAll
  static void start() throws Exception {
    server = S3TestServer.start().useAsDefault().createBucket("data").createBucket("work");
  }

  @AfterAll
  static void stop() throws Exception {
    StagedWrite.onCommitStep(null);
    server.close();
  }

  static final class Killed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Killed(String step) {
      super("killed before commit step: " + step, null, false, false);
    }
  }

  private static Spec spec(String work) {
    return Spec.builder().workDir(work).allowedMem("100MB").reservedMem("1MB").build();
  }

  private static NDArray data(double base) {
    NDArray a = NDArray.zeros(DType.FLOAT64, 12, 12);
    for (int i = 0; i < a.size(); i++) {
      a.setDouble(i, base + i);
    }
    return a;
  }

  private static ZarrArray target(Store s) {
    return ZarrArray.create(s, "ck/t").shape(12, 12).chunks(5, 5).overwrite().buildDeferred();
  }

  @Test
  void anS3CommitKilledAtEveryStepIsOldOrNewAndItsResumeCommitsTheNewOne() {
    NDArray fresh = data(1000);
    for (int i = 0; i < 25; i++) {
      fresh.setDouble(i / 5 * 12 + i % 5, 0); // one chunk all fill: a stale old chunk to delete
    }
    int kills = 0;
    for (int k = 1; k < 200; k++) {
      String what = "killed at S3 commit step " + k;
      Store s = Stores.open("s3://data/k" + k);
      ZarrArray.create(s, "ck/t").shape(12, 12).chunks(5, 5).build().write(new long[2], data(1));
      CubedArray x = Cubed.fromArray(fresh, new long[] {5, 5}, spec("s3://work/k" + k));
      int[] seen = {0};
      int at = k;
      StagedWrite.onCommitStep(
          step -> {
            if (++seen[0] == at) {
              throw new Killed(step);
            }
          });
      try {
        Cubed.store(List.of(x), List.of(target(s)), ComputeOptions.defaults());
        assertThat(ZarrArray.open(s, "ck/t").read()).as(what).isEqualTo(fresh);
        assertThat(kills).as("commit steps").isGreaterThan(10);
        return;
      } catch (Killed e) {
        kills++;
      } finally {
        StagedWrite.onCommitStep(null);
      }
      ZarrArray seenArray = null;
      try {
        seenArray = ZarrArray.open(s, "ck/t");
      } catch (ZarrFormatException e) {
        assertThat(e.getMessage()).as(what).contains("interrupted", "--resume");
      }
      if (seenArray != null) {
        assertThat(seenArray.isIncomplete()).as(what).isFalse();
        assertThat(seenArray.read()).as(what).isIn(data(1), fresh);
      }
      int[] ran = {0};
      Cubed.store(
          List.of(x),
          List.of(target(s)),
          ComputeOptions.defaults()
              .withResume(true)
              .withCallback(
                  new PlanCallback() {
                    @Override
                    public void onPlan(Plan plan) {}

                    @Override
                    public void onTaskEnd(Events.TaskEnd e) {
                      ran[0]++;
                    }
                  }));
      assertThat(ran[0]).as(what + ": tasks run again").isZero();
      assertThat(ZarrArray.open(s, "ck/t").read()).as(what).isEqualTo(fresh);
      assertThat(s.list("")).as(what).noneMatch(key -> key.contains(".cubed-"));
      assertThat(Stores.open("s3://work/k" + k).list("")).as(what).isEmpty();
    }
    throw new AssertionError("the commit never completed in 200 steps");
  }
}
