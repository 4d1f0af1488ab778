package dev.cubed.zarr;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.zarr.codec.BytesCodec;
import dev.cubed.zarr.codec.ChunkElements;
import dev.cubed.zarr.codec.CodecPipeline;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.codec.ShardingCodec;
import dev.cubed.zarr.codec.V2Codec;
import dev.cubed.zarr.metadata.ArrayMetadata;
import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.Json;
import dev.cubed.zarr.store.Keys;
import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.Stores;
import java.io.ObjectStreamException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Zarr array (format 2 or 3) in a {@link Store}: immutable metadata plus the store. Thread-safe;
 * different chunks may be written concurrently from many threads or processes. Serializable (the
 * metadata travels as its JSON document).
 *
 * <p>Chunk coordinates index the chunk grid ({@link #chunkGridShape()}); the chunk shape of a
 * sharded v3 array is the shard shape (the unit of storage), see {@link #innerChunks()}. Chunks at
 * the array's upper edges are clipped ({@link #chunkShape(long...)}); they are stored padded with
 * the fill value, as zarr-python does. Missing chunks read as the fill value.
 *
 * <p>Each stored chunk is replaced atomically (see {@link Store#put}); a write spanning several
 * chunks stores them one by one, so a crash may leave some of them written; rewriting the same data
 * is idempotent (the resume contract). Region writes that cover a chunk partially read, modify and
 * rewrite it: two writers must not write overlapping parts of one chunk concurrently.
 */
public final class ZarrArray implements Serializable {
  private static final long serialVersionUID = 1L;

  private final transient Store store;
  private final transient String path;
  private final transient ArrayMetadata meta;
  private final transient EmptyChunks emptyChunks;

  /** True if a missing chunk is an error on read (intermediates), not the fill value. */
  private final transient boolean missingIsError;

  /** Non-null while the array is only described, not yet created ({@link #isDeferred()}). */
  private final transient DeferredCreation deferred;

  /**
   * The attribute a compute sets on each target while it writes it and removes when it succeeded:
   * an array carrying it may be missing chunks that read as fill values.
   */
  public static final String INCOMPLETE_ATTRIBUTE = "cubed:incomplete";

  /** The text of {@link #INCOMPLETE_ATTRIBUTE} set by computes. */
  public static final String INCOMPLETE_TEXT =
      "written by a compute that has not finished (or"
          + " failed); chunks may be missing and would read as fill values. Rerun the compute (with"
          + " --resume where offered) or delete this array";

  ZarrArray(Store store, String path, ArrayMetadata meta, EmptyChunks emptyChunks) {
    this(store, path, meta, emptyChunks, false, null);
  }

  ZarrArray(
      Store store,
      String path,
      ArrayMetadata meta,
      EmptyChunks emptyChunks,
      boolean missingIsError) {
    this(store, path, meta, emptyChunks, missingIsError, null);
  }

  private ZarrArray(
      Store store,
      String path,
      ArrayMetadata meta,
      EmptyChunks emptyChunks,
      boolean missingIsError,
      DeferredCreation deferred) {
    this.store = store;
    this.path = path;
    this.meta = meta;
    this.emptyChunks = emptyChunks;
    this.missingIsError = missingIsError;
    this.deferred = deferred;
  }

  /** A described, not yet created array (see {@link ZarrArrayBuilder#buildDeferred()}). */
  static ZarrArray deferred(
      Store store, String path, ArrayMetadata meta, EmptyChunks emptyChunks, boolean overwrite) {
    return new ZarrArray(store, path, meta, emptyChunks, false, new DeferredCreation(overwrite));
  }

  /**
   * True if this array is only described ({@link ZarrArrayBuilder#buildDeferred()}): nothing is
   * stored until {@link #createInStore(boolean)} runs, which a compute does after its checks.
   */
  public boolean isDeferred() {
    return deferred != null;
  }

  /**
   * Writes this array's metadata into its store, marked incomplete ({@link #INCOMPLETE_ATTRIBUTE}),
   * and returns the array as stored: an in-place creation (a compute writes a described target
   * through a {@link StagedWrite} instead). For a deferred array the replacement rules of {@link
   * ZarrArrayBuilder#overwrite()} apply (its overwrite flag; a node this same description created
   * earlier is replaced). For an existing array (not deferred) only the mark is written.
   *
   * <p>Resume contract: with {@code resume} an existing array at the path whose shape, chunks and
   * dtype match is kept with its chunks (only marked incomplete), whether it was incomplete or not;
   * a mismatching one falls back to the rules above.
   *
   * @throws IllegalArgumentException if the path holds data that may not be replaced
   */
  public ZarrArray createInStore(boolean resume) {
    return createInStore(resume, false);
  }

  /**
   * Checks that {@link #createInStore(boolean)} would be allowed, changing nothing.
   *
   * @throws IllegalArgumentException if the path holds data that may not be replaced
   */
  public void checkCreatable(boolean resume) {
    createInStore(resume, true);
  }

  private ZarrArray createInStore(boolean resume, boolean checkOnly) {
    if (deferred == null) {
      return checkOnly ? this : withAttributes(ZarrNodes.incompleteAttributes(meta.attributes));
    }
    return deferred.create(this, resume, checkOnly);
  }

  /** The overwrite flag of a deferred array, or true once this description created its array. */
  boolean deferredOverwrite() {
    return deferred != null && deferred.overwrite();
  }

  /** Records that this deferred description's array now exists (it may replace it later). */
  void markDeferredCreated() {
    if (deferred != null) {
      deferred.markCreated();
    }
  }

  /** This array's description at another location (deferred: nothing is stored). */
  ZarrArray relocated(Store where, String at) {
    return new ZarrArray(where, at, meta, emptyChunks, false, new DeferredCreation(false));
  }

  /**
   * True if the array carries {@link #INCOMPLETE_ATTRIBUTE}: a compute writing it did not finish.
   */
  public boolean isIncomplete() {
    return meta.attributes.containsKey(INCOMPLETE_ATTRIBUTE);
  }

  /** This array with {@link #INCOMPLETE_ATTRIBUTE} removed (metadata rewritten atomically). */
  public ZarrArray markComplete() {
    Map<String, Object> attrs = new LinkedHashMap<>(meta.attributes);
    attrs.remove(INCOMPLETE_ATTRIBUTE);
    return withAttributes(attrs);
  }

  // ------------------------------------------------------------------ opening

  /**
   * Opens the array at {@code path} ("" for the store root), detecting v3 ({@code zarr.json}) or v2
   * ({@code .zarray}).
   *
   * @throws dev.cubed.zarr.store.ZarrFormatException if there is no array there, or its metadata is
   *     invalid
   */
  public static ZarrArray open(Store store, String path) {
    return ZarrOpen.open(store, path);
  }

  /** Opens the array at the root of a store location ({@link Stores#open}). */
  public static ZarrArray open(String uriOrPath) {
    return open(Stores.open(uriOrPath), "");
  }

  /**
   * Starts describing a new array at {@code path} of a store; {@link ZarrArrayBuilder#build()}
   * writes it.
   */
  public static ZarrArrayBuilder create(Store store, String path) {
    return new ZarrArrayBuilder(store, Keys.normalizePath(path));
  }

  static String describe(Store store, String path, String doc) {
    return "zarr array '" + path + "' (" + Keys.join(path, doc) + " in " + store.describe() + ")";
  }

  /** This array with another empty-chunk policy for writes (default {@link EmptyChunks#SKIP}). */
  public ZarrArray withEmptyChunks(EmptyChunks policy) {
    return new ZarrArray(store, path, meta, policy, missingIsError, deferred);
  }

  /**
   * This array as an intermediate the engine writes completely before anything reads it: every
   * chunk is stored (fill-only ones too) and reading a chunk that is not stored throws {@link
   * MissingChunkException} instead of returning the fill value, so a task that reads before its
   * producer finished fails loudly rather than computing with zeros.
   */
  public ZarrArray asIntermediate() {
    return new ZarrArray(store, path, meta, EmptyChunks.WRITE, true);
  }

  /** True if reading a missing chunk throws (see {@link #asIntermediate()}). */
  public boolean isIntermediate() {
    return missingIsError;
  }

  /** This array with its attributes replaced (metadata rewritten atomically). */
  public ZarrArray withAttributes(Map<String, ?> attributes) {
    ArrayMetadata m = meta.withAttributes(attributes);
    ZarrArrayBuilder.writeMetadata(store, path, m);
    return new ZarrArray(store, path, m, emptyChunks, missingIsError, null);
  }

  // ------------------------------------------------------------------ metadata

  /** The array's shape. */
  public long[] shape() {
    return meta.shape.clone();
  }

  /** Number of dimensions. */
  public int ndim() {
    return meta.shape.length;
  }

  /** The chunk shape (the shard shape for sharded arrays). */
  public long[] chunks() {
    long[] c = new long[meta.chunks.length];
    for (int i = 0; i < c.length; i++) {
      c[i] = meta.chunks[i];
    }
    return c;
  }

  /**
   * The strided selection {@code start[i] + k * step[i]} for {@code k < count[i]} on every axis
   * (steps at least 1), as a new dense array of shape {@code count}: each stored chunk it touches
   * is read once; a local {@code bytes} + zstd, gzip or zlib chunk ({@link #readsBoxes()}) is
   * decoded only up to the selection's last element in it, and only the selected elements are
   * copied, straight into the result. Holds beside the result what {@link #regionReadBytes()} says.
   *
   * @throws IllegalArgumentException if the ranks differ, a step is below 1 or a selected position
   *     is outside the array
   */
  public NDArray readStrided(long[] start, long[] step, long[] count) {
    return ZarrRegions.readStrided(this, start, step, count);
  }

  /**
   * Bytes a read of a box ({@link #read(long[], long[])}) holds beside the box it returns, at most:
   * the decoder's per-thread slices when each chunk decodes straight into the result (a local
   * {@code bytes} + zstd, gzip or zlib array), else one stored chunk (a whole shard for a sharded
   * array) decoded and its stored bytes, taken as large as the decoded ones.
   */
  public long regionReadBytes() {
    if (readsBoxes()) {
      return dev.cubed.zarr.codec.StreamedDecode.SLICE_BYTES;
    }
    long n = dtype().itemSize();
    for (long c : chunks()) {
      n *= c;
    }
    return 2 * n;
  }

  /**
   * True if a read of a box ({@link #read(long[], long[])}) decodes each chunk it touches straight
   * into the result, only up to the box's last byte: a local {@code bytes} + zstd, gzip or zlib
   * array (zarr-python 3's default). Otherwise a box read reads its chunks whole and cuts them.
   */
  public boolean readsBoxes() {
    return ZarrChunks.readsInto(this);
  }

  /** The inner chunk shape of a sharded v3 array, else {@link #chunks()}. */
  public long[] innerChunks() {
    ShardingCodec s = sharding();
    return s == null ? chunks() : s.innerShapeLong();
  }

  ShardingCodec sharding() {
    return meta.codec instanceof CodecPipeline p && p.arrayBytes instanceof ShardingCodec s
        ? s
        : null;
  }

  /** The element type. */
  public DType dtype() {
    return meta.dtype;
  }

  /** The fill value: Boolean, Long (BigInteger for uint64 above 2^63-1), Double or Complex. */
  public Object fillValue() {
    return meta.fillValue;
  }

  /** 2 or 3. */
  public int zarrFormat() {
    return meta.zarrFormat;
  }

  /** The user attributes (read-only; without v2's {@code _ARRAY_DIMENSIONS}). */
  public Map<String, Object> attributes() {
    return Collections.unmodifiableMap(meta.attributes);
  }

  /**
   * The dimension names (v3 {@code dimension_names} or v2 {@code _ARRAY_DIMENSIONS}); an empty list
   * if none are declared; entries may be null in v3.
   */
  public List<String> dimensionNames() {
    return meta.dimensionNames == null
        ? List.of()
        : Collections.unmodifiableList(new ArrayList<>(meta.dimensionNames));
  }

  /**
   * The codec chain as metadata documents (v3 codecs; v2: one map with order, dtype, compressor).
   */
  public List<Map<String, Object>> codecs() {
    return meta.codec.describe();
  }

  /**
   * The compressor of the chunks (of the inner chunks for sharded arrays), as the value {@link
   * ZarrArrayBuilder#compression} takes, so a copy can keep it; {@link Compression#none()} if there
   * is none. Checksums, transposes and sharding are not part of it (see {@link #codecs()}).
   */
  public Compression compression() {
    List<BytesCodec> bytes = List.of();
    if (meta.codec instanceof V2Codec v) {
      bytes = v.compressor == null ? List.of() : List.of(v.compressor);
    } else if (meta.codec instanceof CodecPipeline p) {
      bytes = p.arrayBytes instanceof ShardingCodec s ? s.innerCodec.bytesCodecs : p.bytesCodecs;
    }
    for (BytesCodec c : bytes) {
      Compression k = Compression.of(c);
      if (k != null) {
        return k;
      }
    }
    return Compression.none();
  }

  /** The array's path in its store ("" for the root). */
  public String path() {
    return path;
  }

  /** The store. */
  public Store store() {
    return store;
  }

  /** The empty-chunk policy of writes through this instance. */
  public EmptyChunks emptyChunks() {
    return emptyChunks;
  }

  /** The metadata document as written (zarr.json or .zarray), as JSON text. */
  public String metadataJson() {
    return new String(
        Json.write(meta.zarrFormat == 3 ? meta.toV3Json() : meta.toV2Json()),
        StandardCharsets.UTF_8);
  }

  ArrayMetadata metadata() {
    return meta;
  }

  /**
   * The metadata document without the engine's own bookkeeping (the {@link #INCOMPLETE_ATTRIBUTE}
   * mark): what identifies this array's content, so that a plan writing to a target has the same
   * identity before a crash (target unmarked) and on its resume (target marked incomplete).
   */
  public String identityJson() {
    if (!isIncomplete()) {
      return metadataJson();
    }
    Map<String, Object> attrs = new LinkedHashMap<>(meta.attributes);
    attrs.remove(INCOMPLETE_ATTRIBUTE);
    ArrayMetadata m = meta.withAttributes(attrs);
    return new String(
        Json.write(m.zarrFormat == 3 ? m.toV3Json() : m.toV2Json()), StandardCharsets.UTF_8);
  }

  // ------------------------------------------------------------------ chunk grid

  /** The number of chunks along each dimension ({@code ceil(shape / chunks)}). */
  public long[] chunkGridShape() {
    long[] g = new long[meta.shape.length];
    for (int i = 0; i < g.length; i++) {
      g[i] = (meta.shape[i] + meta.chunks[i] - 1) / meta.chunks[i];
    }
    return g;
  }

  /** The total number of chunks of the grid. */
  public long chunkCount() {
    long n = 1;
    for (long g : chunkGridShape()) {
      n = Math.multiplyExact(n, g);
    }
    return n;
  }

  /** The shape of a chunk, clipped at the array's upper edges. */
  public long[] chunkShape(long... chunkCoords) {
    ZarrChunks.checkCoords(this, "chunkShape", chunkCoords);
    long[] s = new long[chunkCoords.length];
    for (int i = 0; i < s.length; i++) {
      s[i] = Math.min(meta.chunks[i], meta.shape[i] - chunkCoords[i] * meta.chunks[i]);
    }
    return s;
  }

  /** The store key of a chunk (e.g. {@code "a/c/0/1"} or {@code "a/0.1"}). */
  public String chunkKey(long... chunkCoords) {
    ZarrChunks.checkCoords(this, "chunkKey", chunkCoords);
    return Keys.join(path, meta.chunkKey(chunkCoords));
  }

  // ------------------------------------------------------------------ chunk I/O

  /**
   * Reads one chunk, clipped to the array; a missing chunk reads as the fill value (for an
   * intermediate, see {@link #asIntermediate()}, it throws).
   *
   * @throws dev.cubed.zarr.store.ZarrFormatException if the stored chunk is truncated or corrupt
   *     (naming its key); a {@link dev.cubed.zarr.codec.ChecksumMismatchException} if its crc32c
   *     checksum does not match; a {@link dev.cubed.zarr.store.ValueTooLargeException}, before it
   *     is read, if it is larger than {@link #maxStoredChunkBytes()}
   * @throws MissingChunkException if this is an intermediate and the chunk is not stored
   */
  public NDArray readChunk(long... chunkCoords) {
    return ZarrChunks.read(this, chunkCoords);
  }

  /**
   * The most bytes a stored chunk of this array can take: the decoded size of a full chunk plus its
   * codecs' worst-case growth and a fixed slack ({@link
   * dev.cubed.zarr.codec.ChunkCodec#STORED_SLACK}); for sharded arrays, the shard's index and every
   * inner chunk's bound. A chunk read never holds more of a stored value than this; a larger value
   * is refused before it is read.
   */
  public long maxStoredChunkBytes() {
    return meta.codec.maxStoredSize(chunks());
  }

  /**
   * A reader of runs of chunk {@code chunkCoords}'s elements that decodes only the codec blocks
   * they touch, keeping up to {@code cacheBlocks} decoded, or (bytes + zstd, {@link
   * #streamsRegions()}) decodes the chunk forward as far as the runs reach ({@link ChunkReader});
   * null where the chunk must be read whole ({@link #readsRegions()} and {@link #streamsRegions()}
   * false, or a chunk this project's decoder cannot read block by block or forward). A chunk not
   * stored reads as the fill value (an intermediate's: {@link MissingChunkException}, as {@link
   * #readChunk}).
   */
  public ChunkReader chunkReader(long[] chunkCoords, int cacheBlocks) {
    ZarrChunks.checkCoords(this, "chunkReader", chunkCoords);
    return readsRegions() || streamsRegions()
        ? ZarrChunks.reader(this, chunkCoords, cacheBlocks)
        : null;
  }

  /**
   * True if chunks can be read from their start as runs of elements in increasing order without
   * their decoded image ({@link #chunkReader}; a run before the previous one decodes the chunk
   * again from its start): {@code bytes} + zstd alone (zarr-python 3's default) in a local
   * directory.
   */
  public boolean streamsRegions() {
    return store instanceof FileSystemStore && meta.codec.decodesForward();
  }

  /**
   * True if chunks can be read a few codec blocks at a time ({@link #chunkReader}): the default
   * codec in a local directory.
   */
  public boolean readsRegions() {
    return store instanceof FileSystemStore && meta.codec.decodesBlockwise();
  }

  /**
   * For the memory model: chunk-sized buffers a {@link #readChunk} holds at once besides the
   * decoded array: none in a local directory for Blosc-LZ4 (the default) and Blosc-zstd (decoded
   * from the file a block at a time, straight into the array) and for bytes + zstd, gzip or zlib
   * (zarr-python 3's default; decoded from the file a slice at a time), else the codec's (1 for the
   * default Blosc-LZ4: the stored bytes) plus the store's transport buffers ({@link
   * Store#bufferCopies()} - 1).
   */
  public int readCopies() {
    if (store instanceof FileSystemStore && meta.codec.decodesStreamed()) {
      return 0; // decoded from the file a block or a slice at a time (ChunkFiles)
    }
    return meta.codec.readCopies() + store.bufferCopies() - 1;
  }

  /**
   * For the memory model: chunk-sized buffers a {@link #writeChunk} holds at once besides the array
   * written: the codec's (1 for the default Blosc-LZ4, which encodes straight from the array into
   * one output buffer, padding edge chunks on the fly) plus the store's transport buffers ({@link
   * Store#bufferCopies()} - 1).
   */
  public int writeCopies() {
    return meta.codec.writeCopies() + store.bufferCopies() - 1;
  }

  /**
   * Writes one chunk. {@code data} must have the array's dtype and the chunk's clipped shape. With
   * {@link EmptyChunks#SKIP} a chunk that is all fill value is not stored and a stored one deleted.
   *
   * @throws IllegalArgumentException on a dtype or shape mismatch (nothing is written)
   */
  public void writeChunk(long[] chunkCoords, NDArray data) {
    ZarrChunks.write(this, chunkCoords, data);
  }

  /**
   * Writes one chunk whose elements (the chunk clipped to the array, C order) {@code src} makes a
   * run at a time, as {@link #writeChunk(long[], NDArray)} would write them: with a codec that
   * streams ({@link #streamsWrites()}) the chunk never exists whole (one run and the encoded output
   * do); otherwise the chunk is made from its runs first. With {@link EmptyChunks#SKIP} a chunk
   * that is all fill value is not stored and a stored one deleted. Nothing is stored if {@code src}
   * fails.
   *
   * @throws Exception what {@code src} threw
   */
  public void writeChunk(long[] chunkCoords, ChunkElements src) throws Exception {
    ZarrChunks.write(this, chunkCoords, src);
  }

  /**
   * True if {@link #writeChunk(long[], ChunkElements)} encodes a chunk while its elements are made
   * (the default Blosc-LZ4 codec), so a write holds one encoded chunk, not the chunk; false if the
   * chunk is made whole first.
   */
  public boolean streamsWrites() {
    return meta.codec.encodesRuns();
  }

  /** True if the chunk is stored. */
  public boolean chunkExists(long... chunkCoords) {
    ZarrChunks.checkCoords(this, "chunkExists", chunkCoords);
    return store.exists(Keys.join(path, meta.chunkKey(chunkCoords)));
  }

  /** The number of stored chunk keys of this array (used to resume interrupted writes). */
  public long chunksWritten() {
    return ZarrChunks.written(this);
  }

  // ------------------------------------------------------------------ regions

  /**
   * Reads the box {@code [start, start + shape)}, spanning any number of chunks. From a local
   * directory with the {@code bytes} serializer (C order) and one zstd, gzip or zlib codec, each
   * chunk's part is decoded straight into the result and the chunk's stream only up to the part's
   * last byte (its C-order position in the chunk), so the read holds the result alone (plus 512 KiB
   * of per-thread buffers); bytes of a chunk past the part are not decoded, so corruption there is
   * not seen by this read. Other chunks are read whole ({@link #readChunk}, holding one chunk at a
   * time besides the result; a shard reads only the inner chunks the box touches).
   *
   * @throws IllegalArgumentException if the box is not inside the array
   */
  public NDArray read(long[] start, long[] shape) {
    return ZarrRegions.read(this, start, shape);
  }

  /** Reads the whole array. */
  public NDArray read() {
    return read(new long[meta.shape.length], meta.shape);
  }

  /**
   * Writes {@code data} (the array's dtype) at {@code start}. Chunks covered completely are
   * replaced; partially covered chunks are read, modified and rewritten.
   *
   * @throws IllegalArgumentException on a dtype mismatch or a box outside the array (nothing is
   *     written)
   */
  public void write(long[] start, NDArray data) {
    ZarrRegions.write(this, start, data);
  }

  // ------------------------------------------------------------------ serialization

  private Object writeReplace() throws ObjectStreamException {
    return ZarrArrayProxy.of(this);
  }

  /**
   * The serialized form of a {@link ZarrArray} (what {@code writeReplace} gives), seen from outside
   * so that content hashing (plan names) can identify an array by its store, path and {@link
   * #identityJson()} rather than by metadata that carries the engine's incomplete mark.
   */
  public interface SerializedForm {
    /** The array's store. */
    Store store();

    /** The array's path in its store. */
    String path();

    /** {@link ZarrArray#identityJson()} of the array. */
    String identity();
  }

  @Override
  public String toString() {
    return "ZarrArray(v"
        + meta.zarrFormat
        + " '"
        + path
        + "' "
        + meta.dtype
        + " shape "
        + Shapes.format(meta.shape)
        + " chunks "
        + Shapes.format(meta.chunks)
        + " in "
        + store.describe()
        + ")";
  }
}
