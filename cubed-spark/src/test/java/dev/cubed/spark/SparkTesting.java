package dev.cubed.spark;

/** The Spark settings the tests of one JVM share, so they share one Spark context. */
final class SparkTesting {
  /** Attempts per task in the tests. */
  static final int ATTEMPTS = 3;

  private SparkTesting() {}

  /** A local[2] executor; every call gives the same settings, hence the same context. */
  static SparkExecutor local() {
    return SparkExecutor.builder()
        .master("local[2]")
        .attempts(ATTEMPTS)
        .conf("spark.executor.memory", "1g")
        .build();
  }
}
