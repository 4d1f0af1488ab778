package dev.cubed.zarr.codec;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.ValueTooLargeException;
import dev.cubed.zarr.store.ZarrFormatException;
import java.io.ByteArrayOutputStream;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The v3 {@code sharding_indexed} codec: a shard holds inner chunks encoded with their own codec
 * chain, plus an index of (offset, nbytes) uint64 pairs per inner chunk (2^64-1 for empty ones),
 * encoded with {@code bytes} (little endian) and optionally {@code crc32c}, at the end or start.
 */
public final class ShardingCodec implements ArrayBytesCodec {
  private static final long serialVersionUID = 1L;
  static final long EMPTY = -1L; // 2^64 - 1

  final DType dtype;
  final Object fill;
  final int[] inner;
  public final CodecPipeline innerCodec;
  final boolean indexCrc;
  final boolean indexAtStart;

  public ShardingCodec(
      DType dtype,
      Object fill,
      int[] inner,
      CodecPipeline innerCodec,
      boolean indexCrc,
      boolean indexAtStart) {
    this.dtype = dtype;
    this.fill = fill;
    this.inner = inner.clone();
    this.innerCodec = innerCodec;
    this.indexCrc = indexCrc;
    this.indexAtStart = indexAtStart;
  }

  long[] grid(long[] shardShape) {
    long[] g = new long[inner.length];
    for (int i = 0; i < g.length; i++) {
      g[i] = shardShape[i] / inner[i];
    }
    return g;
  }

  int indexSize(long n) {
    return (int) (16 * n + (indexCrc ? 4 : 0));
  }

  public long[] innerShapeLong() {
    long[] s = new long[inner.length];
    for (int i = 0; i < s.length; i++) {
      s[i] = inner[i];
    }
    return s;
  }

  @Override
  public byte[] encode(NDArray shard) {
    long[] g = grid(shard.shape());
    int n = (int) Shapes.size(g);
    long[] index = new long[2 * n];
    long[] is = innerShapeLong();
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    int isz = indexSize(n);
    long base = indexAtStart ? isz : 0;
    for (int k = 0; k < n; k++) {
      long[] c = Shapes.unravel(g, k);
      long[] start = new long[c.length];
      for (int d = 0; d < c.length; d++) {
        start[d] = c[d] * inner[d];
      }
      NDArray part = shard.getRegion(start, is);
      if (FillValues.isAllFill(part, fill)) {
        index[2 * k] = EMPTY;
        index[2 * k + 1] = EMPTY;
        continue;
      }
      byte[] enc = innerCodec.encode(part);
      index[2 * k] = base + body.size();
      index[2 * k + 1] = enc.length;
      body.write(enc, 0, enc.length);
    }
    byte[] idx = encodeIndex(index);
    byte[] b = body.toByteArray();
    byte[] out = new byte[b.length + idx.length];
    if (indexAtStart) {
      System.arraycopy(idx, 0, out, 0, idx.length);
      System.arraycopy(b, 0, out, idx.length, b.length);
    } else {
      System.arraycopy(b, 0, out, 0, b.length);
      System.arraycopy(idx, 0, out, b.length, idx.length);
    }
    return out;
  }

  byte[] encodeIndex(long[] index) {
    byte[] b = NDArray.of(index, index.length).toBytes(ByteOrder.LITTLE_ENDIAN);
    return indexCrc ? new Crc32cBytesCodec().encode(b) : b;
  }

  long[] decodeIndex(byte[] idx, int n, String where) {
    byte[] b =
        indexCrc ? new Crc32cBytesCodec().decode(idx, 16 * n, where + " (shard index)") : idx;
    if (b.length != 16 * n) {
      throw new ZarrFormatException(
          where + ": shard index has " + b.length + " bytes, expected " + 16 * n);
    }
    return (long[])
        NDArray.fromBytes(DType.INT64, new long[] {2L * n}, b, ByteOrder.LITTLE_ENDIAN).data();
  }

  @Override
  public NDArray decode(byte[] b, long[] shape, String where) {
    long[] g = grid(shape);
    int n = (int) Shapes.size(g);
    int isz = indexSize(n);
    if (b.length < isz) {
      throw new ZarrFormatException(
          where
              + ": shard of "
              + b.length
              + " bytes is shorter than its index of "
              + isz
              + " bytes (truncated shard)");
    }
    byte[] idx =
        indexAtStart
            ? Arrays.copyOfRange(b, 0, isz)
            : Arrays.copyOfRange(b, b.length - isz, b.length);
    long[] index = decodeIndex(idx, n, where);
    NDArray out = NDArray.full(dtype, fill, shape);
    long[] is = innerShapeLong();
    for (int k = 0; k < n; k++) {
      long off = index[2 * k];
      long len = index[2 * k + 1];
      if (off == EMPTY && len == EMPTY) {
        continue;
      }
      if (len > maxInnerSize() && off >= 0) {
        throw innerTooLarge(where, k, len);
      }
      if (off < 0 || len < 0 || off + len > b.length) {
        throw new ZarrFormatException(
            where
                + ": shard index entry "
                + k
                + " (offset "
                + off
                + ", length "
                + len
                + ") lies outside the shard of "
                + b.length
                + " bytes");
      }
      byte[] part = Arrays.copyOfRange(b, (int) off, (int) (off + len));
      NDArray chunk = innerCodec.decode(part, is, where + " inner chunk " + k);
      long[] c = Shapes.unravel(g, k);
      long[] start = new long[c.length];
      for (int d = 0; d < c.length; d++) {
        start[d] = c[d] * inner[d];
      }
      out.setRegion(start, chunk);
    }
    return out;
  }

  /**
   * Reads the box {@code [start, start + box)} of the shard stored at {@code key} with range
   * requests: the index, then only the inner chunks the box touches. A missing shard or inner chunk
   * reads as the fill value.
   */
  public NDArray readRegion(
      Store store, String key, long[] shardShape, long[] start, long[] box, String where) {
    long[] g = grid(shardShape);
    int n = (int) Shapes.size(g);
    int isz = indexSize(n);
    byte[] idx = indexAtStart ? store.getRange(key, 0, isz) : store.getSuffix(key, isz);
    NDArray out = NDArray.full(dtype, fill, box);
    if (idx == null) {
      return out;
    }
    if (idx.length != isz) {
      throw new ZarrFormatException(
          where + ": shard is shorter than its index of " + isz + " bytes (truncated shard)");
    }
    long[] index = decodeIndex(idx, n, where);
    int nd = box.length;
    long[] lo = new long[nd];
    long[] hi = new long[nd];
    for (int d = 0; d < nd; d++) {
      lo[d] = start[d] / inner[d];
      hi[d] = (start[d] + box[d] - 1) / inner[d];
    }
    long[] c = lo.clone();
    long[] is = innerShapeLong();
    int mult = dtype.isComplex() ? 2 : 1;
    while (true) {
      int k = (int) Shapes.offset(g, c);
      long off = index[2 * k];
      long len = index[2 * k + 1];
      if (!(off == EMPTY && len == EMPTY)) {
        if (len > maxInnerSize() && off >= 0) {
          throw innerTooLarge(where, k, len);
        }
        if (off < 0 || len < 0 || len > Integer.MAX_VALUE - 8) {
          throw new ZarrFormatException(
              where
                  + ": shard index entry "
                  + k
                  + " (offset "
                  + off
                  + ", length "
                  + len
                  + ") is invalid");
        }
        byte[] part = store.getRange(key, off, (int) len);
        if (part == null || part.length != len) {
          throw new ZarrFormatException(
              where
                  + ": shard index entry "
                  + k
                  + " (offset "
                  + off
                  + ", length "
                  + len
                  + ") lies outside the shard (truncated shard)");
        }
        NDArray chunk = innerCodec.decode(part, is, where + " inner chunk " + k);
        long[] inChunk = new long[nd];
        long[] inOut = new long[nd];
        long[] b = new long[nd];
        for (int d = 0; d < nd; d++) {
          long cs = c[d] * inner[d];
          long a = Math.max(start[d], cs);
          long e = Math.min(start[d] + box[d], cs + inner[d]);
          inChunk[d] = a - cs;
          inOut[d] = a - start[d];
          b[d] = e - a;
        }
        NDArray.copyBox(chunk.data(), is, inChunk, out.data(), box, inOut, b, mult);
      }
      int d = nd - 1;
      while (d >= 0) {
        if (++c[d] <= hi[d]) {
          break;
        }
        c[d] = lo[d];
        d--;
      }
      if (d < 0) {
        return out;
      }
    }
  }

  @Override
  public long maxEncodedSize(long n) {
    return Integer.MAX_VALUE - 8;
  }

  /**
   * The most bytes a stored shard of {@code shardShape} can take: its index and the bound of every
   * inner chunk ({@link #maxInnerSize()}).
   */
  long maxShardSize(long[] shardShape) {
    long n = Shapes.size(grid(shardShape));
    return indexSize(n) + n * maxInnerSize();
  }

  /**
   * The most bytes one stored inner chunk can take ({@link CodecPipeline#encodedBound} of the inner
   * shape, plus the slack): a shard index entry declaring more is refused before it is read.
   */
  long maxInnerSize() {
    return innerCodec.encodedBound(innerShapeLong()) + ChunkCodec.STORED_SLACK;
  }

  /** The exception for an index entry declaring an inner chunk larger than its bound. */
  private ValueTooLargeException innerTooLarge(String where, int k, long len) {
    return new ValueTooLargeException(
        where
            + ": shard index entry "
            + k
            + " declares an inner chunk of "
            + len
            + " bytes, more than the "
            + maxInnerSize()
            + " bytes an inner chunk of shape "
            + Arrays.toString(inner)
            + " can take with its codecs; refused before reading it (corrupt or hostile shard)",
        len,
        maxInnerSize());
  }

  @Override
  public Map<String, Object> v3Json() {
    Map<String, Object> conf = new LinkedHashMap<>();
    conf.put("chunk_shape", Arrays.stream(inner).boxed().toList());
    conf.put("codecs", innerCodec.describe());
    List<Map<String, Object>> idx = new ArrayList<>();
    idx.add(new ArrayBytesCodec.Bytes(DType.UINT64, false).v3Json());
    if (indexCrc) {
      idx.add(new Crc32cBytesCodec().v3Json());
    }
    conf.put("index_codecs", idx);
    conf.put("index_location", indexAtStart ? "start" : "end");
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", "sharding_indexed");
    m.put("configuration", conf);
    return m;
  }
}
