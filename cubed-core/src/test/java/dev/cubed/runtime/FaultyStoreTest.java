package dev.cubed.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.ComputeOptions;
import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.Xp;
import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.elementwise.Elementwise;
import dev.cubed.nd.reduce.Statistics;
import dev.cubed.testing.NDAssert;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FaultyStore;
import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.ZarrStoreException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link FaultyStore} on a real directory: its failures are transient and never visible. */
class FaultyStoreTest {
  @TempDir Path dir;

  private static byte[] bytes(int n, int v) {
    byte[] b = new byte[n];
    Arrays.fill(b, (byte) v);
    return b;
  }

  private List<Path> tempFiles() throws Exception {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> p.getFileName().toString().startsWith(".cubed-tmp-")).toList();
    }
  }

  @Test
  void aPartialWriteLeavesJunkThatNoReaderSees() throws Exception {
    FileSystemStore fs = new FileSystemStore(dir);
    fs.put("a/c/0", bytes(100, 1));
    FaultyStore partial = new FaultyStore(fs, 1, 0, 1.0, 0);
    assertThatThrownBy(() -> partial.put("a/c/0", bytes(100, 2)))
        .isInstanceOf(ZarrStoreException.class)
        .hasMessageContaining("injected transient failure")
        .hasMessageContaining("partial temporary file left")
        .hasMessageContaining("a/c/0");
    assertThat(tempFiles()).as("a partial temporary file was really left").hasSize(1);
    assertThat(Files.size(tempFiles().get(0))).isEqualTo(50);
    assertThat(fs.get("a/c/0")).as("readers see the old value").isEqualTo(bytes(100, 1));
    assertThat(fs.list("")).containsExactly("a/c/0");
    assertThat(partial.list("a/")).containsExactly("a/c/0");
    assertThat(partial.injectedFailures()).isEqualTo(1);

    FaultyStore before = new FaultyStore(fs, 1, 1.0, 0, 0);
    assertThatThrownBy(() -> before.put("a/c/1", bytes(10, 3)))
        .isInstanceOf(ZarrStoreException.class)
        .hasMessageContaining("nothing written");
    assertThat(fs.exists("a/c/1")).isFalse();
    assertThat(tempFiles()).hasSize(1);

    FaultyStore reads = new FaultyStore(fs, 1, 0, 0, 1.0);
    assertThatThrownBy(() -> reads.get("a/c/0"))
        .isInstanceOf(ZarrStoreException.class)
        .hasMessageContaining("cannot read");
    assertThatThrownBy(() -> reads.getRange("a/c/0", 0, 4)).isInstanceOf(ZarrStoreException.class);
    assertThat(RetryPolicy.isRetryable(catchIt(() -> reads.get("a/c/0")))).isTrue();

    FaultyStore none = new FaultyStore(fs, 1, 0, 0, 0);
    none.put("a/c/0", bytes(100, 4));
    assertThat(none.get("a/c/0")).isEqualTo(bytes(100, 4));
  }

  private static Throwable catchIt(Runnable r) {
    try {
      r.run();
    } catch (Throwable t) {
      return t;
    }
    throw new AssertionError("no exception");
  }

  @Test
  void decisionsAreSeededAndTheStoreIsSerializable() throws Exception {
    FileSystemStore fs = new FileSystemStore(dir);
    FaultyStore a = new FaultyStore(fs, 9, 0.5, 0, 0);
    FaultyStore b = new FaultyStore(fs, 9, 0.5, 0, 0);
    StringBuilder sa = new StringBuilder();
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 40; i++) {
      sa.append(catchOrNull(a, "k" + (i % 5)) ? 'x' : '.');
      sb.append(catchOrNull(b, "k" + (i % 5)) ? 'x' : '.');
    }
    assertThat(sa.toString()).isEqualTo(sb.toString()).contains("x").contains(".");
    ByteArrayOutputStream bo = new ByteArrayOutputStream();
    try (ObjectOutputStream o = new ObjectOutputStream(bo)) {
      o.writeObject(a);
    }
    Store copy;
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bo.toByteArray()))) {
      copy = (Store) in.readObject();
    }
    assertThat(copy.describe()).isEqualTo("faulty(" + fs.describe() + ")");
    StringBuilder sc = new StringBuilder();
    for (int i = 0; i < 40; i++) {
      sc.append(catchOrNull((FaultyStore) copy, "k" + (i % 5)) ? 'x' : '.');
    }
    assertThat(sc.toString()).as("same rates and seed, counts afresh").isEqualTo(sa.toString());
    assertThatThrownBy(() -> new FaultyStore(fs, 1, 0.7, 0.7, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must not exceed 1");
    assertThatThrownBy(() -> new FaultyStore(fs, 1, -0.1, 0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("putFailRate");
  }

  private static boolean catchOrNull(FaultyStore s, String key) {
    try {
      s.put(key, new byte[] {1});
      return false;
    } catch (ZarrStoreException e) {
      return true;
    }
  }

  /** A compute writing and reading through a faulty store gives exact results via retries. */
  @Test
  void computesThroughAFaultyStoreGiveExactResults() throws Exception {
    FileSystemStore fs = new FileSystemStore(dir.resolve("data"));
    FaultyStore faulty = new FaultyStore(fs, 5, 0.15, 0.1, 0.1);
    Spec spec =
        Spec.builder().workDir(dir.resolve("work")).allowedMem(2_000_000).reservedMem(1000).build();
    Random r = new Random(3);
    NDArray a = NDArray.zeros(DType.FLOAT64, 24, 30);
    for (int i = 0; i < a.size(); i++) {
      a.setDouble(i, r.nextDouble());
    }
    CubedArray x = Cubed.fromArray(a, new long[] {5, 7}, spec);
    CubedArray y = Xp.add(Xp.multiply(x, x), Xp.sin(x));
    ZarrArray target =
        ZarrArray.create(fs, "out").shape(24, 30).chunks(5, 7).dtype(DType.FLOAT64).build();
    ThreadsExecutor ex =
        ThreadsExecutor.builder()
            .workers(3)
            .attempts(10)
            .retryBackoff(Duration.ofMillis(1))
            .build();
    List<RunReport> reports = new CopyOnWriteArrayList<>();
    Executor reporting =
        new Executor() {
          @Override
          public String name() {
            return ex.name();
          }

          @Override
          public RunReport execute(String id, List<Operation> ops, List<Callback> callbacks) {
            RunReport r = ex.execute(id, ops, callbacks);
            reports.add(r);
            return r;
          }
        };
    Cubed.store(List.of(y), List.of(openRetrying(faulty)), ComputeOptions.executor(reporting));
    NDArray expected = Elementwise.add(Elementwise.multiply(a, a), Elementwise.sin(a));
    NDAssert.assertExact(expected, target.read(), "written through the faulty store");
    long afterWrite = faulty.injectedFailures();
    assertThat(afterWrite).as("faults were injected").isGreaterThan(0);
    assertThat(reports)
        .singleElement()
        .extracting(RunReport::retries)
        .asInstanceOf(InstanceOfAssertFactories.LONG)
        .isGreaterThan(0L);
    assertThat(fs.list("out/")).noneMatch(k -> k.contains(".cubed-tmp-"));

    CubedArray back = Cubed.fromZarr(openRetrying(faulty), spec);
    NDArray sum = Cubed.compute(ComputeOptions.executor(ex), Xp.sum(back, 0)).get(0);
    NDAssert.assertClose(
        Statistics.sum(expected, Axes.of(0)), sum, 1e-12, 4, "read through the faulty store");
    assertThat(faulty.injectedFailures()).as("read faults injected").isGreaterThan(afterWrite);
  }

  /** Opening reads metadata outside any task, so a caller retries it itself. */
  private static ZarrArray openRetrying(FaultyStore s) {
    for (int i = 0; ; i++) {
      try {
        return ZarrArray.open(s, "out");
      } catch (ZarrStoreException e) {
        if (i == 20) {
          throw e;
        }
      }
    }
  }
}
