package dev.cubed.nd;

import java.lang.reflect.Array;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

/**
 * A dense, C-order (row-major) N-dimensional array held in one Java primitive array: one chunk in
 * memory. This is the unit every chunk task of the engine computes with.
 *
 * <p>The shape is a {@code long[]} (so chunked arrays and in-memory chunks share shape arithmetic),
 * but an {@code NDArray} holds at most {@link Integer#MAX_VALUE} - 8 elements (complex types: half
 * of that). See {@link DType} for the backing array of each dtype.
 *
 * <p>An {@code NDArray} is mutable through its setters and {@link #setRegion}; the shape and dtype
 * are fixed. {@link #data()} exposes the backing array without copying, for kernels and codecs.
 * Operations that return new arrays never alias their inputs unless documented ({@link #reshape}).
 */
public final class NDArray {
  private final DType dtype;
  private final long[] shape;
  private final int size;
  private final Object data;

  /**
   * Wraps a backing array (not copied).
   *
   * @throws IllegalArgumentException if the array's type or length does not fit the dtype and shape
   */
  public NDArray(DType dtype, long[] shape, Object data) {
    this.dtype = Objects.requireNonNull(dtype, "dtype");
    this.shape = shape.clone();
    this.size = Shapes.intSize("NDArray", this.shape);
    this.data = Objects.requireNonNull(data, "data");
    Class<?> expected = backingClass(dtype);
    if (data.getClass() != expected) {
      throw new IllegalArgumentException(
          "NDArray: a "
              + dtype
              + " array is backed by "
              + expected.getSimpleName()
              + ", not "
              + data.getClass().getSimpleName());
    }
    int len = Array.getLength(data);
    int want = dtype.isComplex() ? 2 * size : size;
    if (len != want) {
      throw new IllegalArgumentException(
          "NDArray: shape "
              + Shapes.format(shape)
              + " of "
              + dtype
              + " needs a backing array of "
              + want
              + " elements, got "
              + len);
    }
  }

  // ------------------------------------------------------------------ basic properties

  public DType dtype() {
    return dtype;
  }

  /** A copy of the shape. */
  public long[] shape() {
    return shape.clone();
  }

  /** The length of one dimension (negative axes count from the end). */
  public long shape(int axis) {
    return shape[Shapes.normalizeAxis("shape", axis, shape.length)];
  }

  public int ndim() {
    return shape.length;
  }

  /** Number of elements. */
  public int size() {
    return size;
  }

  /** Bytes held by the elements ({@code size * itemSize}). */
  public long nbytes() {
    return (long) size * dtype.itemSize();
  }

  /**
   * The backing primitive array, shared (not copied): {@code double[]} for float64, interleaved
   * {@code double[]} for complex128 and so on (see {@link DType}).
   */
  public Object data() {
    return data;
  }

  // ------------------------------------------------------------------ creation

  /** The Java array class backing a dtype. */
  public static Class<?> backingClass(DType dtype) {
    return dtype.backingClass();
  }

  /** A new zero-filled backing array for {@code n} elements of a dtype. */
  public static Object allocate(DType dtype, int n) {
    return dtype.allocate(n);
  }

  /** An array of zeros (false for bool). */
  public static NDArray zeros(DType dtype, long... shape) {
    return new NDArray(dtype, shape, allocate(dtype, Shapes.intSize("zeros", shape)));
  }

  /** An uninitialized array; in Java it holds zeros. */
  public static NDArray empty(DType dtype, long... shape) {
    return zeros(dtype, shape);
  }

  /** An array of ones (true for bool). */
  public static NDArray ones(DType dtype, long... shape) {
    return full(dtype, 1, shape);
  }

  /**
   * An array filled with a value, converted to the dtype as {@link #astype} would (a Boolean, any
   * Number, or a {@link Complex}).
   */
  public static NDArray full(DType dtype, Object value, long... shape) {
    NDArray a = zeros(dtype, shape);
    a.fill(value);
    return a;
  }

  /** A 0-d array holding one value of a dtype. */
  public static NDArray scalar(DType dtype, Object value) {
    return full(dtype, value);
  }

  /** A 0-d array of the dtype NumPy gives a Java scalar (bool, int64, float64 or complex128). */
  public static NDArray scalar(Object value) {
    return full(DType.ofScalar(value), value);
  }

  /** Sets every element to a value. */
  public void fill(Object value) {
    Scalars.fill(this, value);
  }

  /**
   * Values from {@code start} (inclusive) to {@code stop} (exclusive) by {@code step}, like the
   * standard's {@code arange}; computed as NumPy does (see {@link Creation#arange(double, double,
   * double, DType)}).
   */
  public static NDArray arange(double start, double stop, double step, DType dtype) {
    return Creation.arange(start, stop, step, dtype);
  }

  /** {@code arange(0, stop, 1)} of int64. */
  public static NDArray arange(long stop) {
    return arange(0, stop, 1, DType.INT64);
  }

  /** Wraps a double[] as a float64 array of the given shape (not copied). */
  public static NDArray of(double[] values, long... shape) {
    return new NDArray(DType.FLOAT64, shapeOr1d(shape, values.length), values);
  }

  /** Wraps a float[] as a float32 array of the given shape (not copied). */
  public static NDArray of(float[] values, long... shape) {
    return new NDArray(DType.FLOAT32, shapeOr1d(shape, values.length), values);
  }

  /** Wraps a long[] as an int64 array of the given shape (not copied). */
  public static NDArray of(long[] values, long... shape) {
    return new NDArray(DType.INT64, shapeOr1d(shape, values.length), values);
  }

  /** Wraps an int[] as an int32 array of the given shape (not copied). */
  public static NDArray of(int[] values, long... shape) {
    return new NDArray(DType.INT32, shapeOr1d(shape, values.length), values);
  }

  /** Wraps a short[] as an int16 array of the given shape (not copied). */
  public static NDArray of(short[] values, long... shape) {
    return new NDArray(DType.INT16, shapeOr1d(shape, values.length), values);
  }

  /** Wraps a byte[] as an int8 array of the given shape (not copied). */
  public static NDArray of(byte[] values, long... shape) {
    return new NDArray(DType.INT8, shapeOr1d(shape, values.length), values);
  }

  /** Wraps a boolean[] as a bool array of the given shape (not copied). */
  public static NDArray of(boolean[] values, long... shape) {
    return new NDArray(DType.BOOL, shapeOr1d(shape, values.length), values);
  }

  private static long[] shapeOr1d(long[] shape, int n) {
    return shape.length == 0 && n != 1 ? new long[] {n} : shape;
  }

  /**
   * Copies a (possibly nested, rectangular) Java array such as {@code double[][]} or {@code
   * int[][][]} into a new array; the dtype follows the element type (double: float64, float:
   * float32, long: int64, int: int32, short: int16, byte: int8, boolean: bool).
   *
   * @throws IllegalArgumentException for ragged or unsupported arrays
   */
  public static NDArray fromJava(Object nested) {
    return JavaArrays.toNDArray(nested);
  }

  /** A deep copy. */
  public NDArray copy() {
    Object d = allocate(dtype, size);
    System.arraycopy(data, 0, d, 0, Array.getLength(data));
    return new NDArray(dtype, shape, d);
  }

  // ------------------------------------------------------------------ element access (flat index)

  /**
   * Element {@code i} (flat C-order) as a double; unsigned types convert as unsigned; complex: real
   * part.
   */
  public double getDouble(int i) {
    return switch (dtype) {
      case BOOL -> ((boolean[]) data)[i] ? 1 : 0;
      case INT8 -> ((byte[]) data)[i];
      case UINT8 -> ((byte[]) data)[i] & 0xFF;
      case INT16 -> ((short[]) data)[i];
      case UINT16 -> ((short[]) data)[i] & 0xFFFF;
      case INT32 -> ((int[]) data)[i];
      case UINT32 -> ((int[]) data)[i] & 0xFFFFFFFFL;
      case INT64 -> ((long[]) data)[i];
      case UINT64 -> unsignedToDouble(((long[]) data)[i]);
      case FLOAT32 -> ((float[]) data)[i];
      case FLOAT64 -> ((double[]) data)[i];
      case COMPLEX64 -> ((float[]) data)[2 * i];
      case COMPLEX128 -> ((double[]) data)[2 * i];
    };
  }

  /** Imaginary part of element {@code i}; 0 for real types. */
  public double getImag(int i) {
    return switch (dtype) {
      case COMPLEX64 -> ((float[]) data)[2 * i + 1];
      case COMPLEX128 -> ((double[]) data)[2 * i + 1];
      default -> 0;
    };
  }

  /**
   * Element {@code i} as a long: integers exactly (uint64 as its two's-complement bits, so values
   * above {@link Long#MAX_VALUE} come back negative), bool as 0/1, floats truncated toward zero.
   */
  public long getLong(int i) {
    return switch (dtype) {
      case BOOL -> ((boolean[]) data)[i] ? 1 : 0;
      case INT8 -> ((byte[]) data)[i];
      case UINT8 -> ((byte[]) data)[i] & 0xFF;
      case INT16 -> ((short[]) data)[i];
      case UINT16 -> ((short[]) data)[i] & 0xFFFF;
      case INT32 -> ((int[]) data)[i];
      case UINT32 -> ((int[]) data)[i] & 0xFFFFFFFFL;
      case INT64, UINT64 -> ((long[]) data)[i];
      case FLOAT32 -> Scalars.doubleToLongBits(((float[]) data)[i], DType.INT64);
      case FLOAT64 -> Scalars.doubleToLongBits(((double[]) data)[i], DType.INT64);
      case COMPLEX64 -> Scalars.doubleToLongBits(((float[]) data)[2 * i], DType.INT64);
      case COMPLEX128 -> Scalars.doubleToLongBits(((double[]) data)[2 * i], DType.INT64);
    };
  }

  /** Element {@code i} as a truth value: non-zero (NaN counts as true). */
  public boolean getBoolean(int i) {
    return switch (dtype) {
      case BOOL -> ((boolean[]) data)[i];
      case FLOAT32, FLOAT64 -> getDouble(i) != 0;
      case COMPLEX64, COMPLEX128 -> getDouble(i) != 0 || getImag(i) != 0;
      default -> getLong(i) != 0;
    };
  }

  /**
   * Element {@code i} as a Java object: Boolean, Byte/Short/Integer/Long for signed integers, a
   * Short/Integer/Long/BigInteger holding the unsigned value for unsigned integers, Float, Double,
   * or {@link Complex}.
   */
  public Object getObject(int i) {
    return switch (dtype) {
      case BOOL -> ((boolean[]) data)[i];
      case INT8 -> ((byte[]) data)[i];
      case INT16 -> ((short[]) data)[i];
      case INT32 -> ((int[]) data)[i];
      case INT64 -> ((long[]) data)[i];
      case UINT8 -> (short) (((byte[]) data)[i] & 0xFF);
      case UINT16 -> ((short[]) data)[i] & 0xFFFF;
      case UINT32 -> ((int[]) data)[i] & 0xFFFFFFFFL;
      case UINT64 -> new BigInteger(Long.toUnsignedString(((long[]) data)[i]));
      case FLOAT32 -> ((float[]) data)[i];
      case FLOAT64 -> ((double[]) data)[i];
      case COMPLEX64, COMPLEX128 -> new Complex(getDouble(i), getImag(i));
    };
  }

  /** Element at a multi-index (negative indices count from the end), as {@link #getObject(int)}. */
  public Object get(long... index) {
    return getObject(flatIndex(index));
  }

  /** The single element of a 0-d or one-element array, as {@link #getObject(int)}. */
  public Object item() {
    if (size != 1) {
      throw new IllegalArgumentException(
          "item: only an array of one element converts to a scalar; this one has shape "
              + Shapes.format(shape));
    }
    return getObject(0);
  }

  /** Flat C-order index of a multi-index; negative indices count from the end. */
  public int flatIndex(long... index) {
    if (index.length != shape.length) {
      throw new IllegalArgumentException(
          "index: "
              + index.length
              + " indices for an array of "
              + shape.length
              + " dimensions, shape "
              + Shapes.format(shape));
    }
    long off = 0;
    for (int k = 0; k < index.length; k++) {
      long ix = index[k] < 0 ? index[k] + shape[k] : index[k];
      if (ix < 0 || ix >= shape[k]) {
        throw new IndexOutOfBoundsException(
            "index " + index[k] + " is out of bounds for axis " + k + " with size " + shape[k]);
      }
      off = off * shape[k] + ix;
    }
    return (int) off;
  }

  /** Sets element {@code i} from a double, converting like {@link #astype} (complex: imag 0). */
  public void setDouble(int i, double v) {
    switch (dtype) {
      case BOOL -> ((boolean[]) data)[i] = v != 0;
      case INT8, UINT8 -> ((byte[]) data)[i] = (byte) Scalars.doubleToLongBits(v, dtype);
      case INT16, UINT16 -> ((short[]) data)[i] = (short) Scalars.doubleToLongBits(v, dtype);
      case INT32, UINT32 -> ((int[]) data)[i] = (int) Scalars.doubleToLongBits(v, dtype);
      case INT64, UINT64 -> ((long[]) data)[i] = Scalars.doubleToLongBits(v, dtype);
      case FLOAT32 -> ((float[]) data)[i] = (float) v;
      case FLOAT64 -> ((double[]) data)[i] = v;
      case COMPLEX64 -> {
        ((float[]) data)[2 * i] = (float) v;
        ((float[]) data)[2 * i + 1] = 0;
      }
      case COMPLEX128 -> {
        ((double[]) data)[2 * i] = v;
        ((double[]) data)[2 * i + 1] = 0;
      }
    }
  }

  /**
   * Sets element {@code i} from integer bits: integers wrap to the dtype's width (two's complement,
   * as NumPy), floats get the value of the signed long.
   */
  public void setLong(int i, long v) {
    switch (dtype) {
      case BOOL -> ((boolean[]) data)[i] = v != 0;
      case INT8, UINT8 -> ((byte[]) data)[i] = (byte) v;
      case INT16, UINT16 -> ((short[]) data)[i] = (short) v;
      case INT32, UINT32 -> ((int[]) data)[i] = (int) v;
      case INT64, UINT64 -> ((long[]) data)[i] = v;
      default -> setDouble(i, v);
    }
  }

  public void setBoolean(int i, boolean v) {
    if (dtype == DType.BOOL) {
      ((boolean[]) data)[i] = v;
    } else {
      setLong(i, v ? 1 : 0);
    }
  }

  /** Sets element {@code i} from real and imaginary parts; real dtypes keep the real part. */
  public void setComplex(int i, double re, double im) {
    switch (dtype) {
      case COMPLEX64 -> {
        ((float[]) data)[2 * i] = (float) re;
        ((float[]) data)[2 * i + 1] = (float) im;
      }
      case COMPLEX128 -> {
        ((double[]) data)[2 * i] = re;
        ((double[]) data)[2 * i + 1] = im;
      }
      case BOOL -> ((boolean[]) data)[i] = re != 0 || im != 0;
      default -> setDouble(i, re);
    }
  }

  /**
   * Sets element {@code i} from a Boolean, Number or {@link Complex}, converting as {@link
   * #astype}.
   */
  public void setObject(int i, Object value) {
    if (value instanceof Complex c) {
      setComplex(i, c.re(), c.im());
    } else if (value instanceof Boolean b) {
      setBoolean(i, b);
    } else if (value instanceof Double || value instanceof Float) {
      setDouble(i, ((Number) value).doubleValue());
    } else if (value instanceof BigInteger b) {
      if (dtype.isFloating()) {
        setDouble(i, b.doubleValue());
      } else {
        setLong(i, b.longValue());
      }
    } else if (value instanceof Number n) {
      setLong(i, n.longValue());
    } else {
      throw new IllegalArgumentException(
          "set: unsupported value " + value + "; expected Boolean, Number or Complex");
    }
  }

  /** Sets the element at a multi-index. */
  public void set(Object value, long... index) {
    setObject(flatIndex(index), value);
  }

  // ------------------------------------------------------------------ conversions

  /** Unsigned 64-bit bits to double (as NumPy converts uint64). */
  public static double unsignedToDouble(long bits) {
    if (bits >= 0) {
      return bits;
    }
    // round-to-nearest like the hardware conversion of the unsigned value
    double d = (double) ((bits >>> 1) | (bits & 1));
    return d * 2.0;
  }

  /**
   * A copy converted to another dtype with NumPy's {@code astype} semantics: to bool is "non-zero";
   * floats to integers truncate toward zero and wrap; integers wrap to narrower integers; complex
   * to real keeps the real part; uint64 converts as unsigned.
   */
  public NDArray astype(DType target) {
    if (target == dtype) {
      return copy();
    }
    NDArray out = zeros(target, shape);
    Scalars.convert(this, out);
    return out;
  }

  // ------------------------------------------------------------------ byte encoding

  /** The elements as raw bytes in the given byte order (bool: one byte 0 or 1 each). */
  public byte[] toBytes(ByteOrder order) {
    return ByteCodec.encode(dtype, size, data, nbytes(), order);
  }

  /**
   * Decodes raw bytes (as written by {@link #toBytes}) into a new array.
   *
   * @throws IllegalArgumentException if the byte count does not equal {@code size * itemSize}
   */
  public static NDArray fromBytes(DType dtype, long[] shape, byte[] bytes, ByteOrder order) {
    return fromBytes(dtype, shape, ByteBuffer.wrap(bytes), order);
  }

  /**
   * Decodes the remaining bytes of a buffer; see {@link #fromBytes(DType, long[], byte[],
   * ByteOrder)}.
   */
  public static NDArray fromBytes(DType dtype, long[] shape, ByteBuffer bytes, ByteOrder order) {
    return new NDArray(dtype, shape, ByteCodec.decode(dtype, shape, bytes, order));
  }

  // ------------------------------------------------------------------ shape and regions

  /**
   * The same data with a new shape of equal size (shares the backing array). One dimension may be
   * -1 and is inferred.
   */
  public NDArray reshape(long... newShape) {
    return new NDArray(dtype, StridedCopy.reshapeTarget(shape, size, newShape), data);
  }

  /**
   * A copy of the box {@code [start, start + regionShape)}.
   *
   * @throws IllegalArgumentException if the box is not inside the array
   */
  public NDArray getRegion(long[] start, long[] regionShape) {
    return StridedCopy.getRegion(this, start, regionShape);
  }

  /**
   * Copies {@code src} (same dtype) into the box starting at {@code start}.
   *
   * @throws IllegalArgumentException on a dtype mismatch or a box outside this array
   */
  public void setRegion(long[] start, NDArray src) {
    StridedCopy.setRegion(this, start, src);
  }

  /**
   * Copies a box of elements between two C-order backing arrays of the same type. {@code mult} is 2
   * for interleaved complex data.
   */
  public static void copyBox(
      Object src,
      long[] srcShape,
      long[] srcStart,
      Object dst,
      long[] dstShape,
      long[] dstStart,
      long[] box,
      int mult) {
    StridedCopy.copyBox(src, srcShape, srcStart, dst, dstShape, dstStart, box, mult);
  }

  /**
   * Fills {@code dst} (a C-order backing array of {@code box}'s shape, same type as {@code src})
   * with the box at {@code start} of {@code src} (shape {@code srcShape}) broadcast to the box's
   * rank: {@code srcShape} is aligned with the box's trailing axes and its axes of length 1 (and
   * the missing leading ones) repeat index 0. {@code mult} is 2 for interleaved complex data.
   *
   * @throws IllegalArgumentException if the source has more axes than the box, or the box leaves
   *     the source along an axis that is not broadcast
   */
  public static void broadcastBox(
      Object src, long[] srcShape, long[] start, Object dst, long[] box, int mult) {
    StridedCopy.broadcastBox(src, srcShape, start, dst, box, mult);
  }

  /**
   * A copy with the axes permuted: output axis {@code i} is input axis {@code axes[i]} (the
   * standard's {@code permute_dims}).
   */
  public NDArray permuteDims(int... axes) {
    return StridedCopy.permuteDims(this, axes);
  }

  /**
   * A copy broadcast to a larger shape (NumPy rules), materialized.
   *
   * @throws IllegalArgumentException if this shape does not broadcast to {@code target}
   */
  public NDArray broadcastTo(long... target) {
    return StridedCopy.broadcastTo(this, target);
  }

  // ------------------------------------------------------------------ object methods

  /** Same dtype, shape and elements (floats compared bitwise, so NaN equals NaN). */
  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof NDArray other)) {
      return false;
    }
    if (dtype != other.dtype || !Arrays.equals(shape, other.shape)) {
      return false;
    }
    return switch (dtype) {
      case BOOL -> Arrays.equals((boolean[]) data, (boolean[]) other.data);
      case INT8, UINT8 -> Arrays.equals((byte[]) data, (byte[]) other.data);
      case INT16, UINT16 -> Arrays.equals((short[]) data, (short[]) other.data);
      case INT32, UINT32 -> Arrays.equals((int[]) data, (int[]) other.data);
      case INT64, UINT64 -> Arrays.equals((long[]) data, (long[]) other.data);
      case FLOAT32, COMPLEX64 -> Arrays.equals((float[]) data, (float[]) other.data);
      case FLOAT64, COMPLEX128 -> Arrays.equals((double[]) data, (double[]) other.data);
    };
  }

  @Override
  public int hashCode() {
    return 31 * (31 * dtype.hashCode() + Arrays.hashCode(shape)) + size;
  }

  /** NumPy-like text: the dtype, shape and (up to 1000) elements. */
  @Override
  public String toString() {
    StringBuilder b =
        new StringBuilder("NDArray(")
            .append(dtype)
            .append(", ")
            .append(Shapes.format(shape))
            .append(", [");
    int n = Math.min(size, 1000);
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        b.append(", ");
      }
      b.append(getObject(i));
    }
    if (size > n) {
      b.append(", ...");
    }
    return b.append("])").toString();
  }
}
