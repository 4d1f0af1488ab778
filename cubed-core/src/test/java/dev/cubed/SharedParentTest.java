package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.durable.TargetBusyException;
import dev.cubed.testing.OtherUser;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.OwnDirs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A target whose parent directory another local user can write (a shared folder, mode 0777 without
 * the sticky bit): what that user plants beside the target (a lock file, a staging array, a backup,
 * links swapped in while a compute deletes) never steers the compute, and read-only opens never
 * move anything. The other user is a real second account ({@link OtherUser}, root only).
 */
class SharedParentTest {
  @TempDir Path tmp;
  private Path shared;
  private Path target;

  @BeforeEach
  void setUp() throws Exception {
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    shared = Files.createDirectory(tmp.resolve("shared"));
    Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
    target = shared.resolve("t.zarr");
  }

  private Spec spec() {
    return Spec.builder()
        .workDir(tmp.resolve("work"))
        .allowedMem(10_000_000)
        .reservedMem(1000)
        .build();
  }

  private CubedArray data(double base) {
    return Cubed.fromFunction(
        new long[] {8, 8},
        new long[] {4, 4},
        DType.FLOAT64,
        (b, i, flat, in, bc) -> b.setDouble(i, base + flat),
        spec());
  }

  private static ZarrArray deferred(Path dir, boolean overwrite) {
    var b = ZarrArray.create(new FileSystemStore(dir), "").shape(8, 8).chunks(4, 4);
    if (overwrite) {
      b.overwrite();
    }
    return b.buildDeferred();
  }

  private void write(Path dir, double base, boolean overwrite, boolean resume) {
    Cubed.store(
        List.of(data(base)),
        List.of(deferred(dir, overwrite)),
        ComputeOptions.defaults().withResume(resume));
  }

  /** The compute id of writing {@code base} to {@code dir}: what named staging and backup. */
  private String computeId(Path dir, double base, boolean overwrite) {
    return Cubed.plan(List.of(Cubed.store(data(base), deferred(dir, overwrite)))).computeId();
  }

  private NDArray expected(double base) {
    return data(base).compute();
  }

  private static NDArray read(Path dir) {
    return ZarrArray.open(dir.toString()).read();
  }

  private List<String> names() throws Exception {
    try (Stream<Path> s = Files.list(shared)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /** An array of {@code base} at {@code dir}, made by root outside the shared folder. */
  private Path arrayOf(String name, double base) {
    Path p = tmp.resolve(name);
    write(p, base, false, false);
    return p;
  }

  // ------------------------------------------------------------------ row 3 (no attacker)

  @Test
  void aReadOnlyOpenNeverRenamesAHalfDeletedBackupBack() throws Exception {
    // the state a kill during the backup's deletion leaves, after the user removed the target
    Path old = arrayOf("old.zarr", 1);
    Path backup = shared.resolve(".t.zarr.cubed-backup-0123456789abcdef");
    Files.move(old, backup);
    Files.delete(backup.resolve("c/0/0"));
    List<String> before = names();
    assertThatThrownBy(() -> ZarrArray.open(target.toString()))
        .hasMessageContaining("interrupted")
        .hasMessageContaining(backup.toString())
        .hasMessageContaining("nothing was moved or deleted");
    assertThatThrownBy(() -> Cubed.fromZarr(target.toString(), spec()).compute())
        .hasMessageContaining("no zarr.json");
    assertThat(Files.exists(target, LinkOption.NOFOLLOW_LINKS)).isFalse();
    assertThat(names()).isEqualTo(before);
  }

  // ------------------------------------------------------------------ row 5

  @Test
  void aLockFilePlantedAsALinkOrOfAnotherUserIsRefusedInOneLineAndNothingIsWritten()
      throws Exception {
    Path precious = tmp.resolve("precious.txt");
    Files.writeString(precious, "root's data\n");
    Files.setPosixFilePermissions(precious, PosixFilePermissions.fromString("rw-r--r--"));
    Path lock = shared.resolve(".t.zarr.cubed-write.lock");
    try (OtherUser mallory = OtherUser.create()) {
      mallory.sh("ln -s " + precious + " " + lock);
      assertThatThrownBy(() -> write(target, 1, false, false))
          .isInstanceOf(TargetBusyException.class)
          .hasMessageContaining("is a symbolic link")
          .hasMessageContaining(lock.toString())
          .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
      assertThat(Files.readString(precious)).isEqualTo("root's data\n");
      assertThat(Files.isSymbolicLink(lock)).isTrue();
      assertThat(Files.exists(target)).isFalse();

      mallory.sh("rm " + lock + " && echo hers > " + lock);
      assertThatThrownBy(() -> write(target, 1, false, false))
          .isInstanceOf(TargetBusyException.class)
          .hasMessageContaining("is owned by user " + mallory.name())
          .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
      assertThat(Files.readString(lock)).isEqualTo("hers\n");
      assertThat(Files.getOwner(lock).getName()).isEqualTo(mallory.name());

      mallory.sh("rm " + lock);
      write(target, 1, false, false);
      assertThat(read(target)).isEqualTo(expected(1));
      assertThat(Files.exists(lock, LinkOption.NOFOLLOW_LINKS)).isFalse();
    }
  }

  // ------------------------------------------------------------------ row 6

  @Test
  void aStagingArrayPlantedByAnotherUserIsNeverAdopted() throws Exception {
    Path hers = arrayOf("hers.zarr", 666);
    String id = computeId(target, 5, false);
    Path planted = shared.resolve(".t.zarr.cubed-staging-" + id);
    try (OtherUser mallory = OtherUser.create()) {
      mallory.sh("cp -r " + hers + " " + planted + " && chmod -R 0777 " + planted);
      write(target, 5, false, true);
      assertThat(read(target)).isEqualTo(expected(5));
      assertThat(Files.getOwner(target, LinkOption.NOFOLLOW_LINKS).getName()).isEqualTo("root");
      Set<PosixFilePermission> mode =
          Files.getPosixFilePermissions(target, LinkOption.NOFOLLOW_LINKS);
      assertThat(mode).doesNotContain(PosixFilePermission.OTHERS_WRITE);
      // hers is left alone, untouched
      assertThat(Files.getOwner(planted, LinkOption.NOFOLLOW_LINKS).getName())
          .isEqualTo(mallory.name());
      assertThat(read(planted)).isEqualTo(expected(666));
      mallory.sh("rm -rf " + planted);
    }
  }

  // ------------------------------------------------------------------ row 7

  @Test
  void aBackupPlantedByAnotherUserIsNeitherShownByAReaderNorMovedInByAWrite() throws Exception {
    Path hers = arrayOf("hers.zarr", 666);
    Path planted = shared.resolve(".t.zarr.cubed-backup-x");
    try (OtherUser mallory = OtherUser.create()) {
      mallory.sh("cp -r " + hers + " " + planted);
      List<String> before = names();
      assertThatThrownBy(() -> ZarrArray.open(target.toString()))
          .hasMessageContaining(planted.toString());
      assertThat(names()).isEqualTo(before);
      // a write of a new target creates it from its own data, and leaves hers alone
      write(target, 5, false, false);
      assertThat(read(target)).isEqualTo(expected(5));
      assertThat(Files.getOwner(target, LinkOption.NOFOLLOW_LINKS).getName()).isEqualTo("root");
      assertThat(read(planted)).isEqualTo(expected(666));
      assertThat(Files.getOwner(planted).getName()).isEqualTo(mallory.name());
      mallory.sh("rm -rf " + planted);
    }
  }

  // ------------------------------------------------------------------ row 8

  @Test
  void withoutOverwriteAnExistingTargetIsNeverReplacedWhateverIsPlantedBesideIt() throws Exception {
    write(target, 1, false, false);
    String id = computeId(target, 2, false);
    try (OtherUser mallory = OtherUser.create()) {
      mallory.sh(
          "mkdir "
              + shared.resolve(".t.zarr.cubed-backup-" + id)
              + " "
              + shared.resolve(".t.zarr.cubed-backup-x"));
      assertThatThrownBy(() -> write(target, 2, false, false))
          .hasMessageContaining("already exists");
      assertThat(read(target)).isEqualTo(expected(1));
      assertThat(names())
          .contains(".t.zarr.cubed-backup-" + id, ".t.zarr.cubed-backup-x", "t.zarr");
      // with overwrite it is replaced, and her directories stay
      write(target, 2, true, false);
      assertThat(read(target)).isEqualTo(expected(2));
      assertThat(names()).contains(".t.zarr.cubed-backup-" + id, ".t.zarr.cubed-backup-x");
    }
  }

  // ------------------------------------------------------------------ row 9

  private static final String SWAPPER =
      String.join(
          "\n",
          "import os, sys",
          "dirs, victim, stop = sys.argv[1].split(','), sys.argv[2], sys.argv[3]",
          "while not os.path.exists(stop):",
          "    for b in dirs:",
          "        try:",
          "            os.makedirs(b + '/sub', exist_ok=True)",
          "            for i in range(3):",
          "                open(b + '/sub/f%d' % i, 'w').close()",
          "            os.rename(b + '/sub', b + '/real')",
          "            os.symlink(victim, b + '/sub')",
          "            os.unlink(b + '/sub')",
          "            os.rename(b + '/real', b + '/sub')",
          "        except OSError:",
          "            pass",
          "");

  private Path victim() throws Exception {
    Path victim = Files.createDirectory(tmp.resolve("victim"));
    for (int i = 0; i < 200; i++) {
      Files.writeString(victim.resolve("v" + i), "root's file " + i);
    }
    return victim;
  }

  private static long count(Path d) throws Exception {
    try (Stream<Path> s = Files.list(d)) {
      return s.count();
    }
  }

  @Test
  void linksSwappedInWhileACommitDeletesNeverLeadItOutside() throws Exception {
    Path victim = victim();
    write(target, 0, false, false);
    Path script = tmp.resolve("swap.py");
    Files.writeString(script, SWAPPER);
    Path stop = tmp.resolve("stop");
    try (OtherUser mallory = OtherUser.create()) {
      // backups under the names a compute used to choose (its id) and any other
      StringBuilder dirs = new StringBuilder(shared.resolve(".t.zarr.cubed-backup-x").toString());
      for (int base = 1; base <= 8; base++) {
        dirs.append(',')
            .append(shared.resolve(".t.zarr.cubed-backup-" + computeId(target, base, true)));
      }
      Process p =
          mallory.start(
              List.of("python3", script.toString(), dirs.toString(), victim.toString(), "" + stop));
      try {
        Thread.sleep(300);
        for (int base = 1; base <= 8; base++) {
          write(target, base, true, false);
          assertThat(read(target)).isEqualTo(expected(base));
        }
      } finally {
        Files.writeString(stop, "");
        assertThat(p.waitFor(1, TimeUnit.MINUTES)).isTrue();
      }
      assertThat(count(victim)).as("root's files in " + victim).isEqualTo(200);
      assertThat(Files.exists(shared.resolve(".t.zarr.cubed-backup-x"))).isTrue();
      mallory.sh("rm -rf " + shared + "/.t.zarr.cubed-backup-*");
    }
  }

  @Test
  void theSecureDeleteNeverFollowsALinkSwappedInInsideTheTree() throws Exception {
    Path victim = victim();
    Path script = tmp.resolve("swap.py");
    Files.writeString(script, SWAPPER);
    Path stop = tmp.resolve("stop");
    try (OtherUser mallory = OtherUser.create()) {
      for (int round = 0; round < 20; round++) {
        // a directory of ours (the old target moved aside) with a subdirectory she may write
        Path own = shared.resolve(".t.zarr.cubed-backup-own" + round);
        String id = OwnDirs.create(own);
        Path open = Files.createDirectory(own.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        Process p =
            mallory.start(
                List.of(
                    "python3",
                    script.toString(),
                    open.resolve("b").toString(),
                    victim.toString(),
                    stop.toString()));
        try {
          Thread.sleep(100);
          for (int tries = 0; tries < 5 && Files.exists(own); tries++) {
            try {
              OwnDirs.deleteTree(own, id, true, s -> {});
            } catch (java.io.IOException e) {
              // she keeps adding entries while it deletes: tried again below
            }
          }
        } finally {
          Files.writeString(stop, "");
          assertThat(p.waitFor(1, TimeUnit.MINUTES)).isTrue();
          Files.delete(stop);
        }
        assertThat(count(victim)).as("round " + round).isEqualTo(200);
        try {
          OwnDirs.deleteTree(own, id, true, s -> {});
        } catch (IllegalStateException e) {
          // ours was deleted and her makedirs made a directory of hers at the same name (the
          // parent is hers to write): it is left alone, as it must be
          assertThat(e).hasMessageContaining("left alone");
          assertThat(Files.getOwner(own, LinkOption.NOFOLLOW_LINKS).getName())
              .isNotEqualTo(System.getProperty("user.name"));
          mallory.sh("rm -rf " + own);
        }
        assertThat(Files.exists(own, LinkOption.NOFOLLOW_LINKS)).isFalse();
      }
      assertThat(new String(Files.readAllBytes(victim.resolve("v7")), StandardCharsets.UTF_8))
          .isEqualTo("root's file 7");
    }
  }
}
