package dev.cubed.plan.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process halted part way through deleting a finished compute's directory leaves nothing a resume
 * would trust: the fingerprint goes first, so the next open with resume starts afresh instead of
 * skipping tasks whose markers survived their deleted blocks.
 */
class ComputeDirDeleteOrderTest {
  @TempDir Path work;

  @AfterEach
  void unhook() {
    ComputeDir.beforeDelete = p -> {};
  }

  @Test
  void aDeleteHaltedAfterItsFirstFileLeavesNoResumableDirectory() throws Exception {
    String id = "00112233aabbccdd";
    ComputeDir cd = ComputeDir.open(work, id, "plan: add\n", false);
    Path dir = cd.path();
    // what a run leaves: blocks of intermediates named before and after "fingerprint.txt", and
    // task markers under .done (deleted last in reverse name order)
    for (String f : new String[] {"zz-array/c/0/0", "aa-array/c/0/0", ".done/op-1/0.0"}) {
      Path p = dir.resolve(f);
      Files.createDirectories(p.getParent());
      Files.writeString(p, "x");
    }
    AtomicInteger deletes = new AtomicInteger();
    ComputeDir.beforeDelete =
        p -> {
          if (deletes.incrementAndGet() == 2) {
            throw new IllegalStateException("halted after the first delete");
          }
        };
    assertThatThrownBy(cd::deleteAndRelease).hasMessageContaining("halted");
    ComputeDir.beforeDelete = p -> {};
    cd.release(); // as the halted process's exit would
    assertThat(dir.resolve(".done/op-1/0.0")).as("a task marker survived the halt").exists();
    assertThat(dir.resolve("fingerprint.txt"))
        .as("the fingerprint is the first thing deleted")
        .doesNotExist();
    try (ComputeDir again = ComputeDir.open(work, id, "plan: add\n", true)) {
      assertThat(again.path()).as("the same directory, not a separate one").isEqualTo(dir);
      assertThat(again.resumed()).as("a half-deleted directory is not resumed").isFalse();
      assertThat(again.path().resolve(".done/op-1/0.0")).doesNotExist();
    }
  }
}
