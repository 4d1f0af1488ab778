package dev.cubed.zarr.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link FileSystemStore}: links, permissions, directories where values belong, error messages. */
class FileSystemStoreSafetyTest {
  @TempDir Path dir;

  @Test
  void neverFollowsALinkOutOfTheRoot() throws IOException {
    Path outside = Files.createDirectories(dir.resolve("outside"));
    Files.writeString(outside.resolve("secret"), "s");
    Path root = Files.createDirectories(dir.resolve("root"));
    Files.createSymbolicLink(root.resolve("out"), outside);
    FileSystemStore s = new FileSystemStore(root);
    for (Runnable r :
        new Runnable[] {
          () -> s.put("out/new", new byte[] {1}),
          () -> s.put("out/deep/er/new", new byte[] {1}),
          () -> s.get("out/secret"),
          () -> s.delete("out/secret"),
          () -> s.list("out/"),
          () -> s.listChildren("out/"),
          () -> s.getRange("out/secret", 0, 1),
          () -> s.list("")
        }) {
      assertThatThrownBy(r::run)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("symbolic link leading outside the store root")
          .hasMessageContaining(outside.toRealPath().toString());
    }
    try (var files = Files.list(outside)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("secret");
    }
    // a value that is a link out of the root
    Files.delete(root.resolve("out"));
    Files.createSymbolicLink(root.resolve("v"), outside.resolve("secret"));
    assertThatThrownBy(() -> s.get("v"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("symbolic link leading outside");
    // links that stay inside the root are followed
    Files.createDirectories(root.resolve("real"));
    Files.createSymbolicLink(root.resolve("alias"), root.resolve("real"));
    s.put("alias/k", new byte[] {7});
    assertThat(Files.readAllBytes(root.resolve("real/k"))).containsExactly(7);
    assertThat(s.get("alias/k")).containsExactly(7);
    // put replaces a value that is a link by a file, never writing through it
    s.put("v", new byte[] {9});
    assertThat(Files.readString(outside.resolve("secret"))).isEqualTo("s");
    assertThat(Files.isSymbolicLink(root.resolve("v"))).isFalse();
  }

  @Test
  void writtenFilesGetDefaultPermissionsNot0600() throws IOException {
    FileSystemStore s = new FileSystemStore(dir.resolve("st"));
    s.put("a/b", new byte[] {1});
    Path ref = Files.createFile(dir.resolve("st/a/reference")); // default mode under this umask
    Set<PosixFilePermission> got = Files.getPosixFilePermissions(dir.resolve("st/a/b"));
    assertThat(got).isEqualTo(Files.getPosixFilePermissions(ref));
    assertThat(got).contains(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
    if (Files.getPosixFilePermissions(ref).contains(PosixFilePermission.OTHERS_READ)) {
      assertThat(got).contains(PosixFilePermission.GROUP_READ, PosixFilePermission.OTHERS_READ);
    }
  }

  @Test
  void aDirectoryWhereAChunkBelongsIsAnErrorNamingTheKey() throws IOException {
    FileSystemStore s = new FileSystemStore(dir.resolve("a.zarr"));
    ZarrArray z = ZarrArray.create(s, "").shape(4, 4).chunks(2, 2).dtype(DType.INT32).build();
    z.write(new long[2], NDArray.full(DType.INT32, 3, 4, 4));
    Path chunk = dir.resolve("a.zarr/c/1/1");
    Files.delete(chunk);
    Files.createDirectories(chunk);
    assertThatThrownBy(() -> z.readChunk(1, 1))
        .isInstanceOf(ZarrStoreException.class)
        .hasMessageContaining("key 'c/1/1'")
        .hasMessageContaining("is a directory");
    assertThatThrownBy(z::read).isInstanceOf(ZarrStoreException.class);
  }

  @Test
  void writeFailuresSayReadOnlyOrDiskFull() {
    String ro =
        LocalFiles.writeFailure(
                "write", "c/0", "file:///t/", new AccessDeniedException("/t/c/.cubed-tmp-0"))
            .getMessage();
    assertThat(ro)
        .contains("key 'c/0'")
        .contains("read-only or not writable")
        .contains("/t/c/.cubed-tmp-0")
        .contains("choose a writable path");
    String rofs =
        LocalFiles.writeFailure(
                "write",
                "k",
                "file:///t/",
                new FileSystemException("/t/k", null, "Read-only file system"))
            .getMessage();
    assertThat(rofs).contains("read-only");
    String full =
        LocalFiles.writeFailure(
                "write", "c/1", "file:///t/", new IOException("No space left on device"))
            .getMessage();
    assertThat(full)
        .contains("key 'c/1'")
        .contains("no space left on device")
        .contains("free space");
    String other =
        LocalFiles.writeFailure("delete", "k", "file:///t/", new IOException("weird")).getMessage();
    assertThat(other)
        .contains("cannot delete key 'k'")
        .contains("weird")
        .doesNotContain("read-only")
        .doesNotContain("space");
  }

  @Test
  void realWriteIntoAReadOnlyDirectoryNamesTheCause() throws IOException {
    // root ignores mode bits; the mapping is covered by writeFailuresSayReadOnlyOrDiskFull
    Assumptions.assumeFalse(
        "root".equals(System.getProperty("user.name")),
        "running as root: permissions are not enforced");
    Path ro = Files.createDirectories(dir.resolve("ro"));
    Files.setPosixFilePermissions(
        ro, Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_EXECUTE));
    try {
      FileSystemStore s = new FileSystemStore(ro);
      assertThatThrownBy(() -> s.put("k", new byte[] {1}))
          .isInstanceOf(ZarrStoreException.class)
          .hasMessageContaining("read-only or not writable");
    } finally {
      Files.setPosixFilePermissions(
          ro,
          Set.of(
              PosixFilePermission.OWNER_READ,
              PosixFilePermission.OWNER_WRITE,
              PosixFilePermission.OWNER_EXECUTE));
    }
  }
}
