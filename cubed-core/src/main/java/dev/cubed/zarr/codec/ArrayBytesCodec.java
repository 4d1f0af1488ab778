package dev.cubed.zarr.codec;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.zarr.store.ZarrFormatException;
import java.io.Serializable;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.Map;

/** A v3 array-to-bytes codec: {@code bytes} (either endian) or {@code sharding_indexed}. */
public interface ArrayBytesCodec extends Serializable {
  byte[] encode(NDArray a);

  NDArray decode(byte[] b, long[] shape, String where);

  /** Largest encoded size for a chunk of {@code n} elements (bound for decompressors). */
  long maxEncodedSize(long n);

  Map<String, Object> v3Json();

  /** The {@code bytes} codec. */
  record Bytes(DType dtype, boolean bigEndian) implements ArrayBytesCodec {
    ByteOrder order() {
      return bigEndian ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    }

    @Override
    public byte[] encode(NDArray a) {
      return a.toBytes(order());
    }

    @Override
    public NDArray decode(byte[] b, long[] shape, String where) {
      long need = Shapes.size(shape) * dtype.itemSize();
      if (b.length != need) {
        throw new ZarrFormatException(
            where
                + ": decoded chunk has "
                + b.length
                + " bytes, expected "
                + need
                + " ("
                + dtype
                + " chunk of shape "
                + Shapes.format(shape)
                + "; truncated or corrupt chunk)");
      }
      return NDArray.fromBytes(dtype, shape, b, order());
    }

    @Override
    public long maxEncodedSize(long n) {
      return n * dtype.itemSize();
    }

    @Override
    public Map<String, Object> v3Json() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", "bytes");
      if (dtype.itemSize() > 1) { // zarr-python omits the endian of one-byte types
        m.put("configuration", Map.of("endian", bigEndian ? "big" : "little"));
      }
      return m;
    }
  }
}
