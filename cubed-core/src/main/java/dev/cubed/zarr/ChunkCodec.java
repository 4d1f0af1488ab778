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

  /**
   * Encodes {@code data}, a chunk clipped to the array, padded to {@code chunkShape} with {@code
   * fill}: the stored value is the returned buffer's remaining bytes from position 0 (its backing
   * array may be longer). The default pads, then {@link #encode(NDArray)}; codecs that stream
   * override it.
   */
  default java.nio.ByteBuffer encode(NDArray data, long[] chunkShape, Object fill) {
    NDArray padded = data;
    if (!java.util.Arrays.equals(data.shape(), chunkShape)) {
      padded = NDArray.full(data.dtype(), fill, chunkShape);
      padded.setRegion(new long[chunkShape.length], data);
    }
    return java.nio.ByteBuffer.wrap(encode(padded));
  }

  /**
   * For the memory model: how many chunk-sized byte buffers a read of one chunk holds at once
   * besides the decoded array (the stored bytes count as one).
   */
  int readCopies();

  /**
   * For the memory model: how many chunk-sized buffers a write of one chunk holds at once besides
   * the array being written (padded copy, raw bytes, compressor output and its trimmed copy).
   */
  int writeCopies();

  /** The codec documents for display (v3 codec list, or v2 order/compressor). */
  List<Map<String, Object>> describe();
}
