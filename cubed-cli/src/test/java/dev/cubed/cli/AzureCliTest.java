package dev.cubed.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.azure.AzuriteServer;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.HttpTestServer;
import dev.cubed.zarr.store.Stores;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./cubed rechunk} with Azure locations (against Azurite on 127.0.0.1, credentials from a
 * connection string as a user gives them) and an HTTP input (a file server on 127.0.0.1).
 */
@Tag("azure")
class AzureCliTest {
  static AzuriteServer server;
  @TempDir Path dir;

  @BeforeAll
  static void start() throws Exception {
    server = AzuriteServer.start().useAsDefault();
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void rechunkLocalToAzureToAzureToLocalEqualsTheSource() throws Exception {
    NDArray a = NDArray.zeros(DType.INT32, 60, 40);
    for (int i = 0; i < a.size(); i++) {
      a.setLong(i, (i * 7919L) % 100_003);
    }
    ZarrArray.create(new FileSystemStore(dir.resolve("src.zarr")), "")
        .shape(60, 40)
        .chunks(60, 1)
        .dtype(DType.INT32)
        .zarrFormat(2)
        .build()
        .write(new long[2], a);
    S3CliTest.run(
        "rechunk", dir.resolve("src.zarr").toString(), "az://cli/in.zarr", "--chunks", "60,4");
    S3CliTest.run(
        "rechunk",
        "az://cli/in.zarr",
        "az://cli/out.zarr",
        "--chunks",
        "4,40",
        "--allowed-mem",
        "12kB",
        "--reserved-mem",
        "1kB",
        "--work-dir",
        "az://cli/work");
    ZarrArray out = ZarrArray.open("az://cli/out.zarr");
    assertThat(out.chunks()).containsExactly(4, 40);
    assertThat(out.read()).isEqualTo(a);
    assertThat(Stores.open("az://cli/work").list("")).isEmpty(); // intermediates removed
    assertThat(S3CliTest.run("info", "az://cli/out.zarr")[0]).contains("int32");

    // an HTTP input, rechunked to local disk
    try (HttpTestServer http = HttpTestServer.start(dir)) {
      S3CliTest.run(
          "rechunk",
          http.url() + "src.zarr",
          dir.resolve("back.zarr").toString(),
          "--chunks",
          "20,20");
      assertThat(ZarrArray.open(dir.resolve("back.zarr").toString()).read()).isEqualTo(a);
    }
  }
}
