package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.runtime.ThreadsExecutor;
import dev.cubed.runtime.processes.ProcessesExecutor;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The public block generators ({@link Cubed#fromFunction} with a {@link BlockFunction} or a {@link
 * FillFunction}) and the plan figures ({@link Cubed#summary}).
 */
class FromFunctionTest {
  @TempDir Path dir;

  /** Boxes the fill function of {@link #fills} was asked for, as "start/shape". */
  static final Set<String> BOXES = ConcurrentHashMap.newKeySet();

  private Spec spec() {
    return Spec.builder()
        .workDir(dir.resolve("w"))
        .allowedMem(100_000_000L)
        .reservedMem(10_000_000L)
        .workers(2)
        .build();
  }

  /** x[i, j] = 1000 i + j, from global indices only. */
  static double value(long i, long j) {
    return 1000.0 * i + j;
  }

  /** A fill function of value(i, j) recording its boxes. */
  static final FillFunction FILL =
      (start, shape, dst, at) -> {
        BOXES.add(start[0] + "," + start[1] + "/" + shape[0] + "," + shape[1]);
        double[] d = (double[]) dst;
        int k = at;
        for (long i = 0; i < shape[0]; i++) {
          for (long j = 0; j < shape[1]; j++) {
            d[k++] = value(start[0] + i, start[1] + j);
          }
        }
      };

  private static NDArray expected(long rows, long cols) {
    double[] d = new double[(int) (rows * cols)];
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < cols; j++) {
        d[(int) (i * cols + j)] = value(i, j);
      }
    }
    return new NDArray(DType.FLOAT64, new long[] {rows, cols}, d);
  }

  @Test
  void blockFunctionGetsEachBlocksIndexStartAndClippedShape() {
    long[] chunks = {4, 3};
    // each element encodes the index and shape its block was made for; start is checked
    BlockFunction f =
        (index, start, shape) -> {
          if (start[0] != index[0] * 4 || start[1] != index[1] * 3) {
            throw new IllegalStateException(
                "start " + start[0] + "," + start[1] + " of block " + index[0] + "," + index[1]);
          }
          return NDArray.full(
              DType.FLOAT64, index[0] * 1000 + index[1] * 100 + shape[0] * 10 + shape[1], shape);
        };
    NDArray got =
        Cubed.fromFunction(new long[] {10, 7}, chunks, DType.FLOAT64, f, spec()).compute();
    assertThat(got.shape()).containsExactly(10, 7);
    for (int i = 0; i < 10; i++) {
      for (int j = 0; j < 7; j++) {
        long bi = i / 4;
        long bj = j / 3;
        long rows = Math.min(4, 10 - bi * 4);
        long cols = Math.min(3, 7 - bj * 3);
        assertThat(got.getDouble(i * 7 + j))
            .as("element %d,%d", i, j)
            .isEqualTo(bi * 1000 + bj * 100 + rows * 10 + cols);
      }
    }
  }

  @Test
  void blockFunctionOfTheWrongShapeIsRefusedNamingTheBlock() {
    BlockFunction f = (index, start, shape) -> NDArray.zeros(DType.FLOAT64, 4, 3);
    CubedArray x =
        Cubed.fromFunction(new long[] {10, 7}, new long[] {4, 3}, DType.FLOAT64, f, spec());
    assertThatThrownBy(() -> x.compute(ComputeOptions.executor(new ThreadsExecutor(1, 1))))
        .hasStackTraceContaining("the block function gave float64 of shape [4, 3] for block")
        .hasStackTraceContaining("(the block's shape)");
  }

  @Test
  void fillFunctionMakesWholeBlocksAndRegionsEqualToTheBlocksSlices() {
    long[] chunks = {4, 3};
    ArrayNode.Virtual v =
        (ArrayNode.Virtual)
            Cubed.fromFunction(new long[] {10, 7}, chunks, DType.FLOAT64, FILL, spec()).node();
    ArrayNode.RegionGenerator g = (ArrayNode.RegionGenerator) v.generator();
    long[] edge = {2, 2};
    long[] edgeShape = {2, 1};
    NDArray block = g.generate(edge, edgeShape);
    assertThat(block.getDouble(1)).isEqualTo(value(9, 6));
    long[] inner = {1, 1};
    NDArray whole = g.generate(inner, new long[] {4, 3});
    NDArray region = g.region(inner, new long[] {4, 3}, new long[] {1, 1}, new long[] {2, 2});
    NDAssertLite.same(whole.getRegion(new long[] {1, 1}, new long[] {2, 2}), region);
    double[] buf = new double[7];
    g.regionInto(
        inner, new long[] {4, 3}, new long[] {1, 1}, new long[] {2, 2}, DType.FLOAT64, buf, 3);
    assertThat(buf).containsExactly(0, 0, 0, value(5, 4), value(5, 5), value(6, 4), value(6, 5));
  }

  @Test
  void aChainWrittenToZarrAndARechunkAskTheFillFunctionForPartsOfBlocksWithRightValues()
      throws Exception {
    BOXES.clear();
    Spec s = spec();
    // blocks of 480 kB: the engine works in tiles of 256 KiB (chains written a run at a time)
    CubedArray x =
        Cubed.fromFunction(new long[] {400, 300}, new long[] {200, 300}, DType.FLOAT64, FILL, s);
    NDAssertLite.same(expected(400, 300), x.rechunk(80, 300).compute());
    ZarrArray z = Cubed.toZarr(Xp.multiply(Xp.add(x, x), 0.5), new FileSystemStore(dir), "c");
    NDAssertLite.same(expected(400, 300), z.read());
    assertThat(BOXES).as("boxes asked for").anyMatch(b -> !b.endsWith("/200,300"));
  }

  @Test
  void bothFormsRunOnWorkerProcesses() {
    Spec s = spec();
    BlockFunction f =
        (index, start, shape) -> {
          NDArray b = NDArray.empty(DType.FLOAT64, shape);
          double[] d = (double[]) b.data();
          for (int i = 0; i < shape[0]; i++) {
            for (int j = 0; j < shape[1]; j++) {
              d[(int) (i * shape[1] + j)] = value(start[0] + i, start[1] + j);
            }
          }
          return b;
        };
    CubedArray a = Cubed.fromFunction(new long[] {30, 20}, new long[] {7, 6}, DType.FLOAT64, f, s);
    CubedArray b =
        Cubed.fromFunction(new long[] {30, 20}, new long[] {7, 6}, DType.FLOAT64, FILL, s);
    ProcessesExecutor p =
        ProcessesExecutor.builder()
            .workers(2)
            .allowedMem(s.allowedMem())
            .reservedMem(s.reservedMem())
            .build();
    List<NDArray> got = Cubed.compute(ComputeOptions.executor(p), Xp.sum(a, 0), Xp.sum(b, 0));
    NDArray want = Xp.sum(Cubed.asarray(expected(30, 20), s), 0).compute();
    NDAssertLite.same(want, got.get(0));
    NDAssertLite.same(want, got.get(1));
  }

  @Test
  void summaryGivesThePlansFiguresWithoutRunningIt() {
    BOXES.clear();
    Spec s = spec();
    CubedArray x =
        Cubed.fromFunction(new long[] {40, 30}, new long[] {20, 30}, DType.FLOAT64, FILL, s);
    PlanFigures f = Cubed.summary(List.of(Xp.sum(x, Axes.all(), 2), Xp.mean(x, 0)));
    assertThat(BOXES).as("nothing ran").isEmpty();
    assertThat(f.tasks()).isGreaterThanOrEqualTo(2);
    assertThat(f.ops()).isGreaterThanOrEqualTo(1);
    assertThat(f.largestChunkBytes()).isEqualTo(20 * 30 * 8);
    assertThat(f.maxProjectedMem()).isPositive().isLessThanOrEqualTo(s.allowedMem());
    assertThat(f.reservedMem()).isEqualTo(10_000_000L);
    PlanFigures unfused = Cubed.summary(List.of(Xp.sum(Xp.add(x, x), 0)));
    Spec noFusion = s.toBuilder().maxInputBlocks(0).build();
    CubedArray y =
        Cubed.fromFunction(new long[] {40, 30}, new long[] {20, 30}, DType.FLOAT64, FILL, noFusion);
    PlanFigures written = Cubed.summary(List.of(Xp.sum(Xp.add(y, y), 0)));
    assertThat(written.intermediateBytes())
        .as("fusion off writes x + x")
        .isGreaterThan(unfused.intermediateBytes());
  }

  @Test
  void computesPassTheFiguresOfTheirOnePlanToTheSink() throws Exception {
    Spec s = spec();
    CubedArray x =
        Cubed.fromFunction(new long[] {40, 30}, new long[] {20, 30}, DType.FLOAT64, FILL, s);
    List<PlanFigures> seen = new CopyOnWriteArrayList<>();
    ComputeOptions o =
        ComputeOptions.executor(new ThreadsExecutor(2, 1)).withPlanFigures(seen::add);
    CubedArray m = Xp.mean(x, 0);
    CubedArray t = Xp.sum(x, Axes.all(), 2);
    PlanFigures want = Cubed.summary(List.of(m, t));
    Cubed.compute(o, m, t);
    assertThat(seen).containsExactly(want);
    Cubed.store(
        List.of(Xp.add(x, x)),
        List.of(
            ZarrArray.create(new FileSystemStore(dir), "s")
                .shape(40, 30)
                .chunks(20, 30)
                .dtype(DType.FLOAT64)
                .build()),
        o);
    assertThat(seen).hasSize(2);
    assertThat(seen.get(1).tasks()).isEqualTo(2);
    assertThat(o.resume().withExecutor(null).withResume(false))
        .as("copies keep the sink")
        .satisfies(
            c -> {
              Cubed.compute(c, m);
              assertThat(seen).hasSize(3);
            });
  }

  /** Exact comparison of two float64 arrays. */
  static final class NDAssertLite {
    static void same(NDArray want, NDArray got) {
      assertThat(got.shape()).containsExactly(want.shape());
      assertThat((double[]) got.data()).containsExactly((double[]) want.data());
    }
  }
}
