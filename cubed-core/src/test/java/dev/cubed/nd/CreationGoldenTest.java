package dev.cubed.nd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.Creation.Endpoint;
import dev.cubed.nd.Creation.MeshIndexing;
import dev.cubed.nd.GoldenCases.In;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class CreationGoldenTest {

  static Map<String, Function<In, Object>> cases() {
    Map<String, Function<In, Object>> t = GoldenCases.table();
    t.put("tril_0", i -> Creation.tril(i.x(), 0));
    t.put("tril_m1", i -> Creation.tril(i.x(), -1));
    t.put("tril_2", i -> Creation.tril(i.x(), 2));
    t.put("triu_0", i -> Creation.triu(i.x(), 0));
    t.put("triu_1", i -> Creation.triu(i.x(), 1));
    t.put("triu_m2", i -> Creation.triu(i.x(), -2));
    t.put(
        "meshgrid_xy",
        i ->
            Creation.meshgrid(
                MeshIndexing.XY,
                Indexing.get(i.x(), Index.at(0), Index.at(0)),
                Indexing.get(i.y(), Index.at(1), Index.all(), Index.at(0)),
                Indexing.get(i.x(), Index.at(1), Index.at(1), Index.slice(null, 2L))));
    t.put(
        "meshgrid_ij",
        i ->
            Creation.meshgrid(
                MeshIndexing.IJ,
                Indexing.get(i.x(), Index.at(0), Index.at(0)),
                Indexing.get(i.y(), Index.at(1), Index.all(), Index.at(0))));
    t.put("zeros_like", i -> Creation.zerosLike(i.x(), null));
    t.put("ones_like", i -> Creation.onesLike(i.x(), null));
    t.put("full_like", i -> Creation.fullLike(i.x(), 1, null));
    t.put("eye_3_4_1", i -> Creation.eye(3, 4, 1, i.x().dtype()));
    t.put("eye_4_2_m1", i -> Creation.eye(4, 2, -1, i.x().dtype()));
    t.put("full_7", i -> Creation.full(new long[] {2, 2}, 7, i.x().dtype()));
    t.put("ones_empty", i -> Creation.ones(new long[] {0, 2}, i.x().dtype()));
    t.put("zeros_23", i -> Creation.zeros(new long[] {2, 3}, i.x().dtype()));
    t.put(
        "astype",
        i -> {
          Map<String, NDArray> r = GoldenCases.load("creation", "ranges");
          DType[] all = DType.values();
          NDArray[] out = new NDArray[all.length];
          for (int k = 0; k < all.length; k++) {
            out[k] = DataTypes.astype(r.get("astype_src_" + all[k].standardName()), i.x().dtype());
          }
          return out;
        });
    return t;
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void goldenPerDtype(DType dt) {
    assertThat(GoldenCases.check("creation", dt, cases())).isEqualTo(32);
  }

  @Test
  void arangeMatchesNumpy() {
    Map<String, NDArray> g = GoldenCases.load("creation", "ranges");
    Object[][] a = {
      {"arange_f64_a", 0.0, 1.0, 0.1, DType.FLOAT64},
      {"arange_f64_b", -3.3, 7.1, 0.7, DType.FLOAT64},
      {"arange_f64_c", 10.0, -2.0, -0.3, DType.FLOAT64},
      {"arange_f64_d", 1e16, 1e16 + 40, 3.0, DType.FLOAT64},
      {"arange_f32_a", 0.0, 1.0, 0.1, DType.FLOAT32},
      {"arange_f32_b", -3.3, 7.1, 0.7, DType.FLOAT32},
      {"arange_i64_a", 0.0, 5.0, 1.5, DType.INT64},
      {"arange_i32_a", -7.0, 9.0, 2.0, DType.INT32},
      {"arange_u8_a", 250.0, 262.0, 1.0, DType.UINT8},
      {"arange_i8_a", 5.0, -5.0, -3.0, DType.INT8},
      {"arange_empty", 5.0, 1.0, 1.0, null},
      {"arange_i16_a", -300.0, 300.0, 37.0, DType.INT16},
      {"arange_u16_a", 100.0, 65535.0, 9000.0, DType.UINT16},
      {"arange_u32_a", 4.0e9, 4.2e9, 3.0e7, DType.UINT32},
      {"arange_u64_a", 3.0, 100.0, 7.0, DType.UINT64},
    };
    for (Object[] c : a) {
      NDArray got = Creation.arange((double) c[1], (double) c[2], (double) c[3], (DType) c[4]);
      GoldenCases.same(g.get((String) c[0]), got, (String) c[0]);
    }
    GoldenCases.same(g.get("arange_int_10"), Creation.arange(10), "arange(10)");
    GoldenCases.same(g.get("arange_int_neg"), Creation.arange(10, -7, -3), "arange(10, -7, -3)");
  }

  @Test
  void linspaceMatchesNumpy() {
    Map<String, NDArray> g = GoldenCases.load("creation", "ranges");
    Object[][] a = {
      {"linspace_f64_a", 0.0, 1.0, 11L, DType.FLOAT64, Endpoint.INCLUDE},
      {"linspace_f64_b", -2.5, 7.3, 9L, DType.FLOAT64, Endpoint.EXCLUDE},
      {"linspace_f64_c", 1e-300, 3e-300, 5L, DType.FLOAT64, Endpoint.INCLUDE},
      {"linspace_f64_one", 3.0, 5.0, 1L, DType.FLOAT64, Endpoint.INCLUDE},
      {"linspace_f64_zero", 3.0, 5.0, 0L, DType.FLOAT64, Endpoint.INCLUDE},
      {"linspace_f32_a", 0.1, 0.9, 13L, DType.FLOAT32, Endpoint.INCLUDE},
      {"linspace_f32_b", -1.0, 1.0, 7L, DType.FLOAT32, Endpoint.EXCLUDE},
      {
        "linspace_c128_a",
        Complex.of(1, 2),
        Complex.of(-3, 0.5),
        7L,
        DType.COMPLEX128,
        Endpoint.INCLUDE
      },
      {
        "linspace_c64_a",
        Complex.of(0.3, -1),
        Complex.of(2.2, 3),
        6L,
        DType.COMPLEX64,
        Endpoint.EXCLUDE
      },
      {"linspace_c128_real", 0.0, 1.0, 11L, DType.COMPLEX128, Endpoint.INCLUDE},
    };
    for (Object[] c : a) {
      NDArray got = Creation.linspace(c[1], c[2], (long) c[3], (DType) c[4], (Endpoint) c[5]);
      GoldenCases.same(g.get((String) c[0]), got, (String) c[0]);
    }
  }
}
