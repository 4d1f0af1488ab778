package dev.cubed.spark;

import dev.cubed.runtime.PythonClientRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Python functions on a real multi-process Spark: a standalone Master and two Workers (child JVMs,
 * 1 core and 1 GB each, with the settings of scripts/spark-local-cluster.sh) whose executor JVMs
 * have this module's test class path, cubed-python's classes included; the Python package, as a
 * client with the spark executor in its bridge, runs {@code python/tests/test_engines_pyfunc.py}:
 * an xarray {@code apply_ufunc} with {@code scipy.special.erf} equals NumPy-backed xarray's, its
 * tasks ran in Python workers whose parents are the executor JVMs (neither the client nor the
 * driver), and a function raising once is retried by Spark.
 */
@Tag("spark")
class SparkPythonClusterTest {
  @Test
  void applyUfuncWithScipyRunsInPythonWorkersOfTheExecutors() throws Exception {
    Path dir = Files.createTempDirectory("cubed-spark-python");
    try (StandaloneCluster cluster = StandaloneCluster.start(dir, 2, 1, "1g", Map.of())) {
      PythonClientRun.pytest(
          "test_engines_pyfunc.py",
          1,
          StandaloneCluster.classpath(),
          Map.of(
              "CUBED_TEST_SPARK_MASTER",
              cluster.masterUrl(),
              "CUBED_TEST_SPARK_SECRET_FILE",
              cluster.secretFile().toString()));
    }
  }
}
