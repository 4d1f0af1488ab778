package dev.cubed.beam;

import dev.cubed.runtime.processes.PythonClientRun;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Python functions on the Flink runner: a Flink cluster in this JVM ({@link FlinkTestCluster}),
 * whose TaskManager has this module's test class path, cubed-python's classes included; the Python
 * package, as a client with the beam executor in its bridge (another JVM, which submits each
 * compute as a Flink job over REST), runs {@code python/tests/test_engines_pyfunc.py}: an xarray
 * {@code apply_ufunc} with {@code scipy.special.erf} equals NumPy-backed xarray's, its tasks ran in
 * Python workers whose parent is this JVM (the TaskManager's; neither the client nor the bridge),
 * and a function raising once is retried by the beam executor's attempts.
 */
@Tag("flink")
class FlinkPythonTest {
  @Test
  void applyUfuncWithScipyRunsInPythonWorkersOfTheTaskManager() throws Exception {
    String cp = System.getProperty("surefire.test.class.path");
    cp = cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
    try (FlinkTestCluster flink = FlinkTestCluster.start()) {
      PythonClientRun.pytest(
          "test_engines_pyfunc.py",
          1,
          cp,
          Map.of(
              "CUBED_TEST_FLINK_MASTER",
              flink.master(),
              "CUBED_TEST_FLINK_STAGE",
              flink.emptyJar().toString(),
              "CUBED_TEST_FLINK_PID",
              Long.toString(ProcessHandle.current().pid())));
    }
  }
}
