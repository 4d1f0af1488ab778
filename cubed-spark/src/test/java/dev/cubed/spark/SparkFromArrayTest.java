package dev.cubed.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.Spec;
import dev.cubed.runtime.Events;
import dev.cubed.testing.FromArrayCase;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code Cubed.fromArray} data on {@code local[2]} (tasks shipped as serialized closures): the
 * client writes the array's blocks to the compute's work directory once, the closures carry no
 * array, and the tasks read their blocks from there; combined with a stored array, the result
 * equals the threads executor's. (The same on two executor JVMs: {@link
 * SparkWorkloadsClusterTest}.)
 */
@Tag("spark")
class SparkFromArrayTest {
  @TempDir Path dir;

  @Test
  void fromArrayDataWithAStoredArrayEqualsTheThreadsExecutor() {
    String stored = dir.resolve("stored.zarr").toString();
    FromArrayCase.writeStored(stored);
    Spec spec =
        Spec.builder().workDir(dir.resolve("w")).allowedMem("100MB").reservedMem("1MB").build();
    List<Events.TaskEnd> ends =
        FromArrayCase.checkAgainstThreads(SparkTesting.local(), stored, spec);
    assertThat(ends).allMatch(e -> e.worker().startsWith("spark executor driver"));
  }
}
