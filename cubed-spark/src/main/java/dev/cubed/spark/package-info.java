/**
 * The {@code spark} executor: each operation of a plan runs as one Apache Spark job, one task per
 * chunk. See {@link dev.cubed.spark.SparkExecutor} for what carries over from the threads executor
 * (memory per task, retries, backup tasks) and {@link dev.cubed.spark.SparkExecutorFactory} for its
 * options.
 */
package dev.cubed.spark;
