package dev.cubed.nd;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Seeded random basic indices checked against a per-element reference. */
class IndexingRandomTest {

  private static Long bound(Random r, long n) {
    return r.nextInt(4) == 0 ? null : (long) (r.nextInt((int) (2 * n + 5)) - n - 2);
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
  void getAndSetAgreeWithReference(long seed) {
    Random r = new Random(seed);
    for (int trial = 0; trial < 50; trial++) {
      int nd = r.nextInt(4);
      long[] shape = new long[nd];
      for (int k = 0; k < nd; k++) {
        shape[k] = r.nextInt(5);
      }
      DType dt = DType.values()[r.nextInt(DType.values().length)];
      NDArray x = NDArray.arange(0, Shapes.size(shape), 1, DType.INT64).reshape(shape).astype(dt);
      List<Index> idx = new ArrayList<>();
      List<long[]> sel = new ArrayList<>(); // per axis: selected positions, null for an int
      for (int k = 0; k < nd; k++) {
        int kind = r.nextInt(5);
        if (kind == 0 && shape[k] > 0) {
          long i = r.nextInt((int) shape[k]);
          long given = r.nextBoolean() ? i : i - shape[k];
          idx.add(Index.at(given));
          sel.add(new long[] {i});
        } else {
          long step = (r.nextInt(3) + 1) * (r.nextBoolean() ? 1 : -1);
          Index.Slice s = new Index.Slice(bound(r, shape[k]), bound(r, shape[k]), step);
          long[] res = s.resolve(shape[k]);
          long[] p = new long[(int) res[2]];
          for (int i = 0; i < p.length; i++) {
            p[i] = res[0] + i * res[1];
          }
          idx.add(s);
          sel.add(p);
          if (kind == 1) {
            idx.add(Index.newAxis());
          }
        }
      }
      if (r.nextBoolean()) {
        idx.add(r.nextInt(idx.size() + 1), Index.newAxis());
      }
      if (r.nextBoolean()) {
        // every axis is already indexed, so the ellipsis stands for no axes wherever it is
        idx.add(r.nextInt(idx.size() + 1), Index.ellipsis());
      }
      Index[] index = idx.toArray(new Index[0]);
      NDArray got = Indexing.get(x, index);
      // reference: walk the cartesian product of selections in C order
      int count = 1;
      for (long[] p : sel) {
        count *= p.length;
      }
      assertThat(got.size()).isEqualTo(count);
      long[] mi = new long[nd];
      int[] ctr = new int[nd];
      for (int j = 0; j < count; j++) {
        for (int k = 0; k < nd; k++) {
          mi[k] = sel.get(k)[ctr[k]];
        }
        assertThat(got.getObject(j))
            .as("seed %d trial %d elem %d", seed, trial, j)
            .isEqualTo(x.get(mi));
        for (int k = nd - 1; k >= 0; k--) {
          if (++ctr[k] < sel.get(k).length) {
            break;
          }
          ctr[k] = 0;
        }
      }
      // set writes exactly the selected elements
      NDArray y = NDArray.zeros(dt, shape);
      Indexing.set(y, index, got);
      NDArray back = Indexing.get(y, index);
      assertThat(back).isEqualTo(got);
    }
  }
}
