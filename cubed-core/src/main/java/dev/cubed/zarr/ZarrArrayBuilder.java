package dev.cubed.zarr;

import dev.cubed.nd.DType;
import dev.cubed.zarr.codec.ArrayBytesCodec;
import dev.cubed.zarr.codec.BytesCodec;
import dev.cubed.zarr.codec.ChunkCodec;
import dev.cubed.zarr.codec.CodecPipeline;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.codec.Crc32cBytesCodec;
import dev.cubed.zarr.codec.FillValues;
import dev.cubed.zarr.codec.ShardingCodec;
import dev.cubed.zarr.codec.V2Codec;
import dev.cubed.zarr.metadata.ArrayMetadata;
import dev.cubed.zarr.store.Json;
import dev.cubed.zarr.store.Keys;
import dev.cubed.zarr.store.Store;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Describes a new array; {@link #build()} validates the description and writes its metadata.
 *
 * <p>Defaults: Zarr format 3, dtype float64, chunks equal to the shape, fill value 0 (false for
 * bool), compression {@link Compression#projectDefault()} (blosc-lz4 with byte shuffle, or zstd(1)
 * where blosc's native library is missing), C order, little endian, chunk key separator "/" (v3) or
 * "." (v2), empty chunks skipped.
 */
public final class ZarrArrayBuilder {
  private final Store store;
  private final String path;
  private long[] shape;
  private long[] chunks;
  private long[] innerChunks;
  private DType dtype = DType.FLOAT64;
  private Object fillValue;
  private int zarrFormat = 3;
  private Compression compression;
  private Map<String, Object> attributes = new LinkedHashMap<>();
  private List<String> dimensionNames;
  private MemoryOrder order = MemoryOrder.C;
  private ByteOrder byteOrder = ByteOrder.LITTLE_ENDIAN;
  private String separator;
  private boolean v2Keys;
  private boolean checksum;
  private boolean indexAtStart;
  private boolean overwrite;
  private EmptyChunks emptyChunks = EmptyChunks.SKIP;

  ZarrArrayBuilder(Store store, String path) {
    this.store = store;
    this.path = path;
  }

  /** The array shape (required). */
  public ZarrArrayBuilder shape(long... shape) {
    this.shape = shape.clone();
    return this;
  }

  /** The chunk shape (for a sharded array: the shard shape). */
  public ZarrArrayBuilder chunks(long... chunks) {
    this.chunks = chunks.clone();
    return this;
  }

  /** The chunk shape, from ints. */
  public ZarrArrayBuilder chunks(int... chunks) {
    this.chunks = Arrays.stream(chunks).asLongStream().toArray();
    return this;
  }

  /**
   * Shards (v3 only): each stored chunk ({@link #chunks}) is a shard of inner chunks of this shape,
   * which must divide the chunk shape.
   */
  public ZarrArrayBuilder innerChunks(long... innerChunks) {
    this.innerChunks = innerChunks.clone();
    return this;
  }

  /** The element type. */
  public ZarrArrayBuilder dtype(DType dtype) {
    this.dtype = dtype;
    return this;
  }

  /** The fill value (Boolean, Number, Complex, or Double NaN/infinities); null means 0. */
  public ZarrArrayBuilder fillValue(Object fillValue) {
    this.fillValue = fillValue;
    return this;
  }

  /** 2 or 3. */
  public ZarrArrayBuilder zarrFormat(int zarrFormat) {
    if (zarrFormat != 2 && zarrFormat != 3) {
      throw new IllegalArgumentException("zarrFormat: " + zarrFormat + " is not 2 or 3");
    }
    this.zarrFormat = zarrFormat;
    return this;
  }

  /** The compressor. */
  public ZarrArrayBuilder compression(Compression compression) {
    this.compression = compression;
    return this;
  }

  /** User attributes (JSON-serializable values). */
  public ZarrArrayBuilder attributes(Map<String, ?> attributes) {
    this.attributes = new LinkedHashMap<>(attributes);
    return this;
  }

  /** Dimension names (v3 {@code dimension_names}, v2 {@code _ARRAY_DIMENSIONS}). */
  public ZarrArrayBuilder dimensionNames(String... names) {
    this.dimensionNames = new ArrayList<>(Arrays.asList(names));
    return this;
  }

  /** The order of elements inside chunks (v3: F adds a transpose codec). */
  public ZarrArrayBuilder order(MemoryOrder order) {
    this.order = order;
    return this;
  }

  /** The byte order of stored elements. */
  public ZarrArrayBuilder byteOrder(ByteOrder byteOrder) {
    this.byteOrder = byteOrder;
    return this;
  }

  /** The chunk key separator, "/" or ".". */
  public ZarrArrayBuilder separator(String separator) {
    if (!separator.equals("/") && !separator.equals(".")) {
      throw new IllegalArgumentException("separator: '" + separator + "' is not '/' or '.'");
    }
    this.separator = separator;
    return this;
  }

  /** v3 only: use the v2 chunk key encoding (keys without the "c/" prefix). */
  public ZarrArrayBuilder v2ChunkKeyEncoding() {
    this.v2Keys = true;
    return this;
  }

  /**
   * v3 only: append a crc32c checksum to each chunk (and to shard indexes), checked on every read
   * ({@link dev.cubed.zarr.codec.ChecksumMismatchException} naming the chunk). With the default
   * codec the chunks are still encoded and decoded streamed (the same memory model).
   */
  public ZarrArrayBuilder crc32c() {
    this.checksum = true;
    return this;
  }

  /** v3 sharding only: put the shard index at the start of each shard (default: end). */
  public ZarrArrayBuilder shardIndexAtStart() {
    this.indexAtStart = true;
    return this;
  }

  /**
   * Allow replacing an existing Zarr array or group at the path. Only a Zarr node is replaced, and
   * only its own keys are deleted (metadata, chunk keys, nested Zarr nodes of a group); a path
   * holding anything else is never emptied:
   *
   * <ul>
   *   <li>nothing stored at the path: the array is created (with or without this flag);
   *   <li>a Zarr node without this flag: refused ("already exists ... pass overwrite()");
   *   <li>a Zarr node that also holds other files: refused, naming one of them;
   *   <li>files but no Zarr node at the path: refused always ("not a Zarr array ... refusing to
   *       delete N files").
   * </ul>
   *
   * <p>{@link #build()} replaces the node at once (it deletes the old node's keys, after marking an
   * old array incomplete). A compute writing a {@link #buildDeferred()} target instead writes a
   * staging array beside it and swaps it in only when complete ({@link StagedWrite}), so the old
   * array stays whole until then.
   */
  public ZarrArrayBuilder overwrite() {
    this.overwrite = true;
    return this;
  }

  /** The empty-chunk policy of the returned array. */
  public ZarrArrayBuilder emptyChunks(EmptyChunks emptyChunks) {
    this.emptyChunks = emptyChunks;
    return this;
  }

  /**
   * Validates, writes the metadata and returns the array.
   *
   * @throws IllegalArgumentException for an invalid description, or if the path holds data the
   *     rules of {@link #overwrite()} do not allow to replace
   * @throws UnsupportedOperationException for a compression the format lacks (zlib/lz4 in v3)
   */
  public ZarrArray build() {
    String where = "create zarr array '" + path + "' in " + store.describe();
    ArrayMetadata m = metadata(where);
    ZarrNodes.prepare(store, path, overwrite, where);
    writeMetadata(store, path, m);
    return new ZarrArray(store, path, m, emptyChunks);
  }

  /**
   * Validates the description and returns the array without storing anything: a compute that writes
   * to it checks the rules of {@link #overwrite()} after its memory check, writes a staging array
   * beside it and swaps that in when every task succeeded ({@link StagedWrite}). Used for lazy
   * writes ({@code Cubed.toZarrLazy}), so building a plan never wipes or creates a target.
   *
   * @throws IllegalArgumentException for an invalid description
   */
  public ZarrArray buildDeferred() {
    String where = "create zarr array '" + path + "' in " + store.describe();
    return ZarrArray.deferred(store, path, metadata(where), emptyChunks, overwrite);
  }

  private ArrayMetadata metadata(String where) {
    if (shape == null) {
      throw new IllegalArgumentException(where + ": shape is required");
    }
    long[] ch = chunks;
    if (ch == null) {
      ch = new long[shape.length];
      for (int i = 0; i < ch.length; i++) {
        ch[i] = Math.max(1, shape[i]);
      }
    }
    if (ch.length != shape.length) {
      throw new IllegalArgumentException(
          where
              + ": chunks "
              + Arrays.toString(ch)
              + " must have as many dimensions as shape "
              + Arrays.toString(shape));
    }
    for (long s : shape) {
      if (s < 0) {
        throw new IllegalArgumentException(
            where + ": shape " + Arrays.toString(shape) + " has a negative extent");
      }
    }
    int[] ich = ArrayMetadata.intChunks(ch, where);
    ArrayMetadata.checkSizes(shape, ich, dtype, where);
    if (dimensionNames != null && dimensionNames.size() != shape.length) {
      throw new IllegalArgumentException(
          where
              + ": "
              + dimensionNames.size()
              + " dimension names for "
              + shape.length
              + " dimensions");
    }
    Object fill = FillValues.normalize(dtype, fillValue);
    boolean big = byteOrder == ByteOrder.BIG_ENDIAN && dtype.itemSize() > 1;
    Compression comp = compression != null ? compression : Compression.projectDefault();
    ChunkCodec codec;
    String sep;
    if (zarrFormat == 2) {
      if (innerChunks != null || checksum || v2Keys || indexAtStart) {
        throw new UnsupportedOperationException(
            where + ": sharding, crc32c and chunk key encodings are Zarr v3 features");
      }
      sep = separator == null ? "." : separator;
      codec = new V2Codec(dtype, big, order == MemoryOrder.F, comp.codec(dtype.itemSize()));
    } else {
      sep = separator == null ? (v2Keys ? "." : "/") : separator;
      BytesCodec bc = comp.codec(dtype.itemSize());
      if (bc != null) {
        bc.v3Json(); // throws UnsupportedOperationException for v2-only compressors
      }
      List<int[]> transposes = new ArrayList<>();
      if (order == MemoryOrder.F && shape.length > 1) {
        transposes.add(V2Codec.reversed(shape.length));
      }
      List<BytesCodec> bytes = new ArrayList<>();
      if (bc != null) {
        bytes.add(bc);
      }
      if (checksum) {
        bytes.add(new Crc32cBytesCodec());
      }
      ArrayBytesCodec ab = new ArrayBytesCodec.Bytes(dtype, big);
      if (innerChunks != null) {
        int[] inner = ArrayMetadata.intChunks(innerChunks, where);
        if (inner.length != ich.length) {
          throw new IllegalArgumentException(
              where
                  + ": inner chunks "
                  + Arrays.toString(innerChunks)
                  + " must have "
                  + ich.length
                  + " dimensions");
        }
        for (int i = 0; i < inner.length; i++) {
          if (ich[i] % inner[i] != 0) {
            throw new IllegalArgumentException(
                where
                    + ": inner chunks "
                    + Arrays.toString(innerChunks)
                    + " must divide the shard shape "
                    + Arrays.toString(ch));
          }
        }
        CodecPipeline innerPipe = new CodecPipeline(transposes, ab, bytes);
        ab = new ShardingCodec(dtype, fill, inner, innerPipe, checksum, indexAtStart);
        transposes = List.of();
        bytes = List.of();
      } else if (indexAtStart) {
        throw new IllegalArgumentException(where + ": shardIndexAtStart needs innerChunks");
      }
      codec = new CodecPipeline(transposes, ab, bytes);
    }
    return new ArrayMetadata(
        zarrFormat,
        shape.clone(),
        ich,
        dtype,
        fill,
        attributes,
        dimensionNames,
        sep,
        zarrFormat == 3 && !v2Keys,
        codec);
  }

  static void writeMetadata(Store store, String path, ArrayMetadata m) {
    if (m.zarrFormat == 3) {
      store.put(Keys.join(path, "zarr.json"), Json.write(m.toV3Json()));
    } else {
      Map<String, Object> attrs = m.v2Attributes();
      if (!attrs.isEmpty()) {
        store.put(Keys.join(path, ".zattrs"), Json.write(attrs));
      } else {
        store.delete(Keys.join(path, ".zattrs"));
      }
      store.put(Keys.join(path, ".zarray"), Json.write(m.toV2Json()));
    }
  }
}
