package dev.cubed.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.s3.S3TestServer;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.Stores;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./cubed rechunk s3://... s3://... --executor beam} as docs/beam.md shows it, against a
 * real S3-compatible server (s3proxy on 127.0.0.1): the target equals the source, and the history
 * holds one row per task of the plan, relayed from the Beam pipeline (DirectRunner).
 */
@Tag("beam")
class BeamCliTest {
  @TempDir Path dir;

  @Test
  void rechunkS3ToS3OnTheBeamExecutor() throws Exception {
    try (S3TestServer server = S3TestServer.start().useAsDefault().createBucket("beam")) {
      NDArray a = NDArray.zeros(DType.FLOAT32, 48, 36);
      for (int i = 0; i < a.size(); i++) {
        a.setDouble(i, (i * 7919L) % 1000 / 8.0);
      }
      ZarrArray.create(Stores.open("s3://beam/src.zarr"), "")
          .shape(48, 36)
          .chunks(48, 1)
          .dtype(DType.FLOAT32)
          .build()
          .write(new long[2], a);
      Path h = dir.resolve("history");
      PrintStream savedOut = System.out;
      ByteArrayOutputStream sysOut = new ByteArrayOutputStream();
      StringWriter err = new StringWriter();
      int code;
      try {
        System.setOut(new PrintStream(sysOut, true, StandardCharsets.UTF_8));
        code =
            Main.execute(
                new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true),
                false,
                "rechunk",
                "s3://beam/src.zarr",
                "s3://beam/dst.zarr",
                "--chunks",
                "1,36",
                "--allowed-mem",
                "20kB",
                "--reserved-mem",
                "1kB",
                "--work-dir",
                "s3://beam/work",
                "--executor",
                "beam",
                "--workers",
                "2",
                "--executor-option",
                "beam.targetParallelism=2",
                "--history",
                h.toString());
      } finally {
        System.setOut(savedOut);
      }
      assertThat(code).as("stderr: %s", err).isZero();
      assertThat(ZarrArray.open("s3://beam/dst.zarr").chunks()).containsExactly(1, 36);
      assertThat(ZarrArray.open("s3://beam/dst.zarr").read()).isEqualTo(a);
      JsonNode j = new ObjectMapper().readTree(sysOut.toString(StandardCharsets.UTF_8));
      assertThat(j.get("intermediate_bytes").asLong()).as("a two-stage rechunk").isPositive();
      List<String> rows = Files.readAllLines(h.resolve("tasks.csv"));
      assertThat((long) rows.size() - 1).isEqualTo(j.get("tasks").asLong());
      int worker = List.of(rows.get(0).split(",")).indexOf("worker");
      assertThat(rows.subList(1, rows.size()))
          .allMatch(r -> r.split(",")[worker].contains("/"), "worker is host/runner thread");
    }
  }
}
