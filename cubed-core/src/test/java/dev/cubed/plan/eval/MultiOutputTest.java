package dev.cubed.plan.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cubed.core.Core;
import dev.cubed.core.Reductions;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.elementwise.Elementwise;
import dev.cubed.plan.Plan;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.PlanConfig;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.runtime.ThreadsExecutor;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.MemoryStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Multi-output ops ({@link MultiOutput}): reductions that share an input read or generate each of
 * its blocks once, the op's projected memory holds its sources once plus every member, and the
 * results equal plain loops over the whole arrays. Seeded shapes.
 */
class MultiOutputTest {
  private static final AtomicInteger GENERATED = new AtomicInteger();

  @TempDir Path dir;

  private PlanConfig cfg(long allowed) {
    return PlanConfig.builder(dir).memory(allowed, 1000).copies(1, 1).build();
  }

  private static double a(long i, long j) {
    return Math.sin(0.7 * i + 1.3 * j) + 0.01 * ((i * 31 + j * 17) % 13);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void twoReductionsOfAGeneratedInputGenerateEachBlockOnce(int seed) {
    Random r = new Random(seed);
    int n = 30 + r.nextInt(16);
    int m = 25 + r.nextInt(16);
    int c = 8 + r.nextInt(3);
    ArrayNode a =
        new ArrayNode.Virtual(
            "gen" + seed,
            new long[] {n, m},
            new long[] {c, c},
            DType.FLOAT64,
            (coords, bs) -> {
              GENERATED.incrementAndGet();
              NDArray b = NDArray.zeros(DType.FLOAT64, bs);
              for (int i = 0; i < bs[0]; i++) {
                for (int j = 0; j < bs[1]; j++) {
                  b.setDouble((int) (i * bs[1] + j), a(coords[0] * c + i, coords[1] * c + j));
                }
              }
              return b;
            });
    ArrayNode mean = Reductions.reduce(a, Reductions.Op.MEAN, new int[] {0}, false, 2, 0);
    ArrayNode argmax = Reductions.reduce(a, Reductions.Op.ARGMAX, new int[] {1}, false, 2, 0);
    Plan p = Plan.of(List.of(mean, argmax), cfg(100_000_000L));
    PlanSummary.OpInfo multi =
        p.summary().ops().stream()
            .filter(o -> o.name().contains("+"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no multi-output op: " + p.summary().ops()));
    long blocks = (long) ((n + c - 1) / c) * ((m + c - 1) / c);
    assertEquals(blocks, multi.tasks());
    p.checkMemory();
    // the plan picture draws the multi-output op in its first member's cluster
    assertTrue(p.dot().contains("op " + multi.name().split("\\+")[0]), p.dot());
    GENERATED.set(0);
    List<NDArray> res = p.execute(new ThreadsExecutor(2, 1), List.of());
    assertEquals(blocks, GENERATED.get(), "each block of A generated once");
    for (int j = 0; j < m; j++) {
      double s = 0;
      for (int i = 0; i < n; i++) {
        s += a(i, j);
      }
      assertEquals(s / n, res.get(0).getDouble(j), 1e-12);
    }
    for (int i = 0; i < n; i++) {
      int best = 0;
      for (int j = 1; j < m; j++) {
        if (a(i, j) > a(i, best)) {
          best = j;
        }
      }
      assertEquals(best, res.get(1).getLong(i));
    }
  }

  private static ZarrArray stored(String name, int t, int y, int x, boolean cos) {
    return stored(name, t, 4, y, x, cos);
  }

  private static ZarrArray stored(String name, int t, int tc, int y, int x, boolean cos) {
    ZarrArray z =
        ZarrArray.create(new MemoryStore(), name)
            .shape(t, 1, y, x)
            .chunks(tc, 1, y, x)
            .dtype(DType.FLOAT64)
            .build();
    NDArray all = NDArray.zeros(DType.FLOAT64, new long[] {t, 1, y, x});
    for (int k = 0; k < t * y * x; k++) {
      all.setDouble(k, cos ? Math.cos(0.3 * k) : Math.sin(0.7 * k));
    }
    z.write(new long[4], all);
    return z;
  }

  private static ArrayNode meanOfProduct(ArrayNode a, ArrayNode b) {
    ArrayNode prod =
        Core.elemwise("multiply", bl -> Elementwise.multiply(bl[0], bl[1]), DType.FLOAT64, a, b);
    return Reductions.reduce(prod, Reductions.Op.MEAN, new int[] {0}, false, 2, 0);
  }

  @Test
  void storedInputsAreNotGroupedWhenTheSavingIsBelowFourTimesTheWrites() {
    // time blocks of 4: the second reads of U and V (2 x 640 B per block) do not pay for writing
    // and reading back three mean states per block, which the ungrouped plan fuses away
    ArrayNode u = new ArrayNode.Stored(stored("U", 16, 4, 4, 5, false));
    ArrayNode v = new ArrayNode.Stored(stored("V", 16, 4, 4, 5, true));
    Plan p =
        Plan.of(
            List.of(meanOfProduct(u, u), meanOfProduct(v, v), meanOfProduct(u, v)),
            cfg(100_000_000L));
    assertFalse(
        p.summary().ops().stream().anyMatch(o -> o.name().contains("+")),
        p.summary().ops().toString());
  }

  @ParameterizedTest
  @ValueSource(ints = {32, 44})
  void threeMeansOfTwoStoredInputsShareOneOpWhenItFits(int t) throws Exception {
    // time blocks of 16: the saved reads (2 x 2560 B per block) exceed four times the states
    ZarrArray uz = stored("U", t, 16, 4, 5, false);
    ZarrArray vz = stored("V", t, 16, 4, 5, true);
    ArrayNode u = new ArrayNode.Stored(uz);
    ArrayNode v = new ArrayNode.Stored(vz);
    List<ArrayNode> outs = List.of(meanOfProduct(u, u), meanOfProduct(v, v), meanOfProduct(u, v));
    Plan p = Plan.of(outs, cfg(100_000_000L));
    PlanSummary.OpInfo multi =
        p.summary().ops().stream()
            .filter(o -> o.name().contains("+"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no multi-output op"));
    assertTrue(multi.name().endsWith("+2"), multi.name()); // three members
    long block = 16 * 4 * 5 * 8;
    // reservedMem + U and V blocks and one read copy (reads run one at a time) + at least each
    // member's product block
    assertTrue(multi.projectedMem() >= 1000 + 3 * block + 3 * block, multi.toString());
    List<NDArray> got = p.execute(new ThreadsExecutor(2, 1), List.of());
    NDArray ua = uz.read();
    NDArray va = vz.read();
    NDArray[][] pairs = {{ua, ua}, {va, va}, {ua, va}};
    for (int k = 0; k < 3; k++) {
      for (int yx = 0; yx < 20; yx++) {
        double s = 0;
        for (int i = 0; i < t; i++) {
          int at = i * 20 + yx;
          s += pairs[k][0].getDouble(at) * pairs[k][1].getDouble(at);
        }
        assertEquals(s / t, got.get(k).getDouble(yx), 1e-12);
      }
    }
    // an allowedMem one byte below the multi-output op's projection: no such op, same results
    Plan q = Plan.of(outs, cfg(multi.projectedMem() - 1));
    assertFalse(
        q.summary().ops().stream().anyMatch(o -> o.name().contains("+")),
        q.summary().ops().toString());
    assertTrue(q.summary().maxProjectedMem() <= multi.projectedMem() - 1);
    List<NDArray> again = q.execute(new ThreadsExecutor(2, 1), List.of());
    for (int k = 0; k < 3; k++) {
      assertTrue(got.get(k).equals(again.get(k)) || closeAll(got.get(k), again.get(k)));
    }
  }

  private static boolean closeAll(NDArray x, NDArray y) {
    for (int yx = 0; yx < 20; yx++) {
      if (Math.abs(x.getDouble(yx) - y.getDouble(yx)) > 1e-12) {
        return false;
      }
    }
    return true;
  }
}
