package dev.cubed.plan.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.OwnDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Work directories are private: the default is per user, created 0700; a work directory owned by
 * another user or writable by group/others is refused with what to do; compute directories are 0700
 * with owner-only files and are refused when they are a link or someone else's. Another user's
 * ownership is made with {@code chown} to {@code nobody}, which needs root (these cases are skipped
 * otherwise).
 */
class WorkDirsTest {
  @TempDir Path tmp;

  private static String mode(Path p) throws IOException {
    return PosixFilePermissions.toString(
        Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
  }

  private static boolean root() throws IOException {
    return OwnDirs.currentUser(Path.of("/")).getName().equals("root");
  }

  private static UserPrincipal nobody(Path p) throws IOException {
    return p.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
  }

  @Test
  void theDefaultIsPerUserAndCreated0700() throws Exception {
    String user = System.getProperty("user.name").replaceAll("[^A-Za-z0-9._-]", "_");
    assertThat(Spec.defaults().workLocation())
        .isEqualTo(WorkDirs.defaultWorkDir())
        .isEqualTo(Path.of(System.getProperty("java.io.tmpdir"), "cubed-" + user).toString());
    Path wd = tmp.resolve("a").resolve("work");
    WorkDirs.ensurePrivate(wd);
    assertThat(mode(wd)).isEqualTo("rwx------");
  }

  @Test
  void groupOrOtherWritableWorkDirIsRefused() throws Exception {
    Path wd = Files.createDirectory(tmp.resolve("shared"));
    Files.setPosixFilePermissions(wd, PosixFilePermissions.fromString("rwxrwxrwx"));
    assertThatThrownBy(() -> WorkDirs.ensurePrivate(wd))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("can be written by other users (mode rwxrwxrwx)")
        .hasMessageContaining("chmod 700 " + wd)
        .hasMessageContaining("--work-dir")
        .hasMessageContaining("Spec.builder().workDir");
    Files.setPosixFilePermissions(wd, PosixFilePermissions.fromString("rwxrwxr-x"));
    assertThatThrownBy(() -> WorkDirs.ensurePrivate(wd)).hasMessageContaining("by its group");
    // and a compute there is refused before anything is written
    Spec spec = Spec.builder().workDir(wd).allowedMem(10_000_000).reservedMem(1000).build();
    CubedArray x = Cubed.fromArray(NDArray.zeros(DType.INT32, 40, 40), new long[] {10, 10}, spec);
    assertThatThrownBy(() -> Cubed.toZarr(x.add(x), new FileSystemStore(tmp.resolve("o")), "x"))
        .hasMessageContaining("chmod 700");
    try (Stream<Path> s = Files.list(wd)) {
      assertThat(s.toList()).isEmpty();
    }
    Files.setPosixFilePermissions(wd, PosixFilePermissions.fromString("rwx------"));
    WorkDirs.ensurePrivate(wd); // fixed as the message says
  }

  @Test
  void workDirOwnedByAnotherUserIsRefused() throws Exception {
    assumeThat(root()).as("chown to another user needs root").isTrue();
    Path wd =
        Files.createDirectory(
            tmp.resolve("theirs"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Files.setOwner(wd, nobody(wd));
    assertThatThrownBy(() -> WorkDirs.ensurePrivate(wd))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is owned by user nobody, not by root")
        .hasMessageContaining("could read or replace the intermediate arrays")
        .hasMessageContaining("--work-dir DIR, or Spec.builder().workDir(...)");
    // a link owned by another user, leading to a directory of ours
    Path mine = Files.createDirectory(tmp.resolve("mine"));
    Path link = Files.createSymbolicLink(tmp.resolve("link"), mine);
    // Files.setOwner follows links: chown -h changes the link itself
    assertThat(
            new ProcessBuilder("chown", "-h", "nobody", link.toString())
                .inheritIO()
                .start()
                .waitFor())
        .isZero();
    assertThat(Files.getOwner(link, LinkOption.NOFOLLOW_LINKS).getName()).isEqualTo("nobody");
    assertThatThrownBy(() -> WorkDirs.ensurePrivate(link))
        .hasMessageContaining("is a symbolic link owned by user nobody");
  }

  @Test
  void computeDirsAre0700WithOwnerOnlyFilesAndNeverALinkOrSomeoneElses() throws Exception {
    Path wd = tmp.resolve("work");
    try (ComputeDir cd = ComputeDir.open(wd, "0123456789abcdef", "plan\n", false)) {
      cd.store().put("arr/c/0/0", new byte[] {1, 2, 3});
      assertThat(mode(wd)).isEqualTo("rwx------");
      assertThat(mode(cd.path())).isEqualTo("rwx------");
      assertThat(mode(cd.path().resolve("arr"))).isEqualTo("rwx------");
      assertThat(mode(cd.path().resolve("arr/c/0"))).isEqualTo("rwx------");
      assertThat(mode(cd.path().resolve("arr/c/0/0"))).isEqualTo("rw-------");
      assertThat(mode(cd.path().resolve(ComputeDir.LOCK))).isEqualTo("rw-------");
      assertThat(mode(cd.path().resolve(ComputeDir.FINGERPRINT))).isEqualTo("rw-------");
    }
    // a user target written through an ordinary store keeps the umask's modes
    new FileSystemStore(tmp.resolve("out")).put("k", new byte[] {1});
    assertThat(mode(tmp.resolve("out/k"))).isNotEqualTo("rw-------");

    Path elsewhere = Files.createDirectory(tmp.resolve("elsewhere"));
    Files.createSymbolicLink(wd.resolve("compute-1111111111111111"), elsewhere);
    assertThatThrownBy(() -> ComputeDir.open(wd, "1111111111111111", "plan\n", false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is a symbolic link");
    try (Stream<Path> s = Files.list(elsewhere)) {
      assertThat(s.toList()).as("nothing written where the link leads").isEmpty();
    }
    if (root()) {
      Path theirs = Files.createDirectory(wd.resolve("compute-2222222222222222"));
      Files.setOwner(theirs, nobody(theirs));
      assertThatThrownBy(() -> ComputeDir.open(wd, "2222222222222222", "plan\n", false))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("is owned by user nobody");
    }
  }

  /**
   * A write refused when the targets are created (here: another writer holds the target's lock)
   * leaves nothing in the work directory: the compute directory, opened but without a finished
   * task, is removed.
   */
  @Test
  void aWriteRefusedAtWriteTimeLeavesNothingInTheWorkDir() throws Exception {
    Path wd = tmp.resolve("work");
    Spec spec = Spec.builder().workDir(wd).allowedMem(10_000_000).reservedMem(1000).build();
    CubedArray x = Cubed.fromArray(NDArray.zeros(DType.INT32, 40, 40), new long[] {10, 10}, spec);
    Path target = tmp.resolve("t.zarr");
    Files.createDirectories(target);
    try (WriteLock held = WriteLock.acquire(target, "write")) {
      assertThatThrownBy(
              () -> Cubed.toZarr(x.add(x).rechunk(20, 20), new FileSystemStore(target), ""))
          .hasMessageContaining("being written by another");
    }
    try (Stream<Path> s = Files.list(wd)) {
      assertThat(s.toList()).as("nothing left in the work directory").isEmpty();
    }
  }

  @Test
  void notesInTheFingerprintAreNotCompared() {
    assertThat(ComputeDir.compared("a\n# planned with reservedMem=1\nb\n"))
        .isEqualTo(ComputeDir.compared("a\n# planned with reservedMem=2\nb\n"));
    assertThat(List.of(ComputeDir.compared("a\nb\n")))
        .doesNotContain(ComputeDir.compared("a\nc\n"));
  }
}
