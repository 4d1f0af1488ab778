package dev.cubed.zarr.codec;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Turns a whole (padded) chunk into stored bytes and back. Immutable and thread-safe. */
public interface ChunkCodec extends Serializable {

  /** Encodes a chunk of the full chunk shape and the array's dtype. */
  byte[] encode(NDArray chunk);

  /**
   * Decodes stored bytes into a chunk of {@code chunkShape}.
   *
   * @throws dev.cubed.zarr.store.ZarrFormatException naming {@code where} (array path and chunk
   *     key) if corrupt
   */
  NDArray decode(byte[] bytes, long[] chunkShape, String where);

  /**
   * Decodes a chunk of {@code chunkShape} whose stored bytes are read a block at a time from {@code
   * in} (the first 16 bytes are {@code header}) straight into an array of shape {@code clipped}
   * (the chunk clipped to the array), or returns null if this codec, or this chunk, needs the whole
   * stored value (the caller then reads it and calls {@link #decode(byte[], long[], String)}).
   *
   * @throws dev.cubed.zarr.store.ZarrFormatException naming {@code where} if corrupt
   */
  default NDArray decode(
      byte[] header, JavaBlosc.Input in, long[] chunkShape, long[] clipped, String where) {
    return null;
  }

  /**
   * Decodes the box at {@code lo} of shape {@code box} (not empty, inside the chunk clipped to the
   * array) of a chunk of {@code chunkShape} whose stored bytes are read from {@code in} straight
   * into {@code dst} (the array's dtype) at {@code dstAt}, holding no chunk-sized array. With
   * {@code step} (null: 1 on every axis; else at least 1 on each), the box's {@code box[i]}
   * elements along axis {@code i} are {@code lo[i]}, {@code lo[i] + step[i]}, ...: a strided
   * selection, written densely into {@code dst}. Returns false, having written nothing, if this
   * codec or this chunk needs another path (the caller then reads the chunk whole). Parts of the
   * stored value past the box may not be decoded, so corruption there may not be seen ({@link
   * #decodesRegions()}).
   *
   * @throws dev.cubed.zarr.store.ZarrFormatException naming {@code where} if the part decoded is
   *     corrupt or truncated
   */
  default boolean decodeInto(
      JavaBlosc.Input in,
      long[] chunkShape,
      long[] lo,
      long[] box,
      long[] step,
      NDArray dst,
      long[] dstAt,
      String where) {
    return false;
  }

  /**
   * Whether {@link #decodeInto} decodes this codec's chunks: the {@code bytes} serializer (C order)
   * followed by one zstd, gzip or zlib codec, decoded by {@link StreamedDecode} up to the box's
   * last byte only.
   */
  default boolean decodesRegions() {
    return false;
  }

  /**
   * Whether {@link #decode(byte[], JavaBlosc.Input, long[], long[], String)} decodes this codec's
   * chunks (those this project writes), for the memory model: a chunk read from a local file then
   * holds no copy of its stored bytes.
   */
  default boolean decodesBlockwise() {
    return false;
  }

  /**
   * Whether {@link #decode(byte[], JavaBlosc.Input, long[], long[], String)} decodes this codec's
   * chunks from a local file holding neither the stored nor the decoded bytes of a chunk, only
   * small reused buffers besides the array (block-wise Blosc, and the {@code bytes} serializer
   * followed by zstd, gzip or zlib: {@link StreamedDecode}), for the memory model: a chunk read
   * from a local file then holds no copy.
   */
  default boolean decodesStreamed() {
    return decodesBlockwise();
  }

  /**
   * Encodes {@code data}, a chunk clipped to the array, padded to {@code chunkShape} with {@code
   * fill}: the stored value is the returned buffer's remaining bytes from position 0 (its backing
   * array may be longer, and may be this thread's reused output buffer, {@link EncodeBuffers}:
   * store it before this thread encodes again). The default pads, then {@link #encode(NDArray)};
   * codecs that stream override it.
   */
  default ByteBuffer encode(NDArray data, long[] chunkShape, Object fill) {
    NDArray padded = data;
    if (!Arrays.equals(data.shape(), chunkShape)) {
      padded = NDArray.full(data.dtype(), fill, chunkShape);
      padded.setRegion(new long[chunkShape.length], data);
    }
    return ByteBuffer.wrap(encode(padded));
  }

  /**
   * Encodes a full chunk of {@code chunkShape} and {@code dtype} whose elements {@code src} makes a
   * run at a time (edge chunks already padded, see {@link ChunkRuns#padded}), or returns null if
   * this codec needs the whole chunk (the caller then makes it and calls {@link #encode(NDArray,
   * long[], Object)}). The stored value is the returned buffer's remaining bytes from position 0
   * (possibly in this thread's reused output buffer, as there).
   *
   * @throws ChunkRuns.Failed if {@code src} fails
   */
  default ByteBuffer encode(ChunkElements src, DType dtype, long[] chunkShape) {
    return null;
  }

  /**
   * Whether chunks of this codec can be read from a local file as runs of elements in increasing
   * order without their decoded image ({@link ZstdRuns}: the {@code bytes} serializer followed by
   * zstd alone, zarr-python 3's default).
   */
  default boolean decodesForward() {
    return false;
  }

  /**
   * Whether a block-wise decoded chunk ({@link #decodesBlockwise()}) ends with a 4-byte crc32c
   * checksum of the bytes before it, which a reader of single blocks ({@link
   * dev.cubed.zarr.ChunkReader}) must check itself.
   */
  default boolean trailingCrc32c() {
    return false;
  }

  /** The byte order of the elements in a block-wise decoded chunk (the {@code bytes} codec's). */
  default ByteOrder byteOrder() {
    return ByteOrder.LITTLE_ENDIAN;
  }

  /**
   * Whether {@link #encode(ChunkElements, DType, long[])} streams this codec's chunks, for the
   * memory model: a chunk written from runs then holds only its encoded output, not the chunk.
   */
  default boolean encodesRuns() {
    return false;
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

  /**
   * Bytes added to every chunk's bound ({@link #maxStoredSize}) for headers and framing other
   * writers may add beyond the codecs' own bounds (a gzip file name, zstd skippable frames): 64
   * KiB.
   */
  long STORED_SLACK = 64 << 10;

  /**
   * The most bytes a stored chunk of {@code chunkShape} can take: its decoded size, each codec's
   * worst-case growth ({@link BytesCodec#maxEncoded}; for a shard, its index and the bound of every
   * inner chunk) and {@link #STORED_SLACK}. No chunk read holds more of a stored value than this: a
   * larger one is refused before it is read ({@link dev.cubed.zarr.store.ValueTooLargeException}).
   */
  long maxStoredSize(long[] chunkShape);

  /** The codec documents for display (v3 codec list, or v2 order/compressor). */
  List<Map<String, Object>> describe();
}
