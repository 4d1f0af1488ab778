package dev.cubed.zarr.codec;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.zarr.store.ZarrFormatException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A Zarr v2 chunk encoding: memory order C or F, byte order, optional compressor. */
public final class V2Codec implements ChunkCodec {
  private static final long serialVersionUID = 1L;

  final DType dtype;
  public final boolean bigEndian;
  public final boolean fortran;
  public final BytesCodec compressor;

  public V2Codec(DType dtype, boolean bigEndian, boolean fortran, BytesCodec compressor) {
    this.dtype = dtype;
    this.bigEndian = bigEndian;
    this.fortran = fortran;
    this.compressor = compressor;
  }

  private ByteOrder order() {
    return bigEndian ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
  }

  public static int[] reversed(int n) {
    int[] r = new int[n];
    for (int i = 0; i < n; i++) {
      r[i] = n - 1 - i;
    }
    return r;
  }

  private BloscBytesCodec streamed() {
    return !fortran && compressor instanceof BloscBytesCodec b && b.javaEncodes() ? b : null;
  }

  /** The Blosc compressor if {@link BloscStreams} decodes its chunks (C order), else null. */
  private BloscBytesCodec decodedBlockwise() {
    return !fortran && compressor instanceof BloscBytesCodec b && b.javaDecodes() ? b : null;
  }

  /** The compressor if {@link StreamedDecode} decodes its chunks (C order), else null. */
  private BytesCodec streamCompressor() {
    return !fortran && compressor != null && StreamedDecode.decodes(compressor) ? compressor : null;
  }

  @Override
  public ByteBuffer encode(NDArray data, long[] chunkShape, Object fill) {
    BloscBytesCodec b = streamed();
    return b == null
        ? ChunkCodec.super.encode(data, chunkShape, fill)
        : BloscStreams.encode(b, data, chunkShape, fill, order(), false);
  }

  @Override
  public ByteBuffer encode(ChunkElements src, DType type, long[] chunkShape) {
    BloscBytesCodec b = streamed();
    return b == null ? null : BloscStreams.encode(b, src, type, chunkShape, order(), false);
  }

  @Override
  public ByteOrder byteOrder() {
    return order();
  }

  @Override
  public boolean encodesRuns() {
    return streamed() != null;
  }

  /** 1 streamed (Blosc-LZ4, C order); else stored bytes + decompressed + F-order transpose. */
  @Override
  public int readCopies() {
    return decodedBlockwise() != null ? 1 : 1 + (compressor == null ? 0 : 1) + (fortran ? 1 : 0);
  }

  /** 1 streamed; else padded chunk + raw bytes + compressor output and trim + transpose. */
  @Override
  public int writeCopies() {
    return streamed() != null ? 1 : 2 + (compressor == null ? 0 : 2) + (fortran ? 1 : 0);
  }

  @Override
  public byte[] encode(NDArray chunk) {
    NDArray a = fortran && chunk.ndim() > 1 ? chunk.permuteDims(reversed(chunk.ndim())) : chunk;
    byte[] b = a.toBytes(order());
    return compressor == null ? b : compressor.encode(b);
  }

  @Override
  public NDArray decode(
      byte[] header, JavaBlosc.Input in, long[] chunkShape, long[] clipped, String where) {
    BytesCodec c = streamCompressor();
    if (c != null) {
      return StreamedDecode.decode(c, in, dtype, chunkShape, clipped, order(), where);
    }
    return decodedBlockwise() == null
        ? null
        : BloscStreams.decode(header, in, dtype, chunkShape, clipped, order(), where);
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
    BytesCodec c = streamCompressor();
    return c != null
        && StreamedDecode.decodeInto(
            c, in, dtype, chunkShape, order(), lo, box, step, dst, dstAt, where);
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
      NDArray a = BloscStreams.decode(bytes, bytes.length, dtype, chunkShape, order(), where);
      if (a != null) {
        return a;
      }
    }
    long need = Shapes.size(chunkShape) * dtype.itemSize();
    byte[] b = compressor == null ? bytes : compressor.decode(bytes, (int) need, where);
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
              + Shapes.format(chunkShape)
              + "; truncated or corrupt chunk)");
    }
    int nd = chunkShape.length;
    if (fortran && nd > 1) {
      long[] rev = new long[nd];
      for (int i = 0; i < nd; i++) {
        rev[i] = chunkShape[nd - 1 - i];
      }
      return NDArray.fromBytes(dtype, rev, b, order()).permuteDims(reversed(nd));
    }
    return NDArray.fromBytes(dtype, chunkShape, b, order());
  }

  @Override
  public long maxStoredSize(long[] chunkShape) {
    long raw = Shapes.size(chunkShape) * dtype.itemSize();
    return (compressor == null ? raw : compressor.maxEncoded(raw)) + STORED_SLACK;
  }

  @Override
  public List<Map<String, Object>> describe() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("order", fortran ? "F" : "C");
    m.put("dtype", dtype.typeString(bigEndian));
    m.put("compressor", compressor == null ? null : compressor.v2Json());
    return List.of(m);
  }
}
