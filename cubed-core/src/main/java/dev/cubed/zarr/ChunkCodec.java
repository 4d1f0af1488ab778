package dev.cubed.zarr;

import dev.cubed.nd.NDArray;
import java.io.Serializable;
import java.util.List;
import java.util.Map;

/** Turns a whole (padded) chunk into stored bytes and back. Immutable and thread-safe. */
interface ChunkCodec extends Serializable {

  /** Encodes a chunk of the full chunk shape and the array's dtype. */
  byte[] encode(NDArray chunk);

  /**
   * Decodes stored bytes into a chunk of {@code chunkShape}.
   *
   * @throws ZarrFormatException naming {@code where} (array path and chunk key) if corrupt
   */
  NDArray decode(byte[] bytes, long[] chunkShape, String where);

  /** The codec documents for display (v3 codec list, or v2 order/compressor). */
  List<Map<String, Object>> describe();
}
