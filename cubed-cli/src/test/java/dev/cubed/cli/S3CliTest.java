package dev.cubed.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.s3.S3TestServer;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.Stores;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./cubed rechunk} from local disk to S3 and back, {@code info} and {@code clean} on s3://
 * locations, against a real S3-compatible server (s3proxy) on 127.0.0.1 configured the way a user
 * would (endpoint and credentials through system properties read by the standard chains).
 */
@Tag("s3")
class S3CliTest {
  static S3TestServer server;
  @TempDir Path dir;

  @BeforeAll
  static void start() throws Exception {
    server = S3TestServer.start().useAsDefault().createBucket("cli");
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  static String[] run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.execute(new PrintWriter(out, true), new PrintWriter(err, true), false, args);
    assertThat(code).as("exit code of %s; stderr: %s", String.join(" ", args), err).isZero();
    return new String[] {out.toString(), err.toString()};
  }

  @Test
  void rechunkLocalToS3AndBackEqualsTheSource() {
    NDArray a = NDArray.zeros(DType.INT32, 60, 40);
    for (int i = 0; i < a.size(); i++) {
      a.setLong(i, (i * 7919L) % 100_003);
    }
    ZarrArray src =
        ZarrArray.create(new FileSystemStore(dir.resolve("src.zarr")), "")
            .shape(60, 40)
            .chunks(60, 1)
            .dtype(DType.INT32)
            .zarrFormat(2)
            .build();
    src.write(new long[2], a);
    run(
        "rechunk",
        dir.resolve("src.zarr").toString(),
        "s3://cli/mid.zarr",
        "--chunks",
        "1,40",
        "--allowed-mem",
        "12kB",
        "--reserved-mem",
        "1kB",
        "--work-dir",
        "s3://cli/work",
        "--zarr-format",
        "3");
    ZarrArray mid = ZarrArray.open("s3://cli/mid.zarr");
    assertThat(mid.chunks()).containsExactly(1, 40);
    assertThat(mid.zarrFormat()).isEqualTo(3);
    assertThat(mid.read()).isEqualTo(a);
    Store work = Stores.open("s3://cli/work");
    assertThat(work.list("")).isEmpty(); // the compute's intermediates were removed
    String[] info = run("info", "s3://cli/mid.zarr");
    assertThat(info[0]).contains("60").contains("40").contains("int32");
    run(
        "rechunk",
        "s3://cli/mid.zarr",
        dir.resolve("back.zarr").toString(),
        "--chunks",
        "60,1",
        "--allowed-mem",
        "12kB",
        "--reserved-mem",
        "1kB",
        "--work-dir",
        "s3://cli/work");
    ZarrArray back = ZarrArray.open(dir.resolve("back.zarr").toString());
    assertThat(back.chunks()).containsExactly(60, 1);
    assertThat(back.read()).isEqualTo(a);
    // clean on an S3 work directory: a left-over compute is recognised by its fingerprint
    work.put(
        "compute-0123456789abcdef/fingerprint.txt",
        "cubed-compute v1\nold\n".getBytes(StandardCharsets.UTF_8));
    work.put("compute-0123456789abcdef/x/c/0", new byte[] {1});
    work.put("unrelated/keep", new byte[] {2});
    String[] clean = run("clean", "--work-dir", "s3://cli/work");
    assertThat(clean[0])
        .contains("removed s3://cli/work/compute-0123456789abcdef")
        .contains("1 directory removed");
    assertThat(work.list("")).containsExactly("unrelated/keep");
  }

  @Test
  void demoWithAnS3WorkDirKeepsItsInputsAndIntermediatesInTheBucket() {
    run(
        "demo",
        "--size",
        "small",
        "--work-dir",
        "s3://cli/demo/",
        "--no-progress",
        "--allowed-mem",
        "300MB");
    Store demo = Stores.open("s3://cli/demo");
    assertThat(demo.list("")).contains("inputs/U.zarr/zarr.json", "inputs/V.zarr/zarr.json");
    assertThat(ZarrArray.open("s3://cli/demo/inputs/U.zarr").shape())
        .containsExactly(50, 1, 247, 480);
    // nothing went to a local folder named after the scheme (the option was once a Path)
    assertThat(Path.of("s3:")).doesNotExist();
    assertThat(DemoCommand.child("s3://b/p", "work")).isEqualTo("s3://b/p/work");
    assertThat(DemoCommand.child("/tmp/x", "work")).isEqualTo("/tmp/x/work");
  }
}
