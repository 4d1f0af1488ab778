package dev.cubed.plan.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The in-memory data hash: equal content hashes equally (also a copy, also in another order of
 * writing), and any one element changed in any dtype, a length or an order change gives another
 * hash.
 */
class DataHashTest {
  static NDArray random(DType t, long n, Random rnd) {
    NDArray a = NDArray.zeros(t, new long[] {n});
    for (int i = 0; i < n; i++) {
      a.setDouble(i, t == DType.BOOL ? rnd.nextInt(2) : rnd.nextInt(100));
    }
    return a;
  }

  @Test
  void equalContentEqualHashAndEveryElementChangeIsSeen() {
    Random rnd = new Random(11);
    for (DType t : DType.values()) {
      for (long n : new long[] {0, 1, 7, 8, 9, 1000, 65_537}) {
        NDArray a = random(t, n, rnd);
        NDArray copy = NDArray.zeros(t, new long[] {n});
        for (int i = (int) n - 1; i >= 0; i--) {
          copy.setDouble(i, a.getDouble(i));
        }
        assertThat(DataHash.of(copy)).as(t + " n=" + n).isEqualTo(DataHash.of(a));
        Set<String> seen = new HashSet<>();
        seen.add(HexFormat.of().formatHex(DataHash.of(a)));
        for (int k = 0; k < Math.min(n, 40); k++) {
          int i = n <= 40 ? k : rnd.nextInt((int) n);
          NDArray b = copy.copy();
          double old = b.getDouble(i);
          b.setDouble(i, t == DType.BOOL ? 1 - old : old + 1 + rnd.nextInt(20));
          assertThat(DataHash.of(b))
              .as(t + " n=" + n + " element " + i)
              .isNotEqualTo(DataHash.of(a));
          seen.add(HexFormat.of().formatHex(DataHash.of(b)));
        }
        if (n > 0) { // one element more (a zero) is another content
          NDArray longer = NDArray.zeros(t, new long[] {n + 1});
          for (int i = 0; i < n; i++) {
            longer.setDouble(i, a.getDouble(i));
          }
          assertThat(DataHash.of(longer)).as(t + " n=" + n + " + 1").isNotEqualTo(DataHash.of(a));
        }
      }
    }
  }

  @Test
  void rawBitsOrderAndByteTailsCount() {
    NDArray pz = NDArray.zeros(DType.FLOAT64, 1);
    NDArray nz = NDArray.zeros(DType.FLOAT64, 1);
    nz.setDouble(0, -0.0);
    assertThat(DataHash.of(nz)).isNotEqualTo(DataHash.of(pz));
    NDArray ab = NDArray.zeros(DType.INT64, 2);
    ab.setLong(0, 1);
    ab.setLong(1, 2);
    NDArray ba = NDArray.zeros(DType.INT64, 2);
    ba.setLong(0, 2);
    ba.setLong(1, 1);
    assertThat(DataHash.of(ab)).isNotEqualTo(DataHash.of(ba));
    // int8 data of 3 and of 4 elements whose last is 0: the count tells them apart
    NDArray three = NDArray.zeros(DType.INT8, 3);
    NDArray four = NDArray.zeros(DType.INT8, 4);
    assertThat(DataHash.of(three)).isNotEqualTo(DataHash.of(four));
    // complex: the imaginary parts count too
    NDArray c1 = NDArray.zeros(DType.COMPLEX128, 3);
    NDArray c2 = NDArray.zeros(DType.COMPLEX128, 3);
    ((double[]) c2.data())[5] = 1.0; // imaginary part of the last element
    assertThat(DataHash.of(c2)).isNotEqualTo(DataHash.of(c1));
  }
}
