package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.FileSystemStore;
import dev.cubed.zarr.MemoryStore;
import dev.cubed.zarr.Store;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.ZarrFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commit of a staged write, interrupted at every step: on an object store (no rename) each
 * mutation of the commit in turn fails (as a kill would stop it), and a reader must then see the
 * whole old array, the whole new one, or no array (never a mix, never fill values); a rerun
 * finishes it. On a filesystem a swap interrupted between its two renames is finished (or rolled
 * back) by the next open of the target.
 */
class StagedCommitTest {
  @TempDir Path dir;

  private Spec spec() {
    return Spec.builder()
        .workDir(dir.resolve("work"))
        .allowedMem(10_000_000)
        .reservedMem(1000)
        .build();
  }

  private static NDArray data(double base) {
    NDArray a = NDArray.zeros(DType.FLOAT64, 12, 12);
    for (int i = 0; i < a.size(); i++) {
      a.setDouble(i, base + i);
    }
    return a;
  }

  /** A store whose {@code failAt}-th mutation after a commit mark was put throws (a "kill"). */
  static final class CrashingStore implements Store {
    private static final long serialVersionUID = 1L;
    final Store inner;
    final int failAt;
    int afterMark = -1;
    volatile boolean armed = true;

    CrashingStore(Store inner, int failAt) {
      this.inner = inner;
      this.failAt = failAt;
    }

    private synchronized void step(String key) {
      if (armed && afterMark >= 0 && ++afterMark == failAt) {
        throw new IllegalStateException("killed at commit step " + failAt + " (" + key + ")");
      }
      if (key.endsWith(".cubed-commit") && afterMark < 0) {
        afterMark = 0;
      }
    }

    @Override
    public byte[] get(String key) {
      return inner.get(key);
    }

    @Override
    public byte[] getRange(String key, long offset, int length) {
      return inner.getRange(key, offset, length);
    }

    @Override
    public void put(String key, byte[] value) {
      inner.put(key, value);
      step(key);
    }

    @Override
    public void delete(String key) {
      step(key);
      inner.delete(key);
    }

    @Override
    public boolean exists(String key) {
      return inner.exists(key);
    }

    @Override
    public List<String> list(String prefix) {
      return inner.list(prefix);
    }
  }

  @Test
  void anObjectStoreCommitKilledAtEveryStepNeverShowsAMixAndARerunFinishesIt() {
    for (String path : new String[] {"t", "g/t", ""}) {
      for (int format : new int[] {2, 3}) {
        int commits = 0;
        for (int failAt = 1; failAt < 200; failAt++) {
          String what = "path '" + path + "' v" + format + " failing at commit step " + failAt;
          MemoryStore mem = new MemoryStore();
          ZarrArray old =
              ZarrArray.create(mem, path).shape(12, 12).chunks(5, 5).zarrFormat(format).build();
          old.write(new long[2], data(1));
          CrashingStore crashing = new CrashingStore(mem, failAt);
          // the new array leaves one chunk all fill (stale old chunk to delete)
          NDArray fresh = data(1000);
          for (int i = 0; i < 25; i++) {
            fresh.setDouble(i / 5 * 12 + i % 5, 0);
          }
          CubedArray x = Cubed.fromArray(fresh, new long[] {5, 5}, spec());
          try {
            Cubed.store(
                List.of(x), List.of(target(crashing, path, format)), ComputeOptions.defaults());
            assertThat(ZarrArray.open(mem, path).read()).as(what).isEqualTo(fresh);
            break; // the commit had fewer steps: it completed
          } catch (IllegalStateException e) {
            assertThat(e).as(what).hasMessageContaining("killed at commit step");
          }
          commits++;
          // a reader sees the old array whole, the new one whole, or no array
          ZarrArray seen = null;
          try {
            seen = ZarrArray.open(mem, path);
          } catch (ZarrFormatException e) {
            assertThat(e.getMessage()).as(what).contains("interrupted");
          }
          if (seen != null) {
            assertThat(seen.isIncomplete()).as(what).isFalse();
            assertThat(seen.read()).as(what).isIn(data(1), fresh);
          }
          // rerun the same write: the interrupted commit is finished, the target is the new one
          Cubed.store(List.of(x), List.of(target(mem, path, format)), ComputeOptions.defaults());
          assertThat(ZarrArray.open(mem, path).read()).as(what).isEqualTo(fresh);
          assertThat(mem.list("")).as(what).noneMatch(k -> k.contains(".cubed-"));
        }
        assertThat(commits).as("path '" + path + "' v" + format).isGreaterThan(8);
      }
    }
  }

  private static ZarrArray target(Store store, String path, int format) {
    return ZarrArray.create(store, path)
        .shape(12, 12)
        .chunks(5, 5)
        .zarrFormat(format)
        .overwrite()
        .buildDeferred();
  }

  @Test
  void aFilesystemSwapInterruptedBetweenItsRenamesIsFinishedByTheNextOpen() throws Exception {
    for (boolean staged : new boolean[] {true, false}) {
      Path parent = Files.createDirectories(dir.resolve("swap-" + staged));
      Path target = parent.resolve("out.zarr");
      ZarrArray.create(new FileSystemStore(target), "")
          .shape(12, 12)
          .chunks(5, 5)
          .build()
          .write(new long[2], data(1));
      Path staging = parent.resolve(".out.zarr" + ".cubed-staging-" + "abc");
      ZarrArray.create(new FileSystemStore(staging), "")
          .shape(12, 12)
          .chunks(5, 5)
          .build()
          .write(new long[2], data(1000));
      // the state a kill between "rename target -> backup" and "rename staging -> target" leaves
      Files.move(target, parent.resolve(".out.zarr" + ".cubed-backup-" + "abc"));
      if (!staged) { // no staging array: the swap is rolled back
        deleteTree(staging);
      }
      assertThat(ZarrArray.open(target.toString()).read()).isEqualTo(staged ? data(1000) : data(1));
      try (Stream<Path> s = Files.list(parent)) {
        assertThat(s.map(p -> p.getFileName().toString())).containsExactly("out.zarr");
      }
    }
  }

  @Test
  void aRerunWithoutOverwriteFinishesItsOwnInterruptedCommit() {
    MemoryStore mem = new MemoryStore();
    CubedArray x = Cubed.fromArray(data(5), new long[] {5, 5}, spec());
    CrashingStore crashing = new CrashingStore(mem, 3);
    ZarrArray t = ZarrArray.create(crashing, "t").shape(12, 12).chunks(5, 5).buildDeferred();
    assertThatThrownBy(() -> Cubed.store(List.of(x), List.of(t), ComputeOptions.defaults()))
        .hasMessageContaining("killed at commit step");
    assertThatThrownBy(() -> ZarrArray.open(mem, "t")).hasMessageContaining("interrupted");
    crashing.armed = false; // the same store, so the same compute (and staging array)
    ZarrArray again = ZarrArray.create(crashing, "t").shape(12, 12).chunks(5, 5).buildDeferred();
    Cubed.store(List.of(x), List.of(again), ComputeOptions.defaults());
    assertThat(ZarrArray.open(mem, "t").read()).isEqualTo(data(5));
  }

  private static void deleteTree(Path p) throws IOException {
    try (Stream<Path> s = Files.walk(p)) {
      for (Path q : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(q);
      }
    }
  }
}
