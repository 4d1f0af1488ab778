package dev.cubed.zarr.codec;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.zarr.store.ZarrFormatException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A Zarr v3 codec chain: transposes, one array-to-bytes codec, then bytes-to-bytes codecs. */
public final class CodecPipeline implements ChunkCodec {
  private static final long serialVersionUID = 1L;

  public final List<int[]> transposes;
  public final ArrayBytesCodec arrayBytes;
  public final List<BytesCodec> bytesCodecs;

  public CodecPipeline(
      List<int[]> transposes, ArrayBytesCodec arrayBytes, List<BytesCodec> bytesCodecs) {
    this.transposes = List.copyOf(transposes);
    this.arrayBytes = arrayBytes;
    this.bytesCodecs = List.copyOf(bytesCodecs);
  }

  public static long[] permute(long[] shape, int[] order) {
    long[] out = new long[shape.length];
    for (int i = 0; i < order.length; i++) {
      out[i] = shape[order[i]];
    }
    return out;
  }

  static int[] inverse(int[] order) {
    int[] inv = new int[order.length];
    for (int i = 0; i < order.length; i++) {
      inv[order[i]] = i;
    }
    return inv;
  }

  /**
   * The Blosc-LZ4 codec if this chain is bytes then Java-encodable Blosc, optionally followed by
   * crc32c ({@link #checked()}), else null.
   */
  private BloscBytesCodec streamed() {
    int n = bytesCodecs.size();
    return transposes.isEmpty()
            && arrayBytes instanceof ArrayBytesCodec.Bytes
            && (n == 1 || n == 2 && bytesCodecs.get(1) instanceof Crc32cBytesCodec)
            && bytesCodecs.get(0) instanceof BloscBytesCodec b
            && b.javaEncodes()
        ? b
        : null;
  }

  /**
   * The Blosc codec if this chain is bytes then Blosc that {@link BloscStreams} decodes (LZ4 or
   * zstd, no bit shuffle), optionally followed by crc32c, else null.
   */
  private BloscBytesCodec decodedBlockwise() {
    int n = bytesCodecs.size();
    return transposes.isEmpty()
            && arrayBytes instanceof ArrayBytesCodec.Bytes
            && (n == 1 || n == 2 && bytesCodecs.get(1) instanceof Crc32cBytesCodec)
            && bytesCodecs.get(0) instanceof BloscBytesCodec b
            && b.javaDecodes()
        ? b
        : null;
  }

  /**
   * The compressor if this chain is bytes then one zstd, gzip or zlib codec ({@link
   * StreamedDecode}), else null.
   */
  private BytesCodec streamCompressor() {
    return transposes.isEmpty()
            && arrayBytes instanceof ArrayBytesCodec.Bytes
            && bytesCodecs.size() == 1
            && StreamedDecode.decodes(bytesCodecs.get(0))
        ? bytesCodecs.get(0)
        : null;
  }

  /**
   * The zstd codec if this chain is bytes then zstd (zarr-python 3's default), optionally followed
   * by crc32c, else null: such chunks are encoded as they are made ({@link ZstdStreams}).
   */
  private ZstdBytesCodec streamedZstd() {
    int n = bytesCodecs.size();
    return transposes.isEmpty()
            && arrayBytes instanceof ArrayBytesCodec.Bytes
            && (n == 1 || n == 2 && bytesCodecs.get(1) instanceof Crc32cBytesCodec)
            && bytesCodecs.get(0) instanceof ZstdBytesCodec z
        ? z
        : null;
  }

  @Override
  public boolean decodesForward() {
    return streamCompressor() instanceof ZstdBytesCodec;
  }

  /** True if the chain ends with crc32c: each stored value ends with its 4-byte checksum. */
  boolean checked() {
    return !bytesCodecs.isEmpty()
        && bytesCodecs.get(bytesCodecs.size() - 1) instanceof Crc32cBytesCodec;
  }

  @Override
  public boolean trailingCrc32c() {
    return streamed() != null && checked();
  }

  @Override
  public ByteBuffer encode(NDArray data, long[] chunkShape, Object fill) {
    BloscBytesCodec b = streamed();
    if (b == null) {
      ZstdBytesCodec z = streamedZstd();
      return z == null
          ? ChunkCodec.super.encode(data, chunkShape, fill)
          : ZstdStreams.encode(
              z, data, chunkShape, fill, ((ArrayBytesCodec.Bytes) arrayBytes).order(), checked());
    }
    return BloscStreams.encode(
        b, data, chunkShape, fill, ((ArrayBytesCodec.Bytes) arrayBytes).order(), checked());
  }

  @Override
  public ByteBuffer encode(ChunkElements src, DType dtype, long[] chunkShape) {
    BloscBytesCodec b = streamed();
    if (b == null) {
      ZstdBytesCodec z = streamedZstd();
      return z == null
          ? null
          : ZstdStreams.encode(
              z, src, dtype, chunkShape, ((ArrayBytesCodec.Bytes) arrayBytes).order(), checked());
    }
    return BloscStreams.encode(
        b, src, dtype, chunkShape, ((ArrayBytesCodec.Bytes) arrayBytes).order(), checked());
  }

  @Override
  public ByteOrder byteOrder() {
    return arrayBytes instanceof ArrayBytesCodec.Bytes b ? b.order() : ByteOrder.LITTLE_ENDIAN;
  }

  @Override
  public boolean encodesRuns() {
    return streamed() != null || streamedZstd() != null;
  }

  /**
   * 1 for the streamed default (the stored bytes); otherwise the stored bytes, one buffer per bytes
   * codec and per transpose, and two more for a sharding codec (the shard's inner chunk buffers),
   * an estimate from the code paths.
   */
  @Override
  public int readCopies() {
    if (decodedBlockwise() != null) {
      return 1;
    }
    return 1
        + bytesCodecs.size()
        + transposes.size()
        + (arrayBytes instanceof ShardingCodec ? 2 : 0);
  }

  /**
   * 1 for the streamed default and for streamed zstd (the output buffer); otherwise the padded
   * chunk, the raw bytes, two buffers per bytes codec (its worst-case output and the trimmed copy),
   * one per transpose and two more for a sharding codec.
   */
  @Override
  public int writeCopies() {
    if (streamed() != null || streamedZstd() != null) {
      return 1;
    }
    return 2
        + 2 * bytesCodecs.size()
        + transposes.size()
        + (arrayBytes instanceof ShardingCodec ? 2 : 0);
  }

  @Override
  public byte[] encode(NDArray chunk) {
    NDArray a = chunk;
    for (int[] t : transposes) {
      a = a.permuteDims(t);
    }
    byte[] b = arrayBytes.encode(a);
    for (BytesCodec c : bytesCodecs) {
      b = c.encode(b);
    }
    return b;
  }

  @Override
  public NDArray decode(
      byte[] header, JavaBlosc.Input in, long[] chunkShape, long[] clipped, String where) {
    ArrayBytesCodec.Bytes ab = arrayBytes instanceof ArrayBytesCodec.Bytes b ? b : null;
    BytesCodec compressor = streamCompressor();
    if (compressor != null) {
      return StreamedDecode.decode(
          compressor, in, ab.dtype(), chunkShape, clipped, ab.order(), where);
    }
    if (decodedBlockwise() == null) {
      return null;
    }
    if (!checked()) {
      return BloscStreams.decode(header, in, ab.dtype(), chunkShape, clipped, ab.order(), where);
    }
    // the checksum is computed from the decoder's reads; a chunk the decoder finds corrupt is
    // reported as a checksum mismatch when its checksum is wrong (the clearer cause)
    Crc32cInput checked = new Crc32cInput(in, where);
    NDArray a;
    try {
      a = BloscStreams.decode(header, checked, ab.dtype(), chunkShape, clipped, ab.order(), where);
    } catch (ZarrFormatException e) {
      try {
        checked.verify();
      } catch (ChecksumMismatchException c) {
        c.addSuppressed(e);
        throw c;
      } catch (RuntimeException r) {
        e.addSuppressed(r);
      }
      throw e;
    }
    if (a != null) {
      checked.verify();
    }
    return a;
  }

  @Override
  public boolean decodeInto(
      JavaBlosc.Input in,
      long[] chunkShape,
      long[] lo,
      long[] box,
      long[] step,
      NDArray dst,
      long[] dstAt,
      String where) {
    BytesCodec compressor = streamCompressor();
    if (compressor == null) {
      return false;
    }
    ArrayBytesCodec.Bytes ab = (ArrayBytesCodec.Bytes) arrayBytes;
    return StreamedDecode.decodeInto(
        compressor, in, ab.dtype(), chunkShape, ab.order(), lo, box, step, dst, dstAt, where);
  }

  @Override
  public boolean decodesRegions() {
    return streamCompressor() != null;
  }

  @Override
  public boolean decodesBlockwise() {
    return decodedBlockwise() != null;
  }

  @Override
  public boolean decodesStreamed() {
    return decodedBlockwise() != null || streamCompressor() != null;
  }

  @Override
  public NDArray decode(byte[] bytes, long[] chunkShape, String where) {
    if (decodedBlockwise() != null) {
      int n = checked() ? Crc32cBytesCodec.verify(bytes, bytes.length, where) : bytes.length;
      NDArray a =
          BloscStreams.decode(
              bytes,
              n,
              ((ArrayBytesCodec.Bytes) arrayBytes).dtype(),
              chunkShape,
              ((ArrayBytesCodec.Bytes) arrayBytes).order(),
              where);
      if (a != null) {
        return a;
      }
    }
    long[] s = chunkShape;
    for (int[] t : transposes) {
      s = permute(s, t);
    }
    long raw = arrayBytes.maxEncodedSize(Shapes.size(s));
    byte[] b = bytes;
    for (int i = bytesCodecs.size() - 1; i >= 0; i--) {
      long bound = raw;
      for (int j = 0; j < i; j++) {
        bound += bytesCodecs.get(j).overhead();
      }
      b = bytesCodecs.get(i).decode(b, (int) Math.min(bound, Integer.MAX_VALUE - 8), where);
    }
    NDArray a = arrayBytes.decode(b, s, where);
    for (int i = transposes.size() - 1; i >= 0; i--) {
      a = a.permuteDims(inverse(transposes.get(i)));
    }
    return a;
  }

  @Override
  public long maxStoredSize(long[] chunkShape) {
    return encodedBound(chunkShape) + STORED_SLACK;
  }

  /** The codecs' own bound on a stored chunk of {@code chunkShape}, without the slack. */
  long encodedBound(long[] chunkShape) {
    long[] s = chunkShape;
    for (int[] t : transposes) {
      s = permute(s, t);
    }
    long b =
        arrayBytes instanceof ShardingCodec sc
            ? sc.maxShardSize(s)
            : arrayBytes.maxEncodedSize(Shapes.size(s));
    for (BytesCodec c : bytesCodecs) {
      b = c.maxEncoded(b);
    }
    return b;
  }

  @Override
  public List<Map<String, Object>> describe() {
    List<Map<String, Object>> out = new ArrayList<>();
    for (int[] t : transposes) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", "transpose");
      List<Integer> order = new ArrayList<>();
      for (int v : t) {
        order.add(v);
      }
      m.put("configuration", Map.of("order", order));
      out.add(m);
    }
    out.add(arrayBytes.v3Json());
    for (BytesCodec c : bytesCodecs) {
      out.add(c.v3Json());
    }
    return out;
  }
}
