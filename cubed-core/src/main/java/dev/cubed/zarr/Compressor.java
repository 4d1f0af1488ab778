package dev.cubed.zarr;

import java.io.Serializable;
import java.util.Map;

/**
 * A bytes-to-bytes codec: a Zarr v2 compressor or a v3 bytes-to-bytes codec (gzip, zstd, blosc,
 * lz4, zlib, crc32c). Instances are immutable and thread-safe. Create them with {@link
 * Compressors}.
 */
public interface Compressor extends Serializable {

  /** The codec's id / name, e.g. {@code "zstd"}. */
  String id();

  /** Encodes a buffer. {@code itemSize} is the element size (blosc uses it for shuffling). */
  byte[] encode(byte[] raw, int itemSize);

  /**
   * Decodes a buffer.
   *
   * @param expectedSize the decoded size when known (a chunk's byte size), or -1
   * @throws ZarrException if the data is corrupt or truncated
   */
  byte[] decode(byte[] encoded, int expectedSize);

  /** The configuration as written in Zarr v2 metadata (the {@code compressor} object). */
  Map<String, Object> v2Config();

  /** The configuration as written in a Zarr v3 codec's {@code configuration}. */
  Map<String, Object> v3Config();
}
