package dev.cubed.nd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DataTypesGoldenTest {
  private static final Map<String, NDArray> G = GoldenCases.load("data_types", "tables");
  private static final DType[] ALL = DType.values();
  private static final String[] KINDS = {
    "bool",
    "signed integer",
    "unsigned integer",
    "integral",
    "real floating",
    "complex floating",
    "numeric"
  };

  @Test
  void canCastMatchesNumpySafeCasting() {
    NDArray t = G.get("can_cast");
    for (int i = 0; i < ALL.length; i++) {
      for (int j = 0; j < ALL.length; j++) {
        assertThat(DataTypes.canCast(ALL[i], ALL[j]))
            .as(ALL[i] + " -> " + ALL[j])
            .isEqualTo(t.getBoolean(i * ALL.length + j));
      }
    }
  }

  @Test
  void resultTypeMatchesNumpy() {
    NDArray t = G.get("result_type");
    for (int i = 0; i < ALL.length; i++) {
      for (int j = 0; j < ALL.length; j++) {
        DType want = ALL[(int) t.getLong(i * ALL.length + j)];
        assertThat(DataTypes.resultType(ALL[i], NDArray.zeros(ALL[j], 2)))
            .as(ALL[i] + " with " + ALL[j])
            .isEqualTo(want);
      }
    }
  }

  @Test
  void resultTypeWithScalarsFollowsTheStandard() {
    assertThat(DataTypes.resultType(DType.INT8, 300L)).isEqualTo(DType.INT8);
    assertThat(DataTypes.resultType(DType.FLOAT32, 1.5)).isEqualTo(DType.FLOAT32);
    assertThat(DataTypes.resultType(DType.FLOAT32, Complex.of(1, 1))).isEqualTo(DType.COMPLEX64);
    assertThat(DataTypes.resultType(DType.INT16, DType.UINT8, true)).isEqualTo(DType.INT16);
    assertThatThrownBy(() -> DataTypes.resultType(1, 2.0))
        .hasMessageContaining("result_type")
        .hasMessageContaining("at least one array or dtype");
  }

  @Test
  void isdtypeMatchesNumpy() {
    NDArray t = G.get("isdtype");
    for (int i = 0; i < ALL.length; i++) {
      for (int j = 0; j < KINDS.length; j++) {
        assertThat(DataTypes.isdtype(ALL[i], KINDS[j]))
            .as(ALL[i] + " is " + KINDS[j])
            .isEqualTo(t.getBoolean(i * KINDS.length + j));
      }
      assertThat(DataTypes.isdtype(ALL[i], ALL[i])).isTrue();
      assertThat(DataTypes.isdtype(ALL[i], DType.BOOL, "numeric")).isEqualTo(true);
    }
    assertThat(DataTypes.isdtype(DType.INT8, "bool", DType.UINT8)).isFalse();
    assertThatThrownBy(() -> DataTypes.isdtype(DType.INT8, "integer"))
        .hasMessageContaining("isdtype")
        .hasMessageContaining("unknown kind \"integer\"");
  }

  @Test
  void finfoAndIinfoMatchNumpy() {
    NDArray f = G.get("finfo");
    DType[] fl = {DType.FLOAT32, DType.FLOAT64, DType.COMPLEX64, DType.COMPLEX128};
    for (int i = 0; i < fl.length; i++) {
      DType.FInfo fi = DataTypes.finfo(fl[i]);
      assertThat(fi.eps()).as(fl[i] + " eps").isEqualTo(f.getDouble(i * 5));
      assertThat(fi.max()).as(fl[i] + " max").isEqualTo(f.getDouble(i * 5 + 1));
      assertThat(fi.min()).as(fl[i] + " min").isEqualTo(f.getDouble(i * 5 + 2));
      assertThat(fi.smallestNormal()).isEqualTo(f.getDouble(i * 5 + 3));
      assertThat((double) fi.bits()).isEqualTo(f.getDouble(i * 5 + 4));
    }
    int k = 0;
    for (DType d : ALL) {
      if (!d.isInteger()) {
        assertThatThrownBy(() -> DataTypes.iinfo(d)).hasMessageContaining("iinfo");
        continue;
      }
      DType.IInfo ii = DataTypes.iinfo(NDArray.zeros(d, 1));
      assertThat(ii.min())
          .as(d + " min")
          .isEqualTo(BigInteger.valueOf(G.get("iinfo_min").getLong(k)));
      assertThat(ii.max())
          .as(d + " max")
          .isEqualTo(new BigInteger(Long.toUnsignedString(G.get("iinfo_max").getLong(k))));
      assertThat((long) ii.bits()).isEqualTo(G.get("iinfo_bits").getLong(k));
      k++;
    }
    assertThatThrownBy(() -> DataTypes.finfo(DType.INT32)).hasMessageContaining("finfo");
  }

  @Test
  void astypeCopyPolicy() {
    NDArray x = NDArray.of(new double[] {1.5, -2.5});
    assertThat(DataTypes.astype(x, DType.FLOAT64, Manipulation.Copy.IF_NEEDED)).isSameAs(x);
    assertThat(DataTypes.astype(x, DType.FLOAT64, Manipulation.Copy.ALWAYS))
        .isNotSameAs(x)
        .isEqualTo(x);
    assertThat(DataTypes.astype(x, DType.INT32)).isEqualTo(NDArray.of(new int[] {1, -2}));
    assertThatThrownBy(() -> DataTypes.astype(x, DType.INT32, Manipulation.Copy.NEVER))
        .hasMessageContaining("astype")
        .hasMessageContaining("needs a copy");
  }
}
