package dev.cubed.nd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.GoldenCases.In;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class IndexingGoldenTest {

  static Index sl(Long start, Long stop, long step) {
    return Index.slice(start, stop, step);
  }

  static NDArray maskFull() {
    boolean[] m = new boolean[24];
    for (int i = 0; i < 24; i++) {
      m[i] = i % 3 == 1;
    }
    return NDArray.of(m, 2, 3, 4);
  }

  static NDArray maskLead() {
    return NDArray.of(new boolean[] {true, false, true, false, false, true}, 2, 3);
  }

  static Map<String, Function<In, Object>> cases() {
    Map<String, Function<In, Object>> t = GoldenCases.table();
    t.put("get_1", i -> Indexing.get(i.x(), Index.at(1)));
    t.put("get_int3", i -> Indexing.get(i.x(), Index.at(1), Index.at(2), Index.at(3)));
    t.put("get_slices", i -> Indexing.get(i.x(), Index.all(), sl(null, null, -2), sl(1L, 3L, 1)));
    t.put(
        "get_newaxis_ellipsis",
        i -> Indexing.get(i.x(), Index.ellipsis(), Index.newAxis(), Index.at(-1)));
    t.put(
        "get_mixed",
        i ->
            Indexing.get(i.x(), Index.newAxis(), Index.at(0), Index.ellipsis(), sl(null, null, 3)));
    t.put("get_neg_steps", i -> Indexing.get(i.x(), sl(-1L, -3L, -1), sl(5L, 0L, -2)));
    t.put("get_empty", i -> Indexing.get(i.x(), Index.all(), sl(10L, 20L, 1)));
    t.put("get_0d_ellipsis", i -> Indexing.get(i.s(), Index.ellipsis()));
    t.put("get_0d_newaxis", i -> Indexing.get(i.s(), Index.newAxis()));
    t.put("take_1", i -> Indexing.take(i.x(), NDArray.of(new long[] {2, -1, 0, 0}), 1));
    t.put("take_2d", i -> Indexing.take(i.x(), NDArray.of(new int[] {0, 1, 1, 0}, 2, 2), 0));
    t.put("take_empty", i -> Indexing.take(i.x(), NDArray.of(new long[0], 0), 2));
    t.put(
        "take_along_1",
        i ->
            Indexing.takeAlongAxis(
                i.x(), NDArray.of(new long[] {2, 0, 1, 1, 0, 0, 2, -1}, 2, 1, 4), 1));
    t.put(
        "take_along_2",
        i -> Indexing.takeAlongAxis(i.x(), NDArray.of(new long[] {3, 0, 1, 1}, 2, 1, 2), 2));
    t.put("mask_full", i -> Indexing.getMask(i.x(), maskFull()));
    t.put("mask_lead", i -> Indexing.getMask(i.x(), maskLead()));
    t.put("mask_0d", i -> Indexing.getMask(i.s(), NDArray.scalar(true)));
    t.put(
        "set_slices",
        i -> {
          NDArray a = i.x().copy();
          Indexing.set(
              a,
              new Index[] {Index.all(), sl(null, null, -2)},
              Indexing.get(i.y(), Index.at(0), sl(null, 2L, 1), Index.all()));
          return a;
        });
    t.put(
        "set_scalar_from_array",
        i -> {
          NDArray a = i.x().copy();
          Indexing.set(
              a,
              new Index[] {Index.at(1), Index.ellipsis(), Index.newAxis(), Index.at(2)},
              i.y().get(0, 0, 0));
          return a;
        });
    t.put(
        "set_mask",
        i -> {
          NDArray a = i.x().copy();
          Indexing.setMask(a, maskLead(), Indexing.get(i.y(), Index.at(1), Index.at(1)));
          return a;
        });
    t.put(
        "set_mask_full",
        i -> {
          NDArray a = i.x().copy();
          Indexing.setMask(a, maskFull(), Indexing.getMask(i.y(), maskFull()));
          return a;
        });
    return t;
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void goldenPerDtype(DType dt) {
    assertThat(GoldenCases.check("indexing", dt, cases())).isEqualTo(21);
  }
}
