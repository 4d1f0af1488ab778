package dev.cubed.nd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.ByteOrder;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class NDArrayCoreTest {

  private static NDArray random(DType dt, long seed, long... shape) {
    Random r = new Random(seed);
    NDArray a = NDArray.zeros(dt, shape);
    for (int i = 0; i < a.size(); i++) {
      a.setComplex(i, r.nextInt(200) - 100 + r.nextDouble(), r.nextGaussian());
      if (dt.isInteger()) {
        a.setLong(i, r.nextLong());
      }
    }
    return a;
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void bytesRoundTripBothOrders(DType dt) {
    NDArray a = random(dt, 7, 3, 4);
    for (ByteOrder o : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
      byte[] b = a.toBytes(o);
      assertThat(b).hasSize(12 * dt.itemSize());
      assertThat(NDArray.fromBytes(dt, new long[] {3, 4}, b, o)).isEqualTo(a);
    }
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void npyRoundTrip(DType dt) throws Exception {
    NDArray a = random(dt, 11, 2, 3, 5);
    NDArray back = Npy.read(new ByteArrayInputStream(Npy.toBytes(a)), "mem");
    assertThat(back).isEqualTo(a);
  }

  @Test
  void regionsAndPermute() {
    NDArray a = NDArray.arange(0, 24, 1, DType.INT32).reshape(2, 3, 4);
    NDArray r = a.getRegion(new long[] {1, 1, 1}, new long[] {1, 2, 2});
    assertThat((int[]) r.data()).containsExactly(17, 18, 21, 22);
    NDArray t = a.permuteDims(2, 0, 1);
    assertThat(t.shape()).containsExactly(4, 2, 3);
    assertThat(t.get(3, 1, 2)).isEqualTo(a.get(1, 2, 3));
    NDArray z = NDArray.zeros(DType.INT32, 2, 3, 4);
    z.setRegion(new long[] {1, 1, 1}, r);
    assertThat(z.get(1, 2, 2)).isEqualTo(22);
    assertThatThrownBy(() -> a.getRegion(new long[] {1, 2, 0}, new long[] {1, 2, 1}))
        .hasMessageContaining("outside the array of shape (2, 3, 4)");
  }

  /** Every box of a 3x4x5 array, one run of elements or not, is the same box element by element. */
  @ParameterizedTest
  @EnumSource(
      value = DType.class,
      names = {"FLOAT64", "INT8", "BOOL", "COMPLEX128", "FLOAT32"})
  void everyRegionHoldsItsBoxElementByElementAndIsACopy(DType dtype) {
    long[] shape = {3, 4, 5};
    NDArray a = NDArray.arange(0, 60, 1, DType.INT64).astype(dtype).reshape(shape);
    long[][] boxes = {
      {1, 0, 0, 2, 4, 5}, // whole trailing axes: one run
      {2, 3, 0, 1, 1, 5}, // a row
      {1, 2, 1, 1, 1, 3}, // part of a row
      {0, 1, 0, 3, 2, 5}, // not one run
      {0, 0, 2, 3, 4, 2}, // not one run
      {1, 0, 0, 0, 4, 5}, // empty
      {0, 0, 0, 3, 4, 5} // all of it
    };
    for (long[] b : boxes) {
      long[] start = {b[0], b[1], b[2]};
      long[] box = {b[3], b[4], b[5]};
      NDArray r = a.getRegion(start, box);
      assertThat(r.shape()).containsExactly(box);
      assertThat(r.dtype()).isEqualTo(dtype);
      for (long i = 0; i < box[0]; i++) {
        for (long j = 0; j < box[1]; j++) {
          for (long k = 0; k < box[2]; k++) {
            assertThat(r.get(i, j, k)).isEqualTo(a.get(start[0] + i, start[1] + j, start[2] + k));
          }
        }
      }
      if (r.size() > 0) {
        Object before = a.get(start[0], start[1], start[2]);
        r.setRegion(new long[] {0, 0, 0}, NDArray.zeros(dtype, 1, 1, 1));
        assertThat(a.get(start[0], start[1], start[2])).as("a copy").isEqualTo(before);
      }
    }
  }

  @Test
  void broadcastTo() {
    NDArray a = NDArray.of(new double[] {1, 2, 3});
    NDArray b = a.broadcastTo(2, 3);
    assertThat((double[]) b.data()).containsExactly(1, 2, 3, 1, 2, 3);
    assertThatThrownBy(() -> a.broadcastTo(2, 4))
        .hasMessageContaining("broadcast_to")
        .hasMessageContaining("(3,)")
        .hasMessageContaining("(2, 4)");
  }

  @Test
  void astypeFollowsNumpy() {
    NDArray f = NDArray.of(new double[] {-1.7, 2.9, 300.5, 0});
    assertThat(f.astype(DType.INT8).getLong(2)).isEqualTo((byte) 300);
    assertThat(f.astype(DType.INT32).getLong(0)).isEqualTo(-1);
    assertThat(f.astype(DType.BOOL).getBoolean(3)).isFalse();
    NDArray u = NDArray.full(DType.UINT64, -1L, 1);
    assertThat(u.getDouble(0)).isEqualTo(1.8446744073709552E19);
    assertThat(u.astype(DType.FLOAT64).astype(DType.UINT64).getLong(0)).isEqualTo(-1L);
  }

  @Test
  void promotionTable() {
    assertThat(DType.resultType(DType.INT8, DType.UINT8)).isEqualTo(DType.INT16);
    assertThat(DType.resultType(DType.INT32, DType.UINT32)).isEqualTo(DType.INT64);
    assertThat(DType.resultType(DType.FLOAT32, DType.COMPLEX128)).isEqualTo(DType.COMPLEX128);
    assertThat(DType.resultType(DType.FLOAT64, DType.COMPLEX64)).isEqualTo(DType.COMPLEX128);
    assertThat(DType.resultType(DType.INT16, DType.FLOAT32)).isEqualTo(DType.FLOAT32);
    assertThat(DType.resultType(DType.INT32, DType.FLOAT32)).isEqualTo(DType.FLOAT64);
    assertThat(DType.resultType(DType.FLOAT32, 2.5)).isEqualTo(DType.FLOAT32);
    assertThat(DType.resultType(DType.INT8, 2.5)).isEqualTo(DType.FLOAT64);
    assertThat(DType.resultType(DType.UINT8, 3)).isEqualTo(DType.UINT8);
    assertThat(DType.UINT64.iinfo().max().toString()).isEqualTo("18446744073709551615");
    assertThat(DType.FLOAT32.finfo().eps()).isEqualTo(1.1920928955078125E-7);
  }

  @Test
  void sliceResolveLikePython() {
    assertThat(new Index.Slice(null, null, -1).resolve(5)).containsExactly(4, -1, 5);
    assertThat(new Index.Slice(1L, -1L, 2).resolve(6)).containsExactly(1, 2, 2);
    assertThat(new Index.Slice(-2L, null, -2).resolve(6)).containsExactly(4, -2, 3);
    assertThat(new Index.Slice(10L, 20L, 1).resolve(6)[2]).isZero();
  }
}
