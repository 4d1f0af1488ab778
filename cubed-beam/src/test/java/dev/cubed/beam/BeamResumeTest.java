package dev.cubed.beam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.Xp;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.Plan;
import dev.cubed.plan.RunOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Resume on the beam executor: a compute that fails (one poisoned block, failing slowly so others
 * finish first) keeps its work directory; the same program run again with resume skips the tasks
 * that finished (their completion markers are written by the tasks themselves, inside Beam) and
 * gives the right result.
 */
@Tag("beam")
class BeamResumeTest {
  @TempDir Path dir;

  static CubedArray program(Spec spec, String poison, String ran) {
    // generated inside the tasks (an in-memory fromArray input cannot be shipped to workers)
    CubedArray x =
        Cubed.fromFunction(
            new long[] {16, 4},
            new long[] {1, 4},
            DType.FLOAT64,
            (b, i, flat, in, bc) -> b.setDouble(i, flat),
            spec);
    CubedArray y =
        Xp.mapBlocks(
            blocks -> {
              long row = (long) blocks[0].getDouble(0) / 4;
              Files.writeString(Path.of(ran, "ran-" + row + "-" + System.nanoTime()), "");
              if (row == 7 && Files.exists(Path.of(poison))) {
                Thread.sleep(1500);
                throw new IllegalArgumentException("poisoned row 7");
              }
              NDArray o = blocks[0].copy();
              for (int i = 0; i < o.size(); i++) {
                o.setDouble(i, o.getDouble(i) * 2);
              }
              return o;
            },
            DType.FLOAT64,
            x);
    return Xp.sum(Xp.rechunk(y, 16, 2), 0);
  }

  static long ranFiles(Path d) throws Exception {
    try (Stream<Path> s = Files.list(d)) {
      return s.filter(p -> p.getFileName().toString().startsWith("ran-")).count();
    }
  }

  @Test
  void aFailedComputeResumesOnBeamSkippingFinishedTasks() throws Exception {
    Path ran = Files.createDirectories(dir.resolve("ran"));
    Path poison = Files.writeString(dir.resolve("poison"), "x");
    Spec spec =
        Spec.builder()
            .workDir(dir.resolve("work"))
            .allowedMem("100MB")
            .reservedMem("1MB")
            .executor("beam")
            .workers(2)
            .attempts(1)
            .build();
    Plan p1 = Cubed.plan(List.of(program(spec, poison.toString(), ran.toString())));
    RunOptions resume = RunOptions.defaults().resume(true);
    assertThatThrownBy(() -> p1.run(Cubed.executor(spec), List.of(), resume))
        .hasMessageContaining("poisoned row 7");
    long first = ranFiles(ran);
    assertThat(first).as("blocks run before the failure").isGreaterThan(1);
    Files.delete(poison);
    Plan p2 = Cubed.plan(List.of(program(spec, poison.toString(), ran.toString())));
    assertThat(p2.computeId()).isEqualTo(p1.computeId());
    NDArray got = p2.run(Cubed.executor(spec), List.of(), resume).outputs().get(0);
    long second = ranFiles(ran) - first;
    // the blocks that finished in the first run were skipped: 16 blocks in all, counting row 7
    assertThat(second).as("blocks run on resume").isLessThan(16).isEqualTo(16 - (first - 1));
    for (int j = 0; j < 4; j++) {
      double col = 0;
      for (int i = 0; i < 16; i++) {
        col += 2.0 * (i * 4 + j);
      }
      assertThat(got.getDouble(j)).isCloseTo(col, within(1e-9));
    }
  }
}
