package dev.cubed.bench.workload;

import dev.cubed.core.Core;
import dev.cubed.core.Reductions;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.ArrayNode;
import dev.cubed.primitive.BlockFunction;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.KeyFunction;
import dev.ludovic.netlib.blas.BLAS;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * matmul: sum(A @ B) for square n x n inputs with chunks (c, c), generated chunk by chunk. Until the
 * engine has a chunked matmul, the product is one blockwise op whose task for output block (i, j)
 * streams the pairs A(i, k), B(k, j) and accumulates their products (BLAS dgemm) into the block,
 * so no partial product is stored; the sum then fuses it into its first round.
 */
final class Matmul implements Workload {
  @Override
  public String name() {
    return "matmul";
  }

  @Override
  public Map<String, Long> params(String size) {
    return Workloads.pick(name(), size, Workloads.params("n", 2500, "c", 500),
        Workloads.params("n", 12000, "c", 2000));
  }

  @Override
  public Outcome run(Map<String, Long> p, BenchContext ctx) throws Exception {
    long n = p.get("n");
    long c = p.get("c");
    long[] shape = {n, n};
    long[] chunks = {c, c};
    ArrayNode a = Engine.generated("A", shape, chunks,
        (s, b) -> Inputs.aBlock(s[0], s[1], (int) b[0], (int) b[1]));
    ArrayNode b = Engine.generated("B", shape, chunks,
        (s, bs) -> Inputs.bBlock(s[0], s[1], (int) bs[0], (int) bs[1]));
    int nk = (int) ((n + c - 1) / c);
    KeyFunction keys = o -> {
      List<long[]> ka = new ArrayList<>();
      List<long[]> kb = new ArrayList<>();
      for (long k = 0; k < nk; k++) {
        ka.add(new long[] {o[0], k});
        kb.add(new long[] {k, o[1]});
      }
      return List.of(BlockKeys.stream(ka), BlockKeys.stream(kb));
    };
    BlockFunction product = (args, o) -> {
      @SuppressWarnings("unchecked")
      Iterator<NDArray> ia = (Iterator<NDArray>) args.get(0);
      @SuppressWarnings("unchecked")
      Iterator<NDArray> ib = (Iterator<NDArray>) args.get(1);
      NDArray out = null;
      while (ia.hasNext()) {
        NDArray x = ia.next();
        NDArray y = ib.next();
        int rows = (int) x.shape(0);
        int inner = (int) x.shape(1);
        int cols = (int) y.shape(1);
        if (out == null) {
          out = NDArray.zeros(DType.FLOAT64, rows, cols);
        }
        // row-major C += A B is column-major C^T += B^T A^T
        BLAS.getInstance().dgemm("N", "N", cols, rows, inner, 1.0, (double[]) y.data(), cols,
            (double[]) x.data(), inner, 1.0, (double[]) out.data(), cols);
      }
      return out;
    };
    ArrayNode prod = Core.blockwise(new Blockwise("matmul", keys, product, new int[] {1, 1},
        new int[] {nk, nk}, 0), shape, chunks, DType.FLOAT64, a, b);
    ArrayNode total = Reductions.reduce(prod, Reductions.Op.SUM, new int[] {0, 1}, false, 4, 0);
    Engine engine = new Engine(ctx);
    List<NDArray> r = engine.compute(total);
    Map<String, Object> sums = new LinkedHashMap<>();
    sums.put("sum", Checksums.sum(r.get(0)));
    return engine.outcome(sums);
  }
}
