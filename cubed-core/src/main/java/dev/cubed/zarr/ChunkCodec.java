package dev.cubed.zarr;

import dev.cubed.nd.Complex;
import dev.cubed.nd.NDArray;
import java.util.List;

/** Encodes and decodes one whole chunk through an array's codec chain (package-private). */
final class ChunkCodec {
  private ChunkCodec() {}

  static byte[] encode(ArrayMetadata m, NDArray chunk) {
    NDArray c = chunk;
    int nd = c.ndim();
    if (m.fortranOrder() && nd > 1) {
      c = c.permuteDims(reversedAxes(nd));
    }
    byte[] b = c.toBytes(m.byteOrder());
    for (Compressor comp : m.compressors()) {
      b = comp.encode(b, m.dtype().itemSize());
    }
    return b;
  }

  static NDArray decode(ArrayMetadata m, byte[] enc, String where) {
    int expected = (int) m.chunkBytes();
    byte[] b = enc;
    List<Compressor> cs = m.compressors();
    try {
      for (int i = cs.size() - 1; i >= 0; i--) {
        b = cs.get(i).decode(b, i == 0 ? expected : -1);
      }
    } catch (ZarrException e) {
      throw new ZarrException(where + ": " + e.getMessage(), e);
    }
    if (b.length != expected) {
      throw new ZarrException(where + ": decoded chunk has " + b.length + " bytes, expected "
          + expected + " (corrupt or truncated chunk)");
    }
    long[] chunks = m.chunks();
    int nd = chunks.length;
    if (m.fortranOrder() && nd > 1) {
      long[] rev = new long[nd];
      for (int i = 0; i < nd; i++) {
        rev[i] = chunks[nd - 1 - i];
      }
      return NDArray.fromBytes(m.dtype(), rev, b, m.byteOrder()).permuteDims(reversedAxes(nd));
    }
    return NDArray.fromBytes(m.dtype(), chunks, b, m.byteOrder());
  }

  private static int[] reversedAxes(int nd) {
    int[] a = new int[nd];
    for (int i = 0; i < nd; i++) {
      a[i] = nd - 1 - i;
    }
    return a;
  }

  /** True if every element equals the fill value (NaN fill matches NaN elements). */
  static boolean isAllFill(NDArray a, Object fill) {
    int n = a.size();
    if (a.data() instanceof double[] d && !a.dtype().isComplex()) {
      double f = ((Number) fill).doubleValue();
      for (int i = 0; i < n; i++) {
        if (d[i] != f && !(Double.isNaN(f) && Double.isNaN(d[i]))) {
          return false;
        }
      }
      return true;
    }
    if (a.dtype().isBool()) {
      boolean f = (Boolean) fill;
      for (int i = 0; i < n; i++) {
        if (a.getBoolean(i) != f) {
          return false;
        }
      }
      return true;
    }
    if (a.dtype().isInteger()) {
      long f = ((Number) fill).longValue();
      for (int i = 0; i < n; i++) {
        if (a.getLong(i) != f) {
          return false;
        }
      }
      return true;
    }
    double fr = fill instanceof Complex c ? c.re() : ((Number) fill).doubleValue();
    double fi = fill instanceof Complex c ? c.im() : 0;
    for (int i = 0; i < n; i++) {
      if (!same(a.getDouble(i), fr) || !same(a.getImag(i), fi)) {
        return false;
      }
    }
    return true;
  }

  private static boolean same(double x, double f) {
    return x == f || (Double.isNaN(x) && Double.isNaN(f));
  }
}
