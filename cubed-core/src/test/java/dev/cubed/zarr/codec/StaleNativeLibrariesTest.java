package dev.cubed.zarr.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.UserPrincipal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The copies of lz4-java's native library that killed JVMs left in the temporary directory are
 * removed, and nothing else: not a copy a live process has mapped, not a recent one, not another
 * user's, not a link, not a file of another name.
 */
class StaleNativeLibrariesTest {
  @TempDir Path dir;

  private Path lib(String name, boolean old) throws IOException {
    Path f = dir.resolve(name);
    Files.write(f, new byte[4096]);
    if (old) {
      Files.setLastModifiedTime(f, FileTime.from(Instant.now().minus(2, ChronoUnit.HOURS)));
    }
    return f;
  }

  @Test
  void onlyStaleUnmappedCopiesOfThisUserAreRemoved() throws IOException {
    Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/self/maps")), "no /proc here");
    Path stale = lib("liblz4-java-111.so", true);
    Path recent = lib("liblz4-java-222.so", false);
    Path inUse = lib("liblz4-java-333.so", true);
    Path otherName = lib("liblz4-java-444.so.keep", true);
    Path target = lib("mine.bin", true);
    Path link = Files.createSymbolicLink(dir.resolve("liblz4-java-555.so"), target);
    Path others = null;
    if ("root".equals(System.getProperty("user.name"))) {
      others = lib("liblz4-java-666.so", true);
      UserPrincipal nobody =
          dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
      Files.setOwner(others, nobody);
      Files.setLastModifiedTime(others, FileTime.from(Instant.now().minus(2, ChronoUnit.HOURS)));
    }
    try (FileChannel ch = FileChannel.open(inUse, StandardOpenOption.READ)) {
      MappedByteBuffer mapped = ch.map(FileChannel.MapMode.READ_ONLY, 0, 4096);
      assertThat(StaleNativeLibraries.sweep(dir, Path.of("/proc"))).containsExactly(stale);
      assertThat(mapped.get(0)).isZero(); // still mapped while the sweep ran
    }
    assertThat(stale).doesNotExist();
    assertThat(recent).exists();
    assertThat(inUse).exists();
    assertThat(otherName).exists();
    assertThat(link).isSymbolicLink();
    assertThat(target).exists();
    if (others != null) {
      assertThat(others).exists();
    }
  }

  @Test
  void withoutAProcFileSystemNothingIsRemoved() throws IOException {
    Path stale = lib("liblz4-java-777.so", true);
    assertThat(StaleNativeLibraries.sweep(dir, dir.resolve("no-proc"))).isEmpty();
    assertThat(stale).exists();
  }
}
