package dev.cubed.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Hashing an in-memory array slice by slice gives the digest of its whole little-endian bytes. */
class NodeDigestDataTest {
  @Test
  void slicedHashEqualsTheHashOfTheWholeBytesForEveryDtype() throws Exception {
    Random rnd = new Random(11);
    for (DType t : DType.values()) {
      for (long n : new long[] {0, 1, 7, 65_536, 65_537, 200_003}) {
        NDArray a = NDArray.zeros(t, new long[] {n});
        for (int i = 0; i < n; i += 1 + rnd.nextInt(50)) {
          a.setDouble(i, t == DType.BOOL ? 1 : rnd.nextInt(100));
        }
        MessageDigest whole = MessageDigest.getInstance("SHA-256");
        whole.update(a.toBytes(ByteOrder.LITTLE_ENDIAN));
        MessageDigest sliced = MessageDigest.getInstance("SHA-256");
        NodeDigest.hashData(sliced, a);
        assertThat(sliced.digest()).as(t + " n=" + n).isEqualTo(whole.digest());
      }
    }
  }
}
