package dev.cubed.zarr;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One Zarr array (format 2 or 3) in a {@link Store}: its metadata and chunk I/O. Instances are
 * immutable and thread-safe; many threads or processes may write different chunks at once.
 *
 * <p>Edge chunks are exchanged in their clipped shape ({@link #chunkShape}); they are padded with
 * the fill value when encoded, as zarr-python does. Chunks never written read as the fill value.
 */
public final class ZarrArray implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Whether chunks that hold only the fill value are stored. */
  public enum EmptyChunks {
    /** Store them (so every written chunk is counted: intermediate arrays use this). */
    WRITE,
    /** Do not store them, and delete a previously stored chunk (zarr-python 3's default). */
    SKIP
  }

  private final Store store;
  private final String path;
  private final ArrayMetadata meta;
  private final EmptyChunks emptyChunks;

  private ZarrArray(Store store, String path, ArrayMetadata meta, EmptyChunks emptyChunks) {
    this.store = store;
    this.path = normalize(path);
    this.meta = meta;
    this.emptyChunks = emptyChunks;
  }

  static String normalize(String path) {
    String p = path == null ? "" : path.replaceAll("^/+|/+$", "");
    if (!p.isEmpty()) {
      Store.checkKey(p);
    }
    return p;
  }

  private String key(String name) {
    return path.isEmpty() ? name : path + "/" + name;
  }

  /**
   * Opens an existing array (format detected: {@code zarr.json} for v3, {@code .zarray} for v2).
   *
   * @throws ZarrException if no array is there or its metadata is invalid
   */
  public static ZarrArray open(Store store, String path) {
    String p = normalize(path);
    String where = store.describe() + (p.isEmpty() ? "" : "/" + p);
    String prefix = p.isEmpty() ? "" : p + "/";
    byte[] v3 = store.get(prefix + "zarr.json");
    if (v3 != null) {
      return new ZarrArray(store, p, MetadataJson.parseV3(v3, where), EmptyChunks.SKIP);
    }
    byte[] v2 = store.get(prefix + ".zarray");
    if (v2 != null) {
      return new ZarrArray(store, p,
          MetadataJson.parseV2(v2, store.get(prefix + ".zattrs"), where), EmptyChunks.SKIP);
    }
    throw new ZarrException(where + ": no Zarr array here (neither zarr.json nor .zarray found)");
  }

  /** Opens an array by URI or path (see {@link Stores#open}); the array is at the store's root. */
  public static ZarrArray open(String uriOrPath) {
    return open(Stores.open(uriOrPath), "");
  }

  /** Starts creating an array at a path of a store. */
  public static Builder create(Store store, String path) {
    return new Builder(store, normalize(path));
  }

  /** The same array with another policy for chunks holding only the fill value. */
  public ZarrArray withEmptyChunks(EmptyChunks policy) {
    return new ZarrArray(store, path, meta, policy);
  }

  // ---------------------------------------------------------------- metadata

  public ArrayMetadata metadata() {
    return meta;
  }

  public Store store() {
    return store;
  }

  public String path() {
    return path;
  }

  public long[] shape() {
    return meta.shape();
  }

  public long[] chunks() {
    return meta.chunks();
  }

  public DType dtype() {
    return meta.dtype();
  }

  public Object fillValue() {
    return meta.fillValue();
  }

  public int zarrFormat() {
    return meta.zarrFormat();
  }

  public Map<String, Object> attributes() {
    return meta.attributes();
  }

  public int ndim() {
    return meta.shape().length;
  }

  public long[] chunkGridShape() {
    return meta.chunkGridShape();
  }

  /** Total number of chunks of the grid. */
  public long chunkCount() {
    return Shapes.size(chunkGridShape());
  }

  /** The shape of one chunk, clipped at the array's edges. */
  public long[] chunkShape(long... coords) {
    checkCoords(coords);
    long[] shape = meta.shape();
    long[] chunks = meta.chunks();
    long[] s = new long[shape.length];
    for (int i = 0; i < s.length; i++) {
      s[i] = Math.min(chunks[i], shape[i] - coords[i] * chunks[i]);
    }
    return s;
  }

  private void checkCoords(long[] coords) {
    long[] g = chunkGridShape();
    if (coords.length != g.length) {
      throw new IllegalArgumentException(where() + ": chunk coordinates " + Arrays.toString(coords)
          + " must have " + g.length + " entries");
    }
    for (int i = 0; i < g.length; i++) {
      if (coords[i] < 0 || coords[i] >= g[i]) {
        throw new IllegalArgumentException(where() + ": chunk " + Arrays.toString(coords)
            + " is outside the chunk grid " + Shapes.format(g));
      }
    }
  }

  String where() {
    return store.describe() + (path.isEmpty() ? "" : "/" + path);
  }

  /** The store key of a chunk. */
  public String chunkKey(long... coords) {
    StringBuilder b = new StringBuilder();
    String sep = meta.separator();
    if (meta.v2KeyEncoding()) {
      if (coords.length == 0) {
        b.append('0');
      }
      for (int i = 0; i < coords.length; i++) {
        b.append(i == 0 ? "" : sep).append(coords[i]);
      }
    } else {
      b.append('c');
      for (long c : coords) {
        b.append(sep).append(c);
      }
    }
    return key(b.toString());
  }

  // ---------------------------------------------------------------- chunk I/O

  /** True if the chunk is stored (chunks never written, or skipped as empty, are not). */
  public boolean chunkExists(long... coords) {
    checkCoords(coords);
    return store.exists(chunkKey(coords));
  }

  /** Number of chunks stored for this array. */
  public long chunksWritten() {
    long n = 0;
    String prefix = path.isEmpty() ? "" : path + "/";
    for (String k : store.list(path)) {
      String rest = k.substring(prefix.length());
      if (!rest.equals("zarr.json") && !rest.startsWith(".z") && isChunkKey(rest)) {
        n++;
      }
    }
    return n;
  }

  private boolean isChunkKey(String rest) {
    if (meta.v2KeyEncoding()) {
      return rest.matches("[0-9]+([./][0-9]+)*");
    }
    return rest.equals("c") || rest.matches("c([./][0-9]+)+");
  }

  /** Reads one chunk in its clipped shape; a chunk never written gives the fill value. */
  public NDArray readChunk(long... coords) {
    long[] clipped = chunkShape(coords);
    String k = chunkKey(coords);
    byte[] enc = store.get(k);
    if (enc == null) {
      return NDArray.full(meta.dtype(), meta.fillValue(), clipped);
    }
    NDArray full = ChunkCodec.decode(meta, enc, where() + " chunk '" + k + "'");
    return Arrays.equals(clipped, meta.chunks()) ? full : full.getRegion(new long[clipped.length],
        clipped);
  }

  /**
   * Writes one chunk. {@code data} must have the array's dtype and the chunk's clipped shape.
   *
   * @throws IllegalArgumentException on a dtype or shape mismatch (nothing is written)
   */
  public void writeChunk(long[] coords, NDArray data) {
    long[] clipped = chunkShape(coords);
    if (data.dtype() != meta.dtype()) {
      throw new IllegalArgumentException(where() + ": chunk " + Arrays.toString(coords) + " has dtype "
          + data.dtype() + " but the array's dtype is " + meta.dtype() + "; convert with astype");
    }
    if (!Arrays.equals(clipped, data.shape())) {
      throw new IllegalArgumentException(where() + ": chunk " + Arrays.toString(coords)
          + " must have shape " + Shapes.format(clipped) + ", got " + Shapes.format(data.shape()));
    }
    String k = chunkKey(coords);
    if (emptyChunks == EmptyChunks.SKIP && ChunkCodec.isAllFill(data, meta.fillValue())) {
      store.delete(k);
      return;
    }
    NDArray full = data;
    if (!Arrays.equals(clipped, meta.chunks())) {
      full = NDArray.full(meta.dtype(), meta.fillValue(), meta.chunks());
      full.setRegion(new long[clipped.length], data);
    }
    store.put(k, ChunkCodec.encode(meta, full));
  }

  // ---------------------------------------------------------------- regions

  /**
   * Reads the box {@code [start, start + shape)}, which may span many chunks.
   *
   * @throws IllegalArgumentException if the box is outside the array
   */
  public NDArray read(long[] start, long[] shape) {
    checkBox("read", start, shape);
    NDArray out = NDArray.zeros(meta.dtype(), shape);
    forEachChunk(start, shape, (coords, chunkStart, inChunk, inOut, box) -> {
      NDArray c = readChunk(coords);
      NDArray.copyBox(c.data(), c.shape(), inChunk, out.data(), shape, inOut, box, mult());
    });
    return out;
  }

  /** Reads the whole array. */
  public NDArray read() {
    return read(new long[ndim()], shape());
  }

  /**
   * Writes a box starting at {@code start}. Chunks it covers partly are read, updated and written
   * back (callers writing disjoint boxes that share a chunk must not do so concurrently).
   */
  public void write(long[] start, NDArray data) {
    if (data.dtype() != meta.dtype()) {
      throw new IllegalArgumentException(where() + ": data of dtype " + data.dtype()
          + " cannot be written to an array of dtype " + meta.dtype() + "; convert with astype");
    }
    long[] shape = data.shape();
    checkBox("write", start, shape);
    forEachChunk(start, shape, (coords, chunkStart, inChunk, inData, box) -> {
      long[] cs = chunkShape(coords);
      NDArray chunk;
      if (Arrays.equals(box, cs)) {
        chunk = NDArray.zeros(meta.dtype(), cs);
      } else {
        chunk = readChunk(coords);
      }
      NDArray.copyBox(data.data(), shape, inData, chunk.data(), cs, inChunk, box, mult());
      writeChunk(coords, chunk);
    });
  }

  private int mult() {
    return meta.dtype().isComplex() ? 2 : 1;
  }

  private void checkBox(String fn, long[] start, long[] shape) {
    long[] s = meta.shape();
    if (start.length != s.length || shape.length != s.length) {
      throw new IllegalArgumentException(where() + ": " + fn + " box must have " + s.length
          + " dimensions");
    }
    for (int i = 0; i < s.length; i++) {
      if (start[i] < 0 || shape[i] < 0 || start[i] + shape[i] > s[i]) {
        throw new IllegalArgumentException(where() + ": " + fn + " box at "
            + Arrays.toString(start) + " of shape " + Shapes.format(shape)
            + " is outside the array of shape " + Shapes.format(s));
      }
    }
  }

  private interface ChunkVisitor {
    void visit(long[] coords, long[] chunkStart, long[] inChunk, long[] inBox, long[] box);
  }

  private void forEachChunk(long[] start, long[] shape, ChunkVisitor v) {
    int nd = start.length;
    if (Shapes.size(shape) == 0) {
      return;
    }
    long[] chunks = meta.chunks();
    long[] lo = new long[nd];
    long[] hi = new long[nd];
    for (int i = 0; i < nd; i++) {
      lo[i] = start[i] / chunks[i];
      hi[i] = (start[i] + shape[i] - 1) / chunks[i];
    }
    long[] c = lo.clone();
    while (true) {
      long[] cStart = new long[nd];
      long[] inChunk = new long[nd];
      long[] inBox = new long[nd];
      long[] box = new long[nd];
      for (int i = 0; i < nd; i++) {
        cStart[i] = c[i] * chunks[i];
        long a = Math.max(start[i], cStart[i]);
        long b = Math.min(start[i] + shape[i], cStart[i] + chunks[i]);
        inChunk[i] = a - cStart[i];
        inBox[i] = a - start[i];
        box[i] = b - a;
      }
      v.visit(c.clone(), cStart, inChunk, inBox, box);
      int k = nd - 1;
      while (k >= 0) {
        if (++c[k] <= hi[k]) {
          break;
        }
        c[k] = lo[k];
        k--;
      }
      if (k < 0) {
        return;
      }
    }
  }

  @Override
  public String toString() {
    return "ZarrArray(" + where() + ", " + meta + ")";
  }

  // ---------------------------------------------------------------- builder

  /** Creates an array: set the fields, then {@link #build()} writes the metadata. */
  public static final class Builder {
    private final Store store;
    private final String path;
    private long[] shape;
    private long[] chunks;
    private DType dtype = DType.FLOAT64;
    private Object fill;
    private int format = 3;
    private List<Compressor> compressors = List.of(Compressors.zstd(1));
    private boolean fortran;
    private boolean bigEndian;
    private String separator;
    private Map<String, Object> attributes = new LinkedHashMap<>();
    private List<String> dimensionNames;
    private EmptyChunks emptyChunks = EmptyChunks.SKIP;
    private boolean overwrite;

    private Builder(Store store, String path) {
      this.store = Objects.requireNonNull(store);
      this.path = path;
    }

    public Builder shape(long... shape) {
      this.shape = shape.clone();
      return this;
    }

    public Builder chunks(long... chunks) {
      this.chunks = chunks.clone();
      return this;
    }

    public Builder chunks(int... chunks) {
      this.chunks = Arrays.stream(chunks).asLongStream().toArray();
      return this;
    }

    public Builder dtype(DType dtype) {
      this.dtype = dtype;
      return this;
    }

    /** The fill value (Boolean, Number or Complex); default 0 / false. */
    public Builder fillValue(Object fill) {
      this.fill = fill;
      return this;
    }

    /** 2 or 3 (default 3). */
    public Builder zarrFormat(int format) {
      if (format != 2 && format != 3) {
        throw new IllegalArgumentException("zarr format must be 2 or 3, got " + format);
      }
      this.format = format;
      return this;
    }

    /** Bytes-to-bytes codecs in encoding order; none for no compression. Default zstd level 1. */
    public Builder compressors(Compressor... cs) {
      this.compressors = List.of(cs);
      return this;
    }

    /** Stores chunks in Fortran (column-major) order. */
    public Builder fortranOrder() {
      this.fortran = true;
      return this;
    }

    /** Encodes elements big-endian. */
    public Builder bigEndian() {
      this.bigEndian = true;
      return this;
    }

    /** Chunk key separator ("." or "/"); default "." for v2 and "/" for v3. */
    public Builder separator(String sep) {
      if (!sep.equals(".") && !sep.equals("/")) {
        throw new IllegalArgumentException("separator must be \".\" or \"/\", got " + sep);
      }
      this.separator = sep;
      return this;
    }

    public Builder attributes(Map<String, Object> attrs) {
      this.attributes = new LinkedHashMap<>(attrs);
      return this;
    }

    public Builder dimensionNames(String... names) {
      this.dimensionNames = List.of(names);
      return this;
    }

    public Builder emptyChunks(EmptyChunks policy) {
      this.emptyChunks = policy;
      return this;
    }

    /** Replaces an existing array at the path (its chunks are deleted). */
    public Builder overwrite() {
      this.overwrite = true;
      return this;
    }

    /** Writes the metadata and returns the array. */
    public ZarrArray build() {
      if (shape == null) {
        throw new IllegalArgumentException("create: shape is required");
      }
      long[] ch = chunks != null ? chunks : defaultChunks(shape, dtype);
      if (format == 2 && compressors.size() > 1) {
        throw new IllegalArgumentException("Zarr v2 allows one compressor, got " + compressors);
      }
      ArrayMetadata m = new ArrayMetadata(format, shape, ch, dtype, bigEndian,
          normalizeFill(fill, dtype), fortran, compressors,
          separator != null ? separator : (format == 2 ? "." : "/"), format == 2, attributes,
          dimensionNames);
      String prefix = path.isEmpty() ? "" : path + "/";
      boolean exists = store.exists(prefix + "zarr.json") || store.exists(prefix + ".zarray");
      if (exists && !overwrite) {
        throw new ZarrException(store.describe() + "/" + path + ": an array already exists here;"
            + " use overwrite() to replace it");
      }
      if (exists) {
        for (String k : store.list(path)) {
          store.delete(k);
        }
      }
      if (format == 3) {
        store.put(prefix + "zarr.json", MetadataJson.writeV3(m));
      } else {
        store.put(prefix + ".zarray", MetadataJson.writeV2(m));
        if (!m.attributes().isEmpty() || m.dimensionNames() != null) {
          store.put(prefix + ".zattrs", MetadataJson.writeV2Attrs(m));
        }
      }
      return new ZarrArray(store, path, m, emptyChunks);
    }

    private static long[] defaultChunks(long[] shape, DType dtype) {
      // about 16 MB per chunk, splitting the leading axes first
      long target = Math.max(1, (16L << 20) / dtype.itemSize());
      long[] c = shape.clone();
      for (int i = 0; i < c.length; i++) {
        c[i] = Math.max(1, c[i]);
      }
      for (int i = 0; i < c.length && Shapes.size(c) > target; i++) {
        long rest = Shapes.size(c) / c[i];
        c[i] = Math.max(1, target / Math.max(1, rest));
      }
      return c;
    }

    private static Object normalizeFill(Object fill, DType dtype) {
      if (fill == null) {
        return MetadataJson.defaultFill(dtype);
      }
      NDArray one = NDArray.scalar(dtype, fill);
      Object v = one.getObject(0);
      if (dtype.isBool() || dtype.isComplex()) {
        return v;
      }
      if (dtype.isInteger()) {
        return one.getLong(0);
      }
      return one.getDouble(0);
    }
  }

  /** Lists the chunk coordinates of the grid in C order (for tests and tools). */
  public List<long[]> allChunkCoords() {
    long[] g = chunkGridShape();
    List<long[]> out = new ArrayList<>();
    long n = Shapes.size(g);
    for (long i = 0; i < n; i++) {
      out.add(Shapes.unravel(g, i));
    }
    return out;
  }
}
