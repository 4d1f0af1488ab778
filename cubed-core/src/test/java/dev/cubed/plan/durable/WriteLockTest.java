package dev.cubed.plan.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.ComputeOptions;
import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two writers of one target are refused, never interleaved; a stale lock file is harmless. */
class WriteLockTest {
  @TempDir Path dir;

  private CubedArray x() {
    Spec spec =
        Spec.builder()
            .workDir(dir.resolve("work"))
            .allowedMem(10_000_000)
            .reservedMem(1000)
            .build();
    return Cubed.fromArray(NDArray.full(DType.FLOAT64, 2.0, 10, 10), new long[] {5, 5}, spec);
  }

  private static Process child(String... args) throws IOException {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                WriteLockHolder.class.getName()));
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd).redirectErrorStream(true).start();
  }

  private static String tryInChild(Path out) throws Exception {
    Process p = child(out.toString(), "try");
    String line =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))
            .readLine();
    p.waitFor(5, TimeUnit.MINUTES);
    return line;
  }

  @Test
  void aSecondWriterInAnotherProcessIsRefusedUntilTheFirstReleases() throws Exception {
    Path out = dir.resolve("out.zarr");
    Process child = child(out.toString());
    try {
      BufferedReader r =
          new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
      assertThat(r.readLine()).isEqualTo("LOCKED");
      assertThatThrownBy(() -> Cubed.toZarr(x(), new FileSystemStore(out), ""))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("being written by another compute")
          .hasMessageContaining(out.toString())
          .hasMessageContaining("pid " + child.pid());
      assertThat(out.resolve("zarr.json")).doesNotExist(); // nothing was created
      child.getOutputStream().close();
      assertThat(r.readLine()).isEqualTo("RELEASED");
      assertThat(child.waitFor(5, TimeUnit.MINUTES)).isTrue();
    } finally {
      child.destroyForcibly();
    }
    ZarrArray z = Cubed.toZarr(x(), new FileSystemStore(out), "");
    assertThat(z.read()).isEqualTo(NDArray.full(DType.FLOAT64, 2.0, 10, 10));
    assertThat(WriteLock.fileFor(out)).doesNotExist();
  }

  @Test
  void aSecondWriterInThisJvmIsRefusedAndTheFirstKeepsItsLock() throws Exception {
    Path out = dir.resolve("out.zarr");
    try (WriteLock held = WriteLock.acquire(out, "test")) {
      assertThatThrownBy(() -> WriteLock.acquire(out, "second"))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("second: the target");
      assertThatThrownBy(() -> Cubed.toZarr(x(), new FileSystemStore(out), "", true))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("being written by another compute");
      // the refusals did not drop this JVM's OS-level lock (closing a descriptor would have)
      assertThat(tryInChild(out)).isEqualTo("REFUSED");
      // same target given twice in one compute (with different data; identical writes of the
      // same data to the same target are one node, written once): refused before locking
      ZarrArray t =
          ZarrArray.create(new FileSystemStore(dir.resolve("t.zarr")), "")
              .shape(10, 10)
              .chunks(5, 5)
              .buildDeferred();
      ZarrArray t2 =
          ZarrArray.create(new FileSystemStore(dir.resolve("t.zarr")), "")
              .shape(10, 10)
              .chunks(5, 5)
              .buildDeferred();
      assertThatThrownBy(
              () ->
                  Cubed.store(
                      List.of(
                          x(),
                          Cubed.fromArray(
                              NDArray.full(DType.FLOAT64, 3.0, 10, 10),
                              new long[] {5, 5},
                              x().spec())),
                      List.of(t, t2),
                      ComputeOptions.defaults()))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("another target of the same compute");
    }
    assertThat(WriteLock.fileFor(out)).doesNotExist();
    assertThat(tryInChild(out)).isEqualTo("LOCKED");
  }

  @Test
  void aLockFileLeftByAKilledProcessIsNotHeld() throws Exception {
    Path out = Files.createDirectories(dir.resolve("out.zarr"));
    Files.writeString(WriteLock.fileFor(out), "pid 1 since long ago\n");
    ZarrArray z = Cubed.toZarr(x(), new FileSystemStore(out), "");
    assertThat(z.read().getDouble(0)).isEqualTo(2.0);
    assertThat(WriteLock.fileFor(out)).doesNotExist();
  }
}
