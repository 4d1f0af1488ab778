package dev.cubed.nd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.GoldenCases.In;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ManipulationGoldenTest {

  static Index sl(Long start, Long stop, long step) {
    return Index.slice(start, stop, step);
  }

  static Map<String, Function<In, Object>> cases() {
    Map<String, Function<In, Object>> t = GoldenCases.table();
    t.put(
        "concat_ax0",
        i -> Manipulation.concat(new NDArray[] {i.x(), Indexing.get(i.y(), sl(null, 1L, 1))}, 0));
    t.put(
        "concat_axm1",
        i ->
            Manipulation.concat(
                new NDArray[] {i.x(), Indexing.get(i.y(), Index.ellipsis(), sl(null, 2L, 1))}, -1));
    t.put("concat_none", i -> Manipulation.concat(i.x(), Indexing.get(i.y(), Index.at(0))));
    t.put("concat_empty", i -> Manipulation.concat(new NDArray[] {i.e(), i.e(), i.e()}, 0));
    t.put("concat_0d_none", i -> Manipulation.concat(i.s(), i.s()));
    t.put("stack_0", i -> Manipulation.stack(new NDArray[] {i.x(), i.y()}, 0));
    t.put("stack_m1", i -> Manipulation.stack(new NDArray[] {i.x(), i.y()}, -1));
    t.put("stack_0d", i -> Manipulation.stack(new NDArray[] {i.s(), i.s(), i.s()}, 0));
    t.put("stack_empty", i -> Manipulation.stack(new NDArray[] {i.e(), i.e()}, 1));
    t.put("unstack_1", i -> Manipulation.unstack(i.x(), 1));
    t.put("reshape", i -> Manipulation.reshape(i.x(), 4, -1));
    t.put(
        "reshape_0d",
        i -> Manipulation.reshape(i.s(), new long[] {1, 1}, Manipulation.Copy.ALWAYS));
    t.put(
        "reshape_empty",
        i -> Manipulation.reshape(i.e(), new long[] {3, 0, 5}, Manipulation.Copy.NEVER));
    t.put("permute", i -> Manipulation.permuteDims(i.x(), 2, 0, 1));
    t.put("moveaxis_1", i -> Manipulation.moveaxis(i.x(), 0, -1));
    t.put("moveaxis_2", i -> Manipulation.moveaxis(i.x(), new int[] {0, 1}, new int[] {2, 0}));
    t.put("flip_all", i -> Manipulation.flip(i.x()));
    t.put("flip_02", i -> Manipulation.flip(i.x(), 0, 2));
    t.put("flip_0d", i -> Manipulation.flip(i.s()));
    t.put("flip_empty", i -> Manipulation.flip(i.e(), 0));
    t.put("roll_flat", i -> Manipulation.roll(i.x(), 5));
    t.put("roll_axes", i -> Manipulation.roll(i.x(), new long[] {1, -2}, new int[] {0, 2}));
    t.put("roll_repeat_axis", i -> Manipulation.roll(i.x(), new long[] {1, 2}, new int[] {1, 1}));
    t.put("roll_0d", i -> Manipulation.roll(i.s(), 3));
    t.put("roll_bcast_axis", i -> Manipulation.roll(i.x(), new long[] {1, 2}, new int[] {0}));
    t.put("roll_bcast_shift", i -> Manipulation.roll(i.x(), new long[] {-1}, new int[] {0, 2}));
    t.put(
        "squeeze", i -> Manipulation.squeeze(Indexing.get(i.x(), Index.all(), sl(null, 1L, 1)), 1));
    t.put("squeeze_0d", i -> Manipulation.squeeze(i.s().reshape(1, 1), 0, 1));
    t.put("expand", i -> Manipulation.expandDims(i.x(), 0, -1));
    t.put("expand_0d", i -> Manipulation.expandDims(i.s(), 0));
    t.put("repeat_scalar", i -> Manipulation.repeat(i.x(), new long[] {2}, 1));
    t.put("repeat_per", i -> Manipulation.repeat(i.x(), new long[] {1, 0, 2}, 1));
    t.put("repeat_flat", i -> Manipulation.repeat(i.x(), new long[] {2}));
    t.put("repeat_empty", i -> Manipulation.repeat(i.e(), new long[] {2}, 1));
    t.put("tile_4", i -> Manipulation.tile(i.x(), 2, 1, 1, 2));
    t.put("tile_1", i -> Manipulation.tile(i.x(), 2));
    t.put("tile_0d", i -> Manipulation.tile(i.s(), 2, 3));
    t.put(
        "broadcast_to",
        i ->
            Manipulation.broadcastTo(
                Indexing.get(i.x(), Index.all(), sl(null, 1L, 1)), 2, 2, 3, 4));
    t.put("broadcast_to_0d", i -> Manipulation.broadcastTo(i.s(), 2, 3));
    t.put(
        "broadcast_arrays",
        i ->
            Manipulation.broadcastArrays(
                Indexing.get(i.x(), Index.all(), sl(null, 1L, 1)),
                Indexing.get(i.y(), Index.at(0), Index.all(), sl(null, 1L, 1)),
                i.s()));
    return t;
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void goldenPerDtype(DType dt) {
    assertThat(GoldenCases.check("manipulation", dt, cases())).isGreaterThan(40);
  }

  @Test
  void mixedDtypeConcatPromotes() {
    Map<String, NDArray> g = GoldenCases.load("manipulation", "mixed");
    int n = 0;
    for (String k : g.keySet()) {
      if (k.endsWith("__concat")) {
        String p = k.substring(0, k.length() - "concat".length());
        NDArray got = Manipulation.concat(new NDArray[] {g.get(p + "a"), g.get(p + "b")}, 0);
        GoldenCases.same(g.get(k), got, k);
        n++;
      }
    }
    assertThat(n).isEqualTo(13 * 14 / 2);
  }
}
