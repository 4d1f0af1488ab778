package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.MemoryBudgetExceededException;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writes through {@link Cubed#toZarr} and {@link Cubed#store} never destroy data. */
class TargetSafetyTest {
  @TempDir Path dir;

  /** Every file under {@code root} (links not followed) with its bytes, for "unchanged" checks. */
  static Map<String, String> snapshot(Path root) throws IOException {
    Map<String, String> m = new TreeMap<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        String rel = root.relativize(p).toString();
        if (Files.isSymbolicLink(p)) {
          m.put(rel, "link->" + Files.readSymbolicLink(p));
        } else if (Files.isRegularFile(p)) {
          m.put(rel, Base64.getEncoder().encodeToString(Files.readAllBytes(p)));
        } else {
          m.put(rel + "/", "");
        }
      }
    }
    return m;
  }

  /** The write lock file of a target directory: {@code .NAME.cubed-write.lock} beside it. */
  static Path lockFileOf(Path target) {
    return target.getParent().resolve("." + target.getFileName() + FileSystemStore.WRITE_LOCK);
  }

  private Spec spec(long allowed) {
    return Spec.builder()
        .workDir(dir.resolve("work"))
        .allowedMem(allowed)
        .reservedMem(1000)
        .build();
  }

  private static NDArray data(int n, double base) {
    NDArray a = NDArray.zeros(DType.FLOAT64, n, n);
    for (int i = 0; i < a.size(); i++) {
      a.setDouble(i, base + i);
    }
    return a;
  }

  private Path source(String name) {
    Path p = dir.resolve(name);
    ZarrArray z =
        ZarrArray.create(new FileSystemStore(p), "")
            .shape(20, 20)
            .chunks(5, 5)
            .dtype(DType.FLOAT64)
            .build();
    z.write(new long[2], data(20, 1));
    return p;
  }

  @Test
  void directoryHoldingOtherFilesIsNeverEmptied() throws IOException {
    Path out = dir.resolve("photos");
    Files.createDirectories(out.resolve("2024"));
    Files.writeString(out.resolve("a.txt"), "keep me");
    Files.writeString(out.resolve("2024/b.jpg"), "and me");
    Map<String, String> before = snapshot(out);
    CubedArray x = Cubed.fromArray(data(10, 0), new long[] {5, 5}, spec(10_000_000));
    for (boolean overwrite : new boolean[] {false, true}) {
      assertThatThrownBy(() -> Cubed.toZarr(x, new FileSystemStore(out), "", overwrite))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("is not a Zarr array")
          .hasMessageContaining("refusing to delete")
          .hasMessageContaining("2 file(s)");
      assertThat(snapshot(out)).isEqualTo(before);
    }
  }

  @Test
  void targetEqualToInsideOrContainingTheSourceIsRefused() throws IOException {
    Path data = dir.resolve("data");
    Path src = source("data/src.zarr");
    Files.createSymbolicLink(dir.resolve("alias.zarr"), src);
    Map<String, String> before = snapshot(src);
    CubedArray x = Cubed.fromZarr(src.toString(), spec(10_000_000));
    record Case(Path root, String path, String how) {}
    for (Case c :
        new Case[] {
          new Case(src, "", "is the same location as"),
          new Case(data, "", "contains"),
          new Case(src, "inner", "is inside"),
          new Case(dir.resolve("alias.zarr"), "", "is the same location as")
        }) {
      assertThatThrownBy(
              () -> Cubed.toZarr(x.add(x), new FileSystemStore(c.root()), c.path(), true))
          .as(c.toString())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(c.how() + " the source array")
          .hasMessageContaining(src.toRealPath().toString());
      assertThat(snapshot(src)).isEqualTo(before);
    }
    // store() into the source itself
    ZarrArray same = ZarrArray.open(new FileSystemStore(src), "");
    assertThatThrownBy(
            () -> Cubed.store(List.of(x.add(x)), List.of(same), ComputeOptions.defaults()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the source array");
    assertThat(snapshot(src)).isEqualTo(before);
  }

  @Test
  void memoryCheckRunsBeforeTheTargetIsTouched() throws IOException {
    Path out = dir.resolve("out.zarr");
    Cubed.toZarr(
        Cubed.fromArray(data(40, 0), new long[] {10, 10}, spec(10_000_000)),
        new FileSystemStore(out),
        "");
    Map<String, String> before = snapshot(out);
    CubedArray big = Cubed.fromArray(data(40, 5), new long[] {40, 40}, spec(20_000));
    assertThatThrownBy(() -> Cubed.toZarr(big, new FileSystemStore(out), "", true))
        .isInstanceOf(MemoryBudgetExceededException.class);
    assertThat(snapshot(out)).isEqualTo(before);
  }

  @Test
  void lazyWriteCreatesNothingUntilComputed() {
    Path out = dir.resolve("lazy.zarr");
    CubedArray w =
        Cubed.toZarrLazy(
            Cubed.fromArray(data(10, 0), new long[] {5, 5}, spec(10_000_000)),
            new FileSystemStore(out),
            "");
    assertThat(out).doesNotExist();
    w.compute();
    ZarrArray z = ZarrArray.open(new FileSystemStore(out), "");
    assertThat(z.read()).isEqualTo(data(10, 0));
    assertThat(z.isIncomplete()).isFalse();
    assertThat(lockFileOf(out)).doesNotExist();
  }

  @Test
  void existingTargetNeedsOverwriteAndThenOnlyItsChunksAreReplaced() throws IOException {
    Path out = dir.resolve("out.zarr");
    FileSystemStore st = new FileSystemStore(out);
    Cubed.toZarr(Cubed.fromArray(data(10, 1), new long[] {5, 5}, spec(10_000_000)), st, "");
    Map<String, String> before = snapshot(out);
    NDArray zeros = NDArray.zeros(DType.FLOAT64, 10, 10); // all fill: no chunk is stored
    CubedArray x = Cubed.fromArray(zeros, new long[] {5, 5}, spec(10_000_000));
    assertThatThrownBy(() -> Cubed.toZarr(x, st, ""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("already exists")
        .hasMessageContaining("overwrite");
    assertThat(snapshot(out)).isEqualTo(before);
    ZarrArray z = Cubed.toZarr(x, st, "", true);
    assertThat(z.read()).isEqualTo(zeros); // old chunks were deleted, not read as data
    assertThat(z.chunksWritten()).isZero();
  }

  @Test
  void zarrTargetHoldingForeignFilesIsNotReplaced() throws IOException {
    Path out = dir.resolve("out.zarr");
    FileSystemStore st = new FileSystemStore(out);
    Cubed.toZarr(Cubed.fromArray(data(10, 1), new long[] {5, 5}, spec(10_000_000)), st, "");
    Files.writeString(out.resolve("notes.txt"), "mine");
    Map<String, String> before = snapshot(out);
    assertThatThrownBy(
            () ->
                Cubed.toZarr(
                    Cubed.fromArray(data(10, 2), new long[] {5, 5}, spec(10_000_000)),
                    st,
                    "",
                    true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("notes.txt")
        .hasMessageContaining("not part of it");
    assertThat(snapshot(out)).isEqualTo(before);
  }

  @Test
  void linkInsideTheTargetLeadingOutIsRefusedAndNothingIsWrittenOutside() throws IOException {
    Path outside = Files.createDirectories(dir.resolve("elsewhere"));
    Files.writeString(outside.resolve("keep.txt"), "x");
    Path out = Files.createDirectories(dir.resolve("out.zarr"));
    Files.createSymbolicLink(out.resolve("c"), outside);
    Map<String, String> before = snapshot(outside);
    CubedArray x = Cubed.fromArray(data(10, 1), new long[] {5, 5}, spec(10_000_000));
    for (boolean overwrite : new boolean[] {false, true}) {
      assertThatThrownBy(() -> Cubed.toZarr(x, new FileSystemStore(out), "", overwrite))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("symbolic link leading outside the store root");
      assertThat(snapshot(outside)).isEqualTo(before);
    }
    // a target path reached through a link out of the store root
    Path root = Files.createDirectories(dir.resolve("root"));
    Files.createSymbolicLink(root.resolve("sub"), outside);
    assertThatThrownBy(() -> Cubed.toZarr(x, new FileSystemStore(root), "sub/arr"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("symbolic link leading outside the store root");
    assertThat(snapshot(outside)).isEqualTo(before);
  }

  private CubedArray failing() {
    return Cubed.fromFunction(
        new long[] {20, 20},
        new long[] {5, 5},
        DType.FLOAT64,
        (b, i, flat, in, bc) -> {
          if (flat == 399) {
            throw new IllegalStateException("injected failure");
          }
          b.setDouble(i, flat + 1);
        },
        spec(10_000_000));
  }

  @Test
  void failedComputeLeavesNoHalfWrittenNewTarget() throws IOException {
    Path out = dir.resolve("out.zarr");
    assertThatThrownBy(() -> Cubed.toZarr(failing(), new FileSystemStore(out), ""))
        .hasStackTraceContaining("injected failure");
    // the new array was staged beside the target and never swapped in
    assertThat(out.resolve("zarr.json")).doesNotExist();
    assertThat(lockFileOf(out)).doesNotExist();
    try (Stream<Path> s = Files.list(dir)) {
      assertThat(s.map(p -> p.getFileName().toString()))
          .anyMatch(n -> n.startsWith(".out.zarr.cubed-staging-"));
    }
    assertThatThrownBy(() -> ZarrArray.open(new FileSystemStore(out), ""))
        .hasMessageContaining("no zarr.json")
        .hasMessageContaining("a compute is writing");
    assertThatThrownBy(() -> Cubed.fromZarr(out.toString(), spec(10_000_000)))
        .hasMessageContaining("a compute is writing");
    // a rerun (no overwrite needed: nothing is at the target) writes it
    CubedArray good = Cubed.fromArray(data(20, 1), new long[] {5, 5}, spec(10_000_000));
    ZarrArray done = Cubed.toZarr(good, new FileSystemStore(out), "");
    assertThat(done.isIncomplete()).isFalse();
    assertThat(done.read()).isEqualTo(data(20, 1));
  }

  @Test
  void failedOverwriteLeavesTheOldArrayIntact() throws IOException {
    Path out = dir.resolve("out.zarr");
    FileSystemStore st = new FileSystemStore(out);
    Cubed.toZarr(Cubed.fromArray(data(20, 7), new long[] {5, 5}, spec(10_000_000)), st, "");
    Map<String, String> before = snapshot(out);
    assertThatThrownBy(() -> Cubed.toZarr(failing(), st, "", true))
        .hasStackTraceContaining("injected failure");
    assertThat(snapshot(out)).isEqualTo(before);
    assertThat(Cubed.fromZarr(out.toString(), spec(10_000_000)).compute()).isEqualTo(data(20, 7));
  }

  @Test
  void failedWriteIntoAnExistingArrayLeavesItMarkedIncomplete() throws IOException {
    Path out = dir.resolve("out.zarr");
    ZarrArray existing =
        ZarrArray.create(new FileSystemStore(out), "").shape(20, 20).chunks(5, 5).build();
    assertThatThrownBy(
            () -> Cubed.store(List.of(failing()), List.of(existing), ComputeOptions.defaults()))
        .hasStackTraceContaining("injected failure");
    ZarrArray z = ZarrArray.open(new FileSystemStore(out), "");
    assertThat(z.isIncomplete()).isTrue();
    assertThat(Files.readString(out.resolve("zarr.json"), StandardCharsets.UTF_8))
        .contains(ZarrArray.INCOMPLETE_ATTRIBUTE);
    assertThatThrownBy(() -> Cubed.fromZarr(out.toString(), spec(10_000_000)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("INCOMPLETE");
    assertThat(Cubed.fromZarr(z, spec(10_000_000), true).shape()).containsExactly(20, 20);
    // without overwrite the incomplete array is refused too, saying so
    CubedArray good = Cubed.fromArray(data(20, 1), new long[] {5, 5}, spec(10_000_000));
    assertThatThrownBy(() -> Cubed.toZarr(good, new FileSystemStore(out), ""))
        .hasMessageContaining("INCOMPLETE");
    ZarrArray done = Cubed.toZarr(good, new FileSystemStore(out), "", true);
    assertThat(done.isIncomplete()).isFalse();
    assertThat(done.read()).isEqualTo(data(20, 1));
  }

  @Test
  void targetContainingTheWorkDirIsRefused() {
    CubedArray x = Cubed.fromArray(data(10, 1), new long[] {5, 5}, spec(10_000_000));
    assertThatThrownBy(() -> Cubed.toZarr(x, new FileSystemStore(dir), ""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("work directory");
  }
}
