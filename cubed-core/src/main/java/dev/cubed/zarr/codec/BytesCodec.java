package dev.cubed.zarr.codec;

import java.io.Serializable;
import java.util.Map;

/**
 * A bytes-to-bytes codec (compressor or checksum). Implementations are immutable and thread-safe.
 */
public interface BytesCodec extends Serializable {

  /** Encodes bytes. */
  byte[] encode(byte[] in);

  /**
   * Decodes bytes whose decoded length is at most {@code maxOut}; larger declared sizes are
   * rejected before allocating.
   *
   * @throws dev.cubed.zarr.store.ZarrFormatException naming {@code where} for corrupt or truncated
   *     input
   */
  byte[] decode(byte[] in, int maxOut, String where);

  /** The extra bytes this codec adds at most beyond its input (checksums), else 0. */
  default int overhead() {
    return 0;
  }

  /**
   * The most bytes this codec's encoding of {@code n} bytes can take, as its library's own bound
   * says (zstd's {@code ZSTD_compressBound}, zlib's {@code deflateBound}, LZ4's {@code
   * LZ4_compressBound}, Blosc's {@code nbytes + BLOSC_MAX_OVERHEAD}): incompressible data stored
   * with the format's framing. A stored chunk larger than the bound of its codecs (plus a fixed
   * slack for headers other writers add, {@link ChunkCodec#STORED_SLACK}) is not a chunk of its
   * array. The default is {@code n + overhead()}.
   */
  default long maxEncoded(long n) {
    return n + overhead();
  }

  /** The v3 codec document ({@code name} and {@code configuration}). */
  Map<String, Object> v3Json();

  /** The v2 compressor document ({@code id} and parameters). */
  Map<String, Object> v2Json();
}
