package dev.cubed.zarr.codec;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.zarr.store.ZarrFormatException;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Encodes and decodes a chunk with Blosc-LZ4 (the project's default codec) straight between the
 * chunk's typed array and the compressed bytes, a block at a time, so that a chunk read holds only
 * the stored bytes and the decoded array, and a chunk write only the array and one output buffer
 * (no raw byte image of the chunk, no padded copy of an edge chunk, no trimmed copy of the output).
 * Per 256 KiB block, a write reads the array once (a little-endian float64 chunk not padded is
 * shuffled straight from its {@code double[]}; others are converted a few KiB at a time into a
 * buffer that stays in the L1 cache and shuffled from there), LZ4 reads the block and writes the
 * output; a read decodes LZ4 into the block and unshuffles it straight into the {@code double[]}
 * (others: a few KiB at a time through the small buffer into the array). The memory model counts
 * one buffer copy per chunk read or written ({@link ChunkCodec#readCopies()}); these paths are what
 * make that count true. The bytes are the same as {@code bytes} codec then {@link JavaBlosc}
 * (tested).
 */
public final class BloscStreams {
  private BloscStreams() {}

  /**
   * The stored bytes of {@code data} (a chunk clipped to the array) padded to {@code full} with
   * {@code fill}, as the {@code bytes} codec in {@code order} then {@code blosc} would encode it:
   * the returned buffer's remaining bytes (its backing array may be longer).
   */
  static ByteBuffer encode(
      BloscBytesCodec blosc, NDArray data, long[] full, Object fill, ByteOrder order, boolean crc) {
    int nbytes = Math.toIntExact(Shapes.size(full) * data.dtype().itemSize());
    try (EncodeBuffers bufs = EncodeBuffers.acquire()) {
      return checked(
          JavaBlosc.compress(
              new Elements(data, full, fill, order),
              nbytes,
              blosc.typeSize(),
              blosc.clevel(),
              blosc.shuffle() == Compression.Shuffle.BYTE,
              blosc.blockSize(),
              crc ? 4 : 0,
              bufs),
          crc);
    }
  }

  /**
   * As {@link #encode(BloscBytesCodec, NDArray, long[], Object, ByteOrder, boolean)} without a
   * checksum.
   */
  static ByteBuffer encode(
      BloscBytesCodec blosc, NDArray data, long[] full, Object fill, ByteOrder order) {
    return encode(blosc, data, full, fill, order, false);
  }

  /**
   * As {@link #decode(byte[], int, DType, long[], ByteOrder, String)} of the whole of {@code in}.
   */
  static NDArray decode(byte[] in, DType dtype, long[] shape, ByteOrder order, String where) {
    return decode(in, in.length, dtype, shape, order, where);
  }

  /** {@code b} with a crc32c checksum appended in the room left after it, if {@code crc}. */
  private static ByteBuffer checked(ByteBuffer b, boolean crc) {
    return crc ? Crc32cBytesCodec.append(b.array(), b.remaining()) : b;
  }

  /**
   * The stored bytes of a full chunk of {@code dtype} and shape {@code full} whose elements {@code
   * src} makes a run at a time (see {@link ChunkRuns} for edge chunks), as {@link #encode(
   * BloscBytesCodec, NDArray, long[], Object, ByteOrder)} would store the same elements: the chunk
   * never exists whole, only one run (a codec block) and the output buffer.
   */
  static ByteBuffer encode(
      BloscBytesCodec blosc,
      ChunkElements src,
      DType dtype,
      long[] full,
      ByteOrder order,
      boolean crc) {
    int nbytes = Math.toIntExact(Shapes.size(full) * dtype.itemSize());
    try (EncodeBuffers bufs = EncodeBuffers.acquire()) {
      return checked(
          JavaBlosc.compress(
              new Runs(src, dtype, Shapes.size(full), order),
              nbytes,
              blosc.typeSize(),
              blosc.clevel(),
              blosc.shuffle() == Compression.Shuffle.BYTE,
              blosc.blockSize(),
              crc ? 4 : 0,
              bufs),
          crc);
    }
  }

  /**
   * Decodes a Blosc buffer (the first {@code length} bytes of {@code in}) straight into a new array
   * of {@code shape}, or returns null if this buffer needs another path (native-only variant, or
   * blocks not a whole number of items).
   *
   * @throws ZarrFormatException naming {@code where} if the buffer is corrupt or of the wrong size
   */
  static NDArray decode(
      byte[] in, int length, DType dtype, long[] shape, ByteOrder order, String where) {
    NDArray a = allocate(in, length, dtype, shape, shape, where);
    if (a != null) {
      JavaBlosc.decompress(in, length, new Into(dtype, order, a.data()), where);
    }
    return a;
  }

  /**
   * As {@link #decode(byte[], int, DType, long[], ByteOrder, String)} for a buffer read a block at
   * a time from {@code in} (whose first 16 bytes are {@code header}) of a chunk of shape {@code
   * full}, decoded straight into an array of shape {@code clipped} (an edge chunk clipped to the
   * array, or {@code full}): besides that array only two block-sized arrays are held, never the
   * whole stored chunk nor the full chunk of an edge.
   */
  static NDArray decode(
      byte[] header,
      JavaBlosc.Input in,
      DType dtype,
      long[] full,
      long[] clipped,
      ByteOrder order,
      String where) {
    NDArray a = allocate(header, in.size(), dtype, full, clipped, where);
    if (a != null) {
      JavaBlosc.decompress(header, in, into(a, order, full, clipped), where);
    }
    return a;
  }

  /**
   * The array a buffer of {@code size} bytes with this header decodes into, after checking the
   * header; null if the buffer needs another path.
   */
  private static NDArray allocate(
      byte[] header, long size, DType dtype, long[] shape, long[] clipped, String where) {
    long need = Shapes.size(shape) * dtype.itemSize();
    if (need > Integer.MAX_VALUE - 8 || !JavaBlosc.canDecode(header)) {
      return null;
    }
    long nbytes = BloscBytesCodec.checkHeader(header, size, (int) need, where);
    int bs = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN).getInt(8);
    int item = dtype.itemSize();
    if (bs <= 0 || bs % item != 0) {
      return null;
    }
    if (nbytes != need) {
      throw new ZarrFormatException(
          where
              + ": decoded chunk has "
              + nbytes
              + " bytes, expected "
              + need
              + " ("
              + dtype
              + " chunk of shape "
              + Shapes.format(shape)
              + "; truncated or corrupt chunk)");
    }
    return newArray(dtype, clipped);
  }

  /** A new array of {@code dtype} and {@code shape} (zeros), its backing array allocated here. */
  static NDArray newArray(DType dtype, long[] shape) {
    int slots = dtype.isComplex() ? 2 : 1;
    Object d =
        Array.newInstance(
            NDArray.backingClass(dtype).getComponentType(), (int) Shapes.size(shape) * slots);
    return new NDArray(dtype, shape.clone(), d);
  }

  /**
   * The sink of a decode of a chunk of shape {@code full} (its bytes in C order, items in {@code
   * order}) into {@code a}, an array of shape {@code clipped}: the whole chunk, or the part of an
   * edge chunk inside the array.
   */
  public static JavaBlosc.Sink into(NDArray a, ByteOrder order, long[] full, long[] clipped) {
    return Arrays.equals(full, clipped)
        ? new Into(a.dtype(), order, a.data())
        : new ClipInto(a.dtype(), order, a.data(), full, clipped);
  }

  /**
   * The sink of a decode of an edge chunk into its clipped array: of each run of the full chunk's
   * elements (C order), only those inside the clipped box are kept, a row segment at a time.
   */
  private static final class ClipInto implements JavaBlosc.Sink {
    private final DType dtype;
    private final ByteOrder order;
    private final Object d;
    private final long[] full;
    private final long[] clipped;
    private final int fullLast;
    private final int clipLast;

    ClipInto(DType dtype, ByteOrder order, Object d, long[] full, long[] clipped) {
      this.dtype = dtype;
      this.order = order;
      this.d = d;
      this.full = full.clone();
      this.clipped = clipped.clone();
      this.fullLast = (int) full[full.length - 1];
      this.clipLast = (int) clipped[clipped.length - 1];
    }

    @Override
    public void accept(int off, byte[] src, int so, int len) {
      accept(off, ByteBuffer.wrap(src, so, len));
    }

    @Override
    public void accept(int off, ByteBuffer src) {
      int item = dtype.itemSize();
      int so = src.position();
      int e0 = off / item;
      int end = e0 + src.remaining() / item;
      int e = e0;
      while (e < end) {
        int row = e / fullLast;
        int col = e - row * fullLast;
        int segEnd = (int) Math.min(end, (long) (row + 1) * fullLast);
        long target = ChunkRuns.clipRow(full, clipped, row);
        if (target >= 0 && col < clipLast) {
          int cnt = Math.min(segEnd - e, clipLast - col);
          fromBytes(
              src.slice(so + (e - e0) * item, cnt * item).order(order),
              dtype,
              d,
              (int) (target * clipLast + col),
              cnt);
        }
        e = segEnd;
      }
    }
  }

  /** The sink of a decode: bytes to elements of {@code d}; a float64 array directly if LE. */
  private record Into(DType dtype, ByteOrder order, Object d, int first)
      implements JavaBlosc.Sink, JavaBlosc.Float64 {
    Into(DType dtype, ByteOrder order, Object d) {
      this(dtype, order, d, 0);
    }

    @Override
    public void accept(int off, byte[] src, int so, int len) {
      accept(off, ByteBuffer.wrap(src, so, len));
    }

    @Override
    public void accept(int off, ByteBuffer src) {
      int item = dtype.itemSize();
      fromBytes(src.slice().order(order), dtype, d, off / item - first, src.remaining() / item);
    }

    @Override
    public double[] doubles() {
      return dtype == DType.FLOAT64 && order == ByteOrder.LITTLE_ENDIAN ? (double[]) d : null;
    }
  }

  /**
   * A sink of decoded bytes into {@code d}, a backing array of {@code dtype} whose entry 0 holds
   * element {@code first} of the decoded data (a block's own array).
   */
  public static JavaBlosc.Sink into(DType dtype, ByteOrder order, Object d, int first) {
    return new Into(dtype, order, d, first);
  }

  /** The elements of a chunk padded to its full shape, as bytes, a range at a time. */
  static final class Elements implements JavaBlosc.Source, JavaBlosc.Float64 {
    private final DType dtype;
    private final ByteOrder order;
    private final Object data;
    private final int item;
    private final int slots; // backing slots per element (2 for complex)
    private final boolean padded;
    private final long[] full;
    private final long[] clip;
    private final int rowLen;
    private final int clipRowLen;
    private final Object fillRow;
    private Object scratch;
    private byte[] bytes;

    Elements(NDArray data, long[] full, Object fill, ByteOrder order) {
      this.dtype = data.dtype();
      this.order = order;
      this.data = data.data();
      this.item = dtype.itemSize();
      this.slots = dtype.isComplex() ? 2 : 1;
      this.full = full.clone();
      this.clip = data.shape();
      this.padded = full.length > 0 && !Arrays.equals(full, clip);
      this.rowLen = padded ? Math.toIntExact(full[full.length - 1]) : 0;
      this.clipRowLen = padded ? (int) clip[clip.length - 1] : 0;
      this.fillRow = padded ? NDArray.full(dtype, fill, new long[] {rowLen}).data() : null;
    }

    @Override
    public double[] doubles() {
      return dtype == DType.FLOAT64 && order == ByteOrder.LITTLE_ENDIAN && !padded
          ? (double[]) data
          : null;
    }

    @Override
    public void copy(int off, byte[] dst, int dstOff, int len) {
      int e0 = off / item;
      int e1 = (int) (((long) off + len + item - 1) / item);
      int n = e1 - e0;
      Object from = data; // an unpadded chunk converts straight from its array
      int start = e0;
      if (padded) {
        if (scratch == null || Array.getLength(scratch) < n * slots) {
          scratch = Array.newInstance(data.getClass().getComponentType(), n * slots);
        }
        elements(e0, n);
        from = scratch;
        start = 0;
      }
      if (off % item == 0 && len % item == 0) {
        toBytes(ByteBuffer.wrap(dst, dstOff, len).order(order), dtype, from, start, n);
        return;
      }
      if (bytes == null || bytes.length < n * item) {
        bytes = new byte[n * item];
      }
      toBytes(ByteBuffer.wrap(bytes, 0, n * item).order(order), dtype, from, start, n);
      System.arraycopy(bytes, off - e0 * item, dst, dstOff, len);
    }

    /** Elements [e0, e0 + n) of the padded chunk into scratch. */
    private void elements(int e0, int n) {
      int e = e0;
      int d = 0;
      while (d < n) {
        long row = e / rowLen;
        int col = e % rowLen;
        int m = Math.min(rowLen - col, n - d);
        long clipRow = ChunkRuns.clipRow(full, clip, row);
        int in = clipRow < 0 ? 0 : Math.max(0, Math.min(m, clipRowLen - col));
        if (in > 0) {
          System.arraycopy(
              data, (int) (clipRow * clipRowLen + col) * slots, scratch, d * slots, in * slots);
        }
        if (m > in) {
          System.arraycopy(fillRow, 0, scratch, (d + in) * slots, (m - in) * slots);
        }
        e += m;
        d += m;
      }
    }
  }

  /** Elements [e, e + n) of {@code from} (a backing array of {@code dtype}) to bytes. */
  private static void toBytes(ByteBuffer bb, DType dtype, Object from, int e, int n) {
    int slots = dtype.isComplex() ? 2 : 1;
    int k = n * slots;
    int s = e * slots;
    switch (dtype) {
      case BOOL -> {
        boolean[] b = (boolean[]) from;
        if (bb.hasArray()) { // straight into the backing array (put(byte) per element is slow)
          byte[] a = bb.array();
          int at = bb.arrayOffset() + bb.position();
          for (int i = 0; i < k; i++) {
            a[at + i] = b[s + i] ? (byte) 1 : (byte) 0;
          }
          bb.position(bb.position() + k);
        } else {
          for (int i = 0; i < k; i++) {
            bb.put(b[s + i] ? (byte) 1 : (byte) 0);
          }
        }
      }
      case INT8, UINT8 -> bb.put((byte[]) from, s, k);
      case INT16, UINT16 -> bb.asShortBuffer().put((short[]) from, s, k);
      case INT32, UINT32 -> bb.asIntBuffer().put((int[]) from, s, k);
      case INT64, UINT64 -> bb.asLongBuffer().put((long[]) from, s, k);
      case FLOAT32, COMPLEX64 -> bb.asFloatBuffer().put((float[]) from, s, k);
      case FLOAT64, COMPLEX128 -> bb.asDoubleBuffer().put((double[]) from, s, k);
    }
  }

  /**
   * The bytes of a chunk's elements made a run at a time ({@link ChunkElements}): a float64
   * little-endian block is shuffled straight from its run; other reads convert from a window of at
   * least a codec block's elements, asked for once and then served as the codec reads it in parts.
   */
  static final class Runs implements JavaBlosc.Source, JavaBlosc.Float64Runs {
    private final ChunkElements src;
    private final DType dtype;
    private final ByteOrder order;
    private final int item;
    private final long total;
    private NDArray window;
    private long windowStart;
    private byte[] bytes;

    Runs(ChunkElements src, DType dtype, long total, ByteOrder order) {
      this.src = src;
      this.dtype = dtype;
      this.order = order;
      this.item = dtype.itemSize();
      this.total = total;
    }

    @Override
    public double[] doubles(int e0, int n) {
      if (dtype != DType.FLOAT64 || order != ByteOrder.LITTLE_ENDIAN) {
        return null;
      }
      window = ChunkRuns.run(src, dtype, e0, n);
      windowStart = e0;
      return (double[]) window.data();
    }

    @Override
    public void copy(int off, byte[] dst, int dstOff, int len) {
      int e0 = off / item;
      int e1 = (int) (((long) off + len + item - 1) / item);
      int n = e1 - e0;
      if (window == null || e0 < windowStart || e1 > windowStart + window.size()) {
        int want = (int) Math.min(total - e0, Math.max(n, JavaBlosc.DEFAULT_BLOCK / item));
        window = ChunkRuns.run(src, dtype, e0, want);
        windowStart = e0;
      }
      int at = (int) (e0 - windowStart);
      if (off % item == 0 && len % item == 0) {
        toBytes(ByteBuffer.wrap(dst, dstOff, len).order(order), dtype, window.data(), at, n);
        return;
      }
      if (bytes == null || bytes.length < n * item) {
        bytes = new byte[n * item];
      }
      toBytes(ByteBuffer.wrap(bytes, 0, n * item).order(order), dtype, window.data(), at, n);
      System.arraycopy(bytes, off - e0 * item, dst, dstOff, len);
    }
  }

  /** Each thread's scratch bytes for bools decoded from a direct buffer (one L1-sized array). */
  private static final ThreadLocal<byte[]> BOOL_SCRATCH =
      ThreadLocal.withInitial(() -> new byte[16 << 10]);

  /** Decodes {@code n} elements from {@code bb} into {@code d} at element {@code e0}. */
  static void fromBytes(ByteBuffer bb, DType dtype, Object d, int e0, int n) {
    int s = dtype.isComplex() ? 2 : 1;
    switch (dtype) {
      case BOOL -> {
        boolean[] b = (boolean[]) d;
        if (bb.hasArray()) { // straight from the backing array (get() per element is slow)
          byte[] a = bb.array();
          int at = bb.arrayOffset() + bb.position();
          for (int i = 0; i < n; i++) {
            b[e0 + i] = a[at + i] != 0;
          }
          bb.position(bb.position() + n);
        } else { // a direct slice: bulk copies into a scratch array, then the same loop
          byte[] a = BOOL_SCRATCH.get();
          for (int i = 0; i < n; ) {
            int k = Math.min(a.length, n - i);
            bb.get(a, 0, k);
            for (int j = 0; j < k; j++) {
              b[e0 + i + j] = a[j] != 0;
            }
            i += k;
          }
        }
      }
      case INT8, UINT8 -> bb.get((byte[]) d, e0, n);
      case INT16, UINT16 -> bb.asShortBuffer().get((short[]) d, e0, n);
      case INT32, UINT32 -> bb.asIntBuffer().get((int[]) d, e0, n);
      case INT64, UINT64 -> bb.asLongBuffer().get((long[]) d, e0, n);
      case FLOAT32, COMPLEX64 -> bb.asFloatBuffer().get((float[]) d, e0 * s, n * s);
      case FLOAT64, COMPLEX128 -> bb.asDoubleBuffer().get((double[]) d, e0 * s, n * s);
    }
  }
}
