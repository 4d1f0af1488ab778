package dev.cubed.bridge;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bridge call pyBlockwise without a Python (python/tests/test_pyworkers.py runs real workers):
 * the op is lazy, its grid is checked when it is made, its projection is checked before anything
 * starts, and a Python that cannot start is a clear failure.
 */
class PyBlockwiseTest {
  @TempDir Path tmp;

  private static final NDArray PAYLOAD = new NDArray(DType.UINT8, new long[] {3}, new byte[3]);

  private Calls.Session session(String allowedMem) {
    Calls.Session s = new Calls.Session();
    s.spec = Spec.builder().allowedMem(allowedMem).reservedMem(0).workDir(tmp).attempts(2).build();
    return s;
  }

  private static Object op(Calls.Session s, Object x, long[] axes, long[] shape, long[] chunks)
      throws Throwable {
    return Calls.call(
        s,
        "pyBlockwise",
        List.of(
            PAYLOAD,
            "/nonexistent/python3",
            List.of("/nowhere"),
            List.of(x),
            List.of(axes),
            shape,
            chunks,
            DType.FLOAT64,
            1000L,
            2000L,
            "f"));
  }

  private static Wire.Handle input(Calls.Session s) throws Throwable {
    NDArray a = NDArray.of(new double[] {1, 2, 3, 4, 5, 6, 7, 8}).reshape(2, 4);
    return new Wire.Handle(
        s.put((CubedArray) Calls.call(s, "fromArray", List.of(a, new long[] {1, 2}))));
  }

  @Test
  void aPythonThatCannotStartFailsTheComputeSayingSo() throws Throwable {
    Calls.Session s = session("100MB");
    CubedArray y =
        (CubedArray) op(s, input(s), new long[] {0, 1}, new long[] {2, 4}, new long[] {1, 2});
    // made without starting anything; computing needs the workers
    assertThatThrownBy(() -> Cubed.compute(y))
        .hasMessageContaining("after 2 attempt(s)")
        .hasMessageContaining("a Python worker did not start")
        .hasMessageContaining("/nonexistent/python3 -u -m cubed_java._worker");
  }

  @Test
  void theProjectionCountsThePythonSideAndIsCheckedBeforeAnythingStarts() throws Throwable {
    // blocks of 2 float64 (16 B): JVM side 16 read + 2 x 16 written; Python side 16 + 16 + 1000
    // declared + 2000 overhead, and 16 for the .npy bytes: 3096
    Calls.Session s = session("3090B");
    CubedArray y =
        (CubedArray) op(s, input(s), new long[] {0, 1}, new long[] {2, 4}, new long[] {1, 2});
    assertThatThrownBy(() -> Cubed.compute(y))
        .hasMessageContaining("needs a projected")
        .hasMessageContaining("(3096 B)")
        .hasMessageContaining("nothing was run");
  }

  @Test
  void gridsThatDoNotMatchAreRefusedWhenTheOpIsMade() throws Throwable {
    Calls.Session s = session("100MB");
    Wire.Handle x = input(s);
    assertThatThrownBy(() -> op(s, x, new long[] {0, 1}, new long[] {2, 4}, new long[] {1, 4}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("axis 1 of input 0 has 2 blocks, the output has 1 blocks along it");
    assertThatThrownBy(() -> op(s, x, new long[] {0, -1}, new long[] {2}, new long[] {1}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("lacks that axis (it must be one block: rechunk it)");
  }
}
