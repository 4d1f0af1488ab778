package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.MemoryBudgetExceededException;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
import dev.cubed.runtime.TaskFailedException;
import dev.cubed.runtime.ThreadsExecutor;
import dev.cubed.testing.NDAssert;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.MemoryStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EngineTest {
  @TempDir Path dir;

  @Test
  void elementwiseBroadcastMatchesKernel() throws Exception {
    Spec spec = EngineTestSupport.tinySpec(dir, 200_000);
    NDArray a = EngineTestSupport.randomDoubles(1, 7, 9);
    NDArray b = EngineTestSupport.randomDoubles(2, 9);
    CubedArray x = Cubed.fromArray(a, new long[] {3, 4}, spec);
    CubedArray y = Cubed.fromArray(b, new long[] {2}, spec);
    NDArray got = Xp.add(Xp.multiply(x, y), x).compute();
    NDArray want = NDArray.zeros(DType.FLOAT64, 7, 9);
    for (int i = 0; i < 63; i++) {
      want.setDouble(i, a.getDouble(i) * b.getDouble(i % 9) + a.getDouble(i));
    }
    NDAssert.assertExact(want, got, "x*y+x");
    assertThat(Files.exists(dir)).isTrue();
    try (Stream<Path> s = Files.list(dir)) {
      assertThat(s.count()).as("intermediates removed").isZero();
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1})
  void reductionsMatchNaive(int axis) {
    Spec spec = EngineTestSupport.tinySpec(dir, 300_000);
    NDArray a = EngineTestSupport.randomDoubles(3, 23, 17);
    CubedArray x = Cubed.fromArray(a, new long[] {2, 3}, spec);
    int other = 1 - axis;
    long n = a.shape(axis);
    long m = a.shape(other);
    double[][] want = new double[6][(int) m];
    for (int j = 0; j < m; j++) {
      double s = 0;
      double mn = Double.POSITIVE_INFINITY;
      double mx = Double.NEGATIVE_INFINITY;
      int amax = 0;
      for (int i = 0; i < n; i++) {
        double v = axis == 0 ? a.getDouble(i * 17 + j) : a.getDouble(j * 17 + i);
        s += v;
        mn = Math.min(mn, v);
        if (v > mx) {
          mx = v;
          amax = i;
        }
      }
      double mean = s / n;
      double ss = 0;
      for (int i = 0; i < n; i++) {
        double v = axis == 0 ? a.getDouble(i * 17 + j) : a.getDouble(j * 17 + i);
        ss += (v - mean) * (v - mean);
      }
      want[0][j] = s;
      want[1][j] = mn;
      want[2][j] = mx;
      want[3][j] = mean;
      want[4][j] = ss / n;
      want[5][j] = amax;
    }
    List<NDArray> got =
        Cubed.compute(
            Xp.sum(x, axis),
            Xp.min(x, axis),
            Xp.max(x, axis),
            Xp.mean(x, axis),
            Xp.var(x, axis),
            Xp.argmax(x, axis));
    for (int r = 0; r < 6; r++) {
      NDArray g = got.get(r);
      assertThat(g.shape()).containsExactly(m);
      for (int j = 0; j < m; j++) {
        assertThat(g.getDouble(j))
            .as("reduction %d at %d", r, j)
            .isCloseTo(want[r][j], Offset.offset(1e-9 * (1 + Math.abs(want[r][j]))));
      }
    }
    assertThat(got.get(5).dtype()).isEqualTo(DType.INT64);
  }

  @Test
  void multiRoundReductionPlanHasSeveralRounds() {
    Spec spec = EngineTestSupport.tinySpec(dir, 100_000);
    NDArray a = EngineTestSupport.randomDoubles(5, 40, 3);
    CubedArray x = Cubed.fromArray(a, new long[] {2, 3}, spec);
    CubedArray s = Xp.sum(x);
    PlanSummary p = s.plan();
    assertThat(p.ops().size()).isGreaterThanOrEqualTo(2);
    double total = 0;
    for (int i = 0; i < a.size(); i++) {
      total += a.getDouble(i);
    }
    assertThat(s.compute().getDouble(0)).isCloseTo(total, Offset.offset(1e-9));
    assertThat(p.toString()).contains("Plan:").contains("sum");
    assertThat(s.dot()).startsWith("digraph");
  }

  @Test
  void integerAndBoolReductions() {
    Spec spec = EngineTestSupport.tinySpec(dir, 100_000);
    NDArray a = EngineTestSupport.randomInts(6, DType.INT32, 11, 5);
    NDArray b = EngineTestSupport.randomInts(7, DType.BOOL, 11, 5);
    CubedArray x = Cubed.fromArray(a, new long[] {3, 2}, spec);
    CubedArray y = Cubed.fromArray(b, new long[] {3, 2}, spec);
    List<NDArray> got =
        Cubed.compute(
            Xp.sum(x),
            Xp.prod(Xp.astype(x, DType.INT64), 1),
            Xp.all(y, 0),
            Xp.any(y, 1),
            Xp.min(x, 0));
    long s = 0;
    for (int i = 0; i < a.size(); i++) {
      s += a.getLong(i);
    }
    assertThat(got.get(0).dtype()).isEqualTo(DType.INT64);
    assertThat(got.get(0).getLong(0)).isEqualTo(s);
    for (int i = 0; i < 11; i++) {
      long p = 1;
      boolean any = false;
      for (int j = 0; j < 5; j++) {
        p *= a.getLong(i * 5 + j);
        any |= b.getBoolean(i * 5 + j);
      }
      assertThat(got.get(1).getLong(i)).isEqualTo(p);
      assertThat(got.get(3).getBoolean(i)).isEqualTo(any);
    }
    for (int j = 0; j < 5; j++) {
      boolean all = true;
      long mn = Long.MAX_VALUE;
      for (int i = 0; i < 11; i++) {
        all &= b.getBoolean(i * 5 + j);
        mn = Math.min(mn, a.getLong(i * 5 + j));
      }
      assertThat(got.get(2).getBoolean(j)).isEqualTo(all);
      assertThat(got.get(4).getLong(j)).isEqualTo(mn);
    }
  }

  @Test
  void multistageRechunkEqualsSource() {
    Spec spec = EngineTestSupport.tinySpec(dir, 60_000);
    NDArray a = EngineTestSupport.randomDoubles(8, 30, 1, 25, 25);
    MemoryStore store = new MemoryStore();
    ZarrArray src =
        ZarrArray.create(store, "src")
            .shape(a.shape())
            .chunks(1L, 1, 25, 25)
            .dtype(DType.FLOAT64)
            .build();
    src.write(new long[4], a);
    CubedArray x = Cubed.fromZarr(src, spec);
    CubedArray r = Xp.rechunk(x, 30, 1, 5, 5);
    PlanSummary p = r.plan();
    assertThat(p.ops().stream().filter(o -> o.kind().equals("rechunk")).count())
        .as(p.toString())
        .isGreaterThan(1);
    assertThat(p.maxProjectedMem()).isLessThanOrEqualTo(60_000);
    assertThat(r.chunkShape()).containsExactly(30, 1, 5, 5);
    NDAssert.assertExact(a, r.compute(), "rechunk");
    ZarrArray out = Cubed.toZarr(r, store, "dst");
    assertThat(out.chunks()).containsExactly(30, 1, 5, 5);
    NDAssert.assertExact(a, out.read(), "rechunk to zarr");
  }

  @Test
  void planTooBigThrowsBeforeRunning() {
    Spec spec = EngineTestSupport.tinySpec(dir, 10_000);
    NDArray a = EngineTestSupport.randomDoubles(9, 100, 100);
    CubedArray x = Cubed.fromArray(a, new long[] {50, 50}, spec);
    AtomicInteger runs = new AtomicInteger();
    CubedArray y =
        Xp.mapBlocks(
            bl -> {
              runs.incrementAndGet();
              return bl[0];
            },
            DType.FLOAT64,
            x);
    assertThatThrownBy(y::compute)
        .isInstanceOf(MemoryBudgetExceededException.class)
        .hasMessageContaining("map_blocks")
        .hasMessageContaining("allowedMem")
        .hasMessageContaining("reservedMem")
        .hasMessageContaining("smaller chunks");
    assertThat(runs.get()).isZero();
  }

  static final ConcurrentHashMap<String, AtomicInteger> FAILS = new ConcurrentHashMap<>();

  @Test
  void injectedFailureIsRetried() {
    Spec spec = EngineTestSupport.tinySpec(dir, 1_000_000);
    NDArray a = EngineTestSupport.randomDoubles(10, 8, 8);
    CubedArray x = Cubed.fromArray(a, new long[] {4, 4}, spec);
    AtomicInteger calls = new AtomicInteger();
    CubedArray y =
        Xp.mapBlocks(
            bl -> {
              if (calls.incrementAndGet() <= 2) {
                throw new IOException("injected");
              }
              return bl[0];
            },
            DType.FLOAT64,
            x);
    List<Events.TaskEnd> ends = new CopyOnWriteArrayList<>();
    Callback cb =
        new Callback() {
          @Override
          public void onTaskEnd(Events.TaskEnd e) {
            ends.add(e);
          }
        };
    NDArray got = y.compute(ComputeOptions.executor(new ThreadsExecutor(1, 3)).withCallback(cb));
    NDAssert.assertExact(a, got, "retried");
    assertThat(ends).hasSize(4);
    assertThat(ends.stream().mapToInt(Events.TaskEnd::attempts).max().getAsInt()).isEqualTo(3);
  }

  @Test
  void threeFailuresFailTheComputeWithCause() {
    Spec spec = EngineTestSupport.tinySpec(dir, 1_000_000);
    CubedArray x = Cubed.fromArray(EngineTestSupport.randomDoubles(11, 4, 4), (long[]) null, spec);
    CubedArray y =
        Xp.mapBlocks(
            bl -> {
              throw new IllegalStateException("always broken");
            },
            DType.FLOAT64,
            x);
    assertThatThrownBy(() -> y.compute(ComputeOptions.executor(new ThreadsExecutor(2, 3))))
        .isInstanceOf(TaskFailedException.class)
        .hasMessageContaining("3 attempt")
        .hasRootCauseMessage("always broken");
  }

  @Test
  void specParsesSizesFilesAndDefaults() throws Exception {
    assertThat(Spec.parseBytes("2GB")).isEqualTo(2_000_000_000L);
    assertThat(Spec.parseBytes("1.5 MiB")).isEqualTo(1_572_864L);
    assertThat(Spec.parseBytes("123")).isEqualTo(123L);
    assertThatThrownBy(() -> Spec.parseBytes("2 parsecs"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown unit");
    Spec d = Spec.defaults();
    assertThat(d.allowedMem()).isEqualTo(2_000_000_000L);
    assertThat(d.reservedMem()).isEqualTo(100_000_000L);
    Path yaml = dir.resolve("spec.yaml");
    Files.writeString(
        yaml, "spec:\n  work_dir: /tmp/x\n  allowed_mem: 500MB\n  reserved_mem: 10MB\n");
    Spec s = Spec.fromFile(yaml);
    if (System.getenv("CUBED_SPEC_ALLOWED_MEM") == null) {
      assertThat(s.allowedMem()).isEqualTo(500_000_000L);
      assertThat(s.reservedMem()).isEqualTo(10_000_000L);
    }
    Path props = dir.resolve("spec.properties");
    Files.writeString(props, "allowed_mem=1GB\n");
    assertThat(Spec.fromFile(props).allowedMem())
        .isIn(
            1_000_000_000L, System.getenv("CUBED_SPEC_ALLOWED_MEM") == null ? 1_000_000_000L : -1L);
    assertThatThrownBy(() -> Spec.builder().allowedMem(10).reservedMem(20).build())
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void virtualCreationAndRandomIndependentOfChunks() {
    Spec spec = EngineTestSupport.tinySpec(dir, 1_000_000);
    NDArray r1 = Cubed.random(new long[] {10, 7}, new long[] {3, 2}, 42, spec).compute();
    NDArray r2 = Cubed.random(new long[] {10, 7}, new long[] {10, 7}, 42, spec).compute();
    NDAssert.assertExact(r1, r2, "random");
    for (int i = 0; i < r1.size(); i++) {
      assertThat(r1.getDouble(i)).isBetween(0.0, 1.0);
    }
    NDArray ar = Xp.arange(0, 10, 1, DType.INT64, 3, spec).compute();
    assertThat(ar.getLong(9)).isEqualTo(9);
    NDArray e = Xp.eye(4, 5, 1, DType.FLOAT64, new long[] {3, 2}, spec).compute();
    assertThat(e.getDouble(1)).isEqualTo(1.0);
    assertThat(e.getDouble(0)).isEqualTo(0.0);
    NDArray ls = Xp.linspace(0, 1, 5, DType.FLOAT64, 2, spec).compute();
    assertThat(ls.getDouble(4)).isEqualTo(1.0);
    assertThat(ls.getDouble(1)).isEqualTo(0.25);
    NDArray z =
        Xp.add(
                Xp.ones(new long[] {5}, DType.FLOAT64, new long[] {2}, spec),
                Xp.zeros(new long[] {5}, DType.FLOAT64, new long[] {2}, spec))
            .compute();
    assertThat(z.getDouble(4)).isEqualTo(1.0);
    assertThat(Shapes.size(z.shape())).isEqualTo(5);
  }

  @Test
  void fusionKeepsElementwiseChainInOneOp() {
    Spec spec = EngineTestSupport.tinySpec(dir, 10_000_000);
    NDArray a = EngineTestSupport.randomDoubles(12, 20, 20);
    CubedArray x = Cubed.fromArray(a, new long[] {5, 5}, spec);
    CubedArray y = Xp.negative(Xp.add(Xp.multiply(x, x), x));
    PlanSummary p = y.plan();
    assertThat(p.ops()).hasSize(1);
    assertThat(p.ops().get(0).fused()).hasSize(2);
    NDArray got = y.compute();
    for (int i = 0; i < a.size(); i++) {
      double v = a.getDouble(i);
      assertThat(got.getDouble(i)).isEqualTo(-(v * v + v));
    }
  }
}
