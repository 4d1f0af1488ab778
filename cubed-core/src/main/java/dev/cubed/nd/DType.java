package dev.cubed.nd;

import java.math.BigInteger;
import java.util.Locale;

/**
 * The 13 data types of the Python Array API standard.
 *
 * <p>Each dtype knows its item size, its {@link Kind}, its Zarr v2 and v3 names and its in-memory
 * representation inside {@link NDArray}:
 *
 * <table>
 *   <caption>backing arrays</caption>
 *   <tr><th>dtype</th><th>Java array</th></tr>
 *   <tr><td>BOOL</td><td>{@code boolean[]}</td></tr>
 *   <tr><td>INT8, UINT8</td><td>{@code byte[]}</td></tr>
 *   <tr><td>INT16, UINT16</td><td>{@code short[]}</td></tr>
 *   <tr><td>INT32, UINT32</td><td>{@code int[]}</td></tr>
 *   <tr><td>INT64, UINT64</td><td>{@code long[]}</td></tr>
 *   <tr><td>FLOAT32</td><td>{@code float[]}</td></tr>
 *   <tr><td>FLOAT64</td><td>{@code double[]}</td></tr>
 *   <tr><td>COMPLEX64</td><td>{@code float[]}, interleaved (re, im), length 2n</td></tr>
 *   <tr><td>COMPLEX128</td><td>{@code double[]}, interleaved (re, im), length 2n</td></tr>
 * </table>
 *
 * <p>Unsigned integers are stored in the signed Java type of the same width with the same bits
 * (two's complement reinterpretation), so {@code uint8 255} is the byte {@code -1}.
 *
 * <p>Type promotion ({@link #resultType(DType, DType)}) follows the standard's promotion table
 * within a kind. Where the standard leaves mixed kinds to the implementation (bool with numbers,
 * integers with floats, {@code int64} with {@code uint64}), this library follows NumPy 2, so
 * results agree with NumPy's for the same inputs.
 */
public enum DType {
  BOOL("bool", Kind.BOOL, 1, "|b1", "?"),
  INT8("int8", Kind.SIGNED, 1, "|i1", "b"),
  INT16("int16", Kind.SIGNED, 2, "<i2", "h"),
  INT32("int32", Kind.SIGNED, 4, "<i4", "i"),
  INT64("int64", Kind.SIGNED, 8, "<i8", "q"),
  UINT8("uint8", Kind.UNSIGNED, 1, "|u1", "B"),
  UINT16("uint16", Kind.UNSIGNED, 2, "<u2", "H"),
  UINT32("uint32", Kind.UNSIGNED, 4, "<u4", "I"),
  UINT64("uint64", Kind.UNSIGNED, 8, "<u8", "Q"),
  FLOAT32("float32", Kind.FLOAT, 4, "<f4", "f"),
  FLOAT64("float64", Kind.FLOAT, 8, "<f8", "d"),
  COMPLEX64("complex64", Kind.COMPLEX, 8, "<c8", "F"),
  COMPLEX128("complex128", Kind.COMPLEX, 16, "<c16", "D");

  /** The kinds of the standard: boolean, signed and unsigned integer, real and complex floating. */
  public enum Kind {
    BOOL,
    SIGNED,
    UNSIGNED,
    FLOAT,
    COMPLEX;
  }

  private final String standardName;
  private final Kind kind;
  private final int itemSize;
  private final String zarrV2Name;
  private final String typeChar;

  DType(String standardName, Kind kind, int itemSize, String zarrV2Name, String typeChar) {
    this.standardName = standardName;
    this.kind = kind;
    this.itemSize = itemSize;
    this.zarrV2Name = zarrV2Name;
    this.typeChar = typeChar;
  }

  /** The standard's (and NumPy's, and Zarr v3's) name, e.g. {@code "float64"}. */
  public String standardName() {
    return standardName;
  }

  /** Zarr v3 {@code data_type} name; the same as {@link #standardName()}. */
  public String zarrV3Name() {
    return standardName;
  }

  /** Zarr v2 / NumPy array-interface type string in little-endian form, e.g. {@code "<f8"}. */
  public String zarrV2Name() {
    return zarrV2Name;
  }

  /** NumPy's one-character type code, e.g. {@code 'd'} for float64. */
  public char typeChar() {
    return typeChar.charAt(0);
  }

  /** Bytes per element. */
  public int itemSize() {
    return itemSize;
  }

  public Kind kind() {
    return kind;
  }

  /** Bits per element (complex types count both parts). */
  public int bits() {
    return itemSize * 8;
  }

  public boolean isBool() {
    return kind == Kind.BOOL;
  }

  /** True for signed and unsigned integer types (not bool). */
  public boolean isInteger() {
    return kind == Kind.SIGNED || kind == Kind.UNSIGNED;
  }

  public boolean isSigned() {
    return kind == Kind.SIGNED;
  }

  public boolean isUnsigned() {
    return kind == Kind.UNSIGNED;
  }

  /** True for float32 and float64 (the standard's "real floating-point"). */
  public boolean isRealFloating() {
    return kind == Kind.FLOAT;
  }

  public boolean isComplex() {
    return kind == Kind.COMPLEX;
  }

  /** True for real and complex floating-point types. */
  public boolean isFloating() {
    return kind == Kind.FLOAT || kind == Kind.COMPLEX;
  }

  /** True for integer and floating types (everything but bool). */
  public boolean isNumeric() {
    return kind != Kind.BOOL;
  }

  /** True for integers and real floats: the types with an order. */
  public boolean isRealNumeric() {
    return isInteger() || kind == Kind.FLOAT;
  }

  /**
   * The real type of the same precision: float32 for complex64, float64 for complex128, this
   * otherwise.
   */
  public DType realPart() {
    return switch (this) {
      case COMPLEX64 -> FLOAT32;
      case COMPLEX128 -> FLOAT64;
      default -> this;
    };
  }

  /** The complex type of the same precision as a real float type: complex64 for float32. */
  public DType complexOf() {
    return switch (this) {
      case FLOAT32, COMPLEX64 -> COMPLEX64;
      case FLOAT64, COMPLEX128 -> COMPLEX128;
      default ->
          throw new IllegalArgumentException(
              "complexOf: " + standardName + " is not a floating-point dtype");
    };
  }

  /**
   * The default floating type a function on integers produces (NumPy: float64 for every integer and
   * bool; float32 stays float32).
   */
  public DType defaultFloating() {
    return isFloating() ? this : FLOAT64;
  }

  @Override
  public String toString() {
    return standardName;
  }

  /** Looks a dtype up by its standard name ({@code "float64"}), case-insensitively. */
  public static DType fromName(String name) {
    String n = name.trim().toLowerCase(Locale.ROOT);
    for (DType d : values()) {
      if (d.standardName.equals(n)) {
        return d;
      }
    }
    throw new IllegalArgumentException(
        "unknown dtype name '"
            + name
            + "': expected one of bool, int8, int16, int32, int64, uint8,"
            + " uint16, uint32, uint64, float32, float64, complex64, complex128");
  }

  /**
   * Parses a NumPy / Zarr v2 type string such as {@code "<f8"}, {@code ">i4"}, {@code "|b1"}. The
   * byte order is returned separately by {@link #isBigEndianTypeString(String)}.
   *
   * @throws IllegalArgumentException for strings naming no Array API dtype
   */
  public static DType fromTypeString(String typeString) {
    String s = typeString.trim();
    if (s.isEmpty()) {
      throw new IllegalArgumentException("empty dtype string");
    }
    char order = s.charAt(0);
    String body =
        (order == '<' || order == '>' || order == '|' || order == '=') ? s.substring(1) : s;
    for (DType d : values()) {
      if (d.zarrV2Name.substring(1).equals(body)) {
        return d;
      }
    }
    if (body.equals("b1") || body.equals("?")) {
      return BOOL;
    }
    throw new IllegalArgumentException(
        "unsupported dtype string '"
            + typeString
            + "': expected a NumPy type string of an Array"
            + " API dtype, such as '<f8', '<i4', '|u1', '|b1', '<c16' (strings, objects, datetimes"
            + " and structured types are not supported)");
  }

  /** True when a NumPy type string declares big-endian byte order ({@code '>'}). */
  public static boolean isBigEndianTypeString(String typeString) {
    return typeString.trim().startsWith(">");
  }

  /** The NumPy type string with the given byte order, e.g. {@code ">f8"}; single bytes use '|'. */
  public String typeString(boolean bigEndian) {
    if (itemSize == 1) {
      return zarrV2Name;
    }
    return (bigEndian ? ">" : "<") + zarrV2Name.substring(1);
  }

  // ---------------------------------------------------------------- promotion

  /**
   * The dtype of an operation on arrays of these two dtypes, per the standard's promotion table
   * (and NumPy for mixed kinds).
   */
  public static DType resultType(DType a, DType b) {
    if (a == b) {
      return a;
    }
    Kind ka = a.kind;
    Kind kb = b.kind;
    if (ka == Kind.BOOL) {
      return b;
    }
    if (kb == Kind.BOOL) {
      return a;
    }
    if (a.isInteger() && b.isInteger()) {
      return promoteIntegers(a, b);
    }
    if (a.isFloating() && b.isFloating()) {
      boolean complex = a.isComplex() || b.isComplex();
      int bits = Math.max(a.realPart().itemSize, b.realPart().itemSize);
      DType real = bits == 8 ? FLOAT64 : FLOAT32;
      return complex ? real.complexOf() : real;
    }
    // integer with floating: the float type wide enough for the integer (NumPy 2 rules)
    DType i = a.isInteger() ? a : b;
    DType f = a.isInteger() ? b : a;
    DType needed = (i.itemSize <= 2) ? FLOAT32 : FLOAT64;
    return resultType(needed, f);
  }

  /** Folds {@link #resultType(DType, DType)} over several dtypes. */
  public static DType resultType(DType first, DType... rest) {
    DType r = first;
    for (DType d : rest) {
      r = resultType(r, d);
    }
    return r;
  }

  private static DType promoteIntegers(DType a, DType b) {
    if (a.kind == b.kind) {
      return a.itemSize >= b.itemSize ? a : b;
    }
    DType s = a.isSigned() ? a : b;
    DType u = a.isSigned() ? b : a;
    if (s.itemSize > u.itemSize) {
      return s;
    }
    return switch (u) {
      case UINT8 -> INT16;
      case UINT16 -> INT32;
      case UINT32 -> INT64;
      default -> FLOAT64; // int* with uint64: the standard has no rule; NumPy gives float64
    };
  }

  /**
   * The dtype of an operation between an array of dtype {@code array} and a Java scalar, following
   * the standard: the scalar takes the array's dtype when its kind fits (bool with bool, an integer
   * with integer or floating arrays, a float with floating arrays, a complex with complex arrays).
   * Otherwise (a float with an integer or bool array, a complex with a real array, a number with a
   * bool array) the result is NumPy's: the default float or complex type of matching precision.
   *
   * @param scalar a {@link Boolean}, an integral {@link Number} ({@link Byte}, {@link Short},
   *     {@link Integer}, {@link Long}, {@link BigInteger}), a {@link Float} or {@link Double}, or a
   *     {@link Complex}
   */
  public static DType resultType(DType array, Object scalar) {
    Kind sk = scalarKind(scalar);
    switch (sk) {
      case BOOL:
        return array;
      case SIGNED:
        return array.isBool() ? INT64 : array;
      case FLOAT:
        return array.isFloating() ? array : FLOAT64;
      case COMPLEX:
        if (array.isComplex()) {
          return array;
        }
        return array == FLOAT32 ? COMPLEX64 : COMPLEX128;
      default:
        throw new AssertionError(sk);
    }
  }

  /** The kind of a Java scalar: BOOL, SIGNED (any integer), FLOAT or COMPLEX. */
  public static Kind scalarKind(Object scalar) {
    if (scalar instanceof Boolean) {
      return Kind.BOOL;
    }
    if (scalar instanceof Byte
        || scalar instanceof Short
        || scalar instanceof Integer
        || scalar instanceof Long
        || scalar instanceof BigInteger) {
      return Kind.SIGNED;
    }
    if (scalar instanceof Float || scalar instanceof Double) {
      return Kind.FLOAT;
    }
    if (scalar instanceof Complex) {
      return Kind.COMPLEX;
    }
    throw new IllegalArgumentException(
        "unsupported scalar "
            + (scalar == null ? "null" : scalar.getClass().getName() + " " + scalar)
            + ": expected Boolean, an integer type, Float, Double or dev.cubed.nd.Complex");
  }

  /** The dtype NumPy gives a lone Java scalar: bool, int64, float64 or complex128. */
  public static DType ofScalar(Object scalar) {
    return switch (scalarKind(scalar)) {
      case BOOL -> BOOL;
      case SIGNED -> INT64;
      case FLOAT -> FLOAT64;
      case COMPLEX -> COMPLEX128;
      default -> throw new AssertionError();
    };
  }

  // ---------------------------------------------------------------- finfo / iinfo

  /** Machine limits of a floating-point dtype (the standard's {@code finfo}). */
  public record FInfo(
      DType dtype, int bits, double eps, double max, double min, double smallestNormal) {}

  /** Machine limits of an integer dtype (the standard's {@code iinfo}). */
  public record IInfo(DType dtype, int bits, BigInteger min, BigInteger max) {}

  /**
   * The standard's {@code finfo}: for complex types, the limits of the real component type.
   *
   * @throws IllegalArgumentException for non-floating dtypes
   */
  public FInfo finfo() {
    return switch (realPart()) {
      case FLOAT32 ->
          new FInfo(
              FLOAT32, 32, Math.ulp(1.0f), Float.MAX_VALUE, -Float.MAX_VALUE, Float.MIN_NORMAL);
      case FLOAT64 ->
          new FInfo(
              FLOAT64, 64, Math.ulp(1.0), Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_NORMAL);
      default ->
          throw new IllegalArgumentException(
              "finfo: " + standardName + " is not a floating-point dtype; use iinfo for integers");
    };
  }

  /**
   * The standard's {@code iinfo}.
   *
   * @throws IllegalArgumentException for non-integer dtypes
   */
  public IInfo iinfo() {
    if (!isInteger()) {
      throw new IllegalArgumentException(
          "iinfo: " + standardName + " is not an integer dtype; use finfo for floating types");
    }
    int bits = itemSize * 8;
    if (isSigned()) {
      BigInteger max = BigInteger.ONE.shiftLeft(bits - 1).subtract(BigInteger.ONE);
      return new IInfo(this, bits, max.negate().subtract(BigInteger.ONE), max);
    }
    return new IInfo(
        this, bits, BigInteger.ZERO, BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE));
  }

  /** The Java array class backing this dtype (see the class comment). */
  Class<?> backingClass() {
    return switch (this) {
      case BOOL -> boolean[].class;
      case INT8, UINT8 -> byte[].class;
      case INT16, UINT16 -> short[].class;
      case INT32, UINT32 -> int[].class;
      case INT64, UINT64 -> long[].class;
      case FLOAT32, COMPLEX64 -> float[].class;
      case FLOAT64, COMPLEX128 -> double[].class;
    };
  }

  /** A new zero-filled backing array for {@code n} elements of this dtype. */
  Object allocate(int n) {
    return switch (this) {
      case BOOL -> new boolean[n];
      case INT8, UINT8 -> new byte[n];
      case INT16, UINT16 -> new short[n];
      case INT32, UINT32 -> new int[n];
      case INT64, UINT64 -> new long[n];
      case FLOAT32 -> new float[n];
      case FLOAT64 -> new double[n];
      case COMPLEX64 -> new float[2 * n];
      case COMPLEX128 -> new double[2 * n];
    };
  }
}
