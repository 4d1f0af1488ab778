package dev.cubed.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.s3.S3TestServer;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.Stores;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code ./cubed rechunk s3://... s3://... --executor spark --executor-option spark.master=...}
 * against the S3 test server on 127.0.0.1: the executor is found by name, its option reaches Spark,
 * and the target holds the source's values in the new chunks.
 */
@Tag("spark")
class SparkCliTest {
  static S3TestServer server;

  @BeforeAll
  static void start() throws Exception {
    server = S3TestServer.start().useAsDefault().createBucket("spark-cli");
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  @Test
  void rechunkS3ToS3OnSpark() {
    NDArray a = NDArray.zeros(DType.FLOAT64, 48, 30);
    for (int i = 0; i < a.size(); i++) {
      a.setDouble(i, Math.sin(i * 0.37));
    }
    ZarrArray src =
        ZarrArray.create(Stores.open("s3://spark-cli/src.zarr"), "")
            .shape(48, 30)
            .chunks(48, 1)
            .dtype(DType.FLOAT64)
            .build();
    src.write(new long[2], a);
    S3CliTest.run(
        "rechunk",
        "s3://spark-cli/src.zarr",
        "s3://spark-cli/dst.zarr",
        "--chunks",
        "1,30",
        "--allowed-mem",
        "64kB",
        "--reserved-mem",
        "1kB",
        "--work-dir",
        "s3://spark-cli/work",
        "--executor",
        "spark",
        "--executor-option",
        "spark.master=local[2]");
    ZarrArray dst = ZarrArray.open("s3://spark-cli/dst.zarr");
    assertThat(dst.chunks()).containsExactly(1, 30);
    assertThat(dst.read()).isEqualTo(a);
    assertThat(Stores.open("s3://spark-cli/work").list("")).isEmpty();
    assertThat(S3CliTest.run("demo", "--help")[0]).contains("spark");
  }
}
