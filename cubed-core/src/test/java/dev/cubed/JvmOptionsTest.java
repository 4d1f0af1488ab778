package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.elementwise.FastTrig;
import dev.cubed.runtime.ThreadsExecutor;
import dev.cubed.runtime.TileJitOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The JVM options a program embedding the engine gets for a spec (docs/library.md). */
class JvmOptionsTest {

  @Test
  void heapIsWorkersTimesAllowedLessReservedPlusTheBaseline() {
    Spec s = Spec.builder().allowedMem("500MB").workers(2).build(); // reservedMem 100 MB
    assertThat(JvmOptions.heapBytes(s)).isEqualTo(2 * 400_000_000L + (192L << 20));
    Spec t = Spec.builder().allowedMem("2GiB").reservedMem("48MiB").workers(3).build();
    assertThat(JvmOptions.heapBytes(t)).isEqualTo(3 * (2000L << 20) + (192L << 20));
    // workers 0: one per processor of this JVM
    Spec u = Spec.builder().allowedMem("1GB").workers(0).build();
    assertThat(JvmOptions.heapBytes(u))
        .isEqualTo(Runtime.getRuntime().availableProcessors() * 900_000_000L + (192L << 20));
  }

  @Test
  void aThreadsExecutorInThatHeapRunsEveryWorkerAtOnce() {
    Spec s = Spec.builder().allowedMem("500MB").workers(4).build();
    long heap = JvmOptions.heapBytes(s);
    // tasks as large as the spec allows, beside the engine's baseline, fit all four at once
    assertThat(
            ThreadsExecutor.heapNeeded(
                4, s.allowedMem(), s.reservedMem(), JvmOptions.BASELINE_BYTES))
        .isEqualTo(heap);
    assertThat(
            ThreadsExecutor.heapNeeded(
                5, s.allowedMem(), s.reservedMem(), JvmOptions.BASELINE_BYTES))
        .isGreaterThan(heap);
  }

  @Test
  void otherExecutorsGetACoordinatorHeap() {
    Spec s = Spec.builder().allowedMem("2GB").workers(8).executor("processes").build();
    assertThat(JvmOptions.heapBytes(s)).isEqualTo(512L << 20);
  }

  @Test
  void optionsAreHeapCollectorVectorModuleJitAndIoCap() {
    Spec s = Spec.builder().allowedMem("500MB").workers(2).build();
    List<String> o = JvmOptions.forSpec(s);
    assertThat(o.get(0)).isEqualTo("-Xmx955m"); // 1001326592 B rounded up to MiB
    assertThat(o)
        .containsSubsequence(JvmOptions.GC_OPTIONS)
        .contains("--add-modules=jdk.incubator.vector", "-Djdk.nio.maxCachedBufferSize=1048576")
        .containsAll(FastTrig.JIT_OPTIONS)
        .containsAll(TileJitOptions.OPTIONS)
        .doesNotHaveDuplicates();
    assertThat(o).allSatisfy(x -> assertThat(x).doesNotContain(" ").startsWith("-"));
    assertThat(JvmOptions.line(s)).isEqualTo(String.join(" ", o));
  }
}
