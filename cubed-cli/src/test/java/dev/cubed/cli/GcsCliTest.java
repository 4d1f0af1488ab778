package dev.cubed.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.gcs.FakeGcs;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.Stores;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./cubed rechunk} between two {@code gs://} arrays, with the work directory on {@code
 * gs://} too, run in-process against Google's in-memory Cloud Storage: every location names the
 * fake in its {@code client_factory} setting ({@link FakeGcs#uri}), as a user names their own
 * {@code GcsClientFactory}.
 */
class GcsCliTest {
  @TempDir Path dir;

  @Test
  void rechunkBetweenTwoGcsArraysEqualsTheSource() {
    NDArray a = NDArray.zeros(DType.INT32, 60, 40);
    for (int i = 0; i < a.size(); i++) {
      a.setLong(i, (i * 7919L) % 100_003);
    }
    ZarrArray.create(new FileSystemStore(dir.resolve("src.zarr")), "")
        .shape(60, 40)
        .chunks(60, 1)
        .dtype(DType.INT32)
        .build()
        .write(new long[2], a);
    String in = FakeGcs.uri("cli/in.zarr");
    String out = FakeGcs.uri("cli/out.zarr");
    String work = FakeGcs.uri("cli/work");
    S3CliTest.run("rechunk", dir.resolve("src.zarr").toString(), in, "--chunks", "60,4");
    S3CliTest.run(
        "rechunk",
        in,
        out,
        "--chunks",
        "4,40",
        "--allowed-mem",
        "12kB",
        "--reserved-mem",
        "1kB",
        "--work-dir",
        work);
    ZarrArray back = ZarrArray.open(out);
    assertThat(back.chunks()).containsExactly(4, 40);
    assertThat(back.read()).isEqualTo(a);
    assertThat(Stores.open(work).list("")).isEmpty(); // intermediates removed
    assertThat(S3CliTest.run("info", out)[0]).contains("int32");
  }
}
