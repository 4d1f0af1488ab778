package dev.cubed.zarr.codec;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cubed.nd.Complex;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.store.Json;
import dev.cubed.zarr.store.ZarrFormatException;
import java.math.BigInteger;
import java.util.List;

/** Fill value parsing, encoding and the "chunk is all fill value" test. */
public final class FillValues {
  private FillValues() {}

  /** The default fill value of a dtype (false, 0, 0.0, 0+0j). */
  static Object zero(DType dtype) {
    if (dtype.isBool()) {
      return Boolean.FALSE;
    }
    if (dtype.isComplex()) {
      return Complex.ZERO;
    }
    if (dtype.isFloating()) {
      return 0.0;
    }
    return 0L;
  }

  /**
   * Normalizes a user-supplied fill value to the dtype (Boolean, Long/BigInteger, Double, Complex).
   */
  public static Object normalize(DType dtype, Object v) {
    if (v == null) {
      return zero(dtype);
    }
    NDArray one = NDArray.zeros(dtype);
    one.setObject(0, v);
    Object o = one.getObject(0);
    if (o instanceof Float f) {
      return f.doubleValue();
    }
    if (o instanceof Byte || o instanceof Short || o instanceof Integer) {
      return ((Number) o).longValue();
    }
    if (o instanceof Long || o instanceof BigInteger) {
      return o;
    }
    return o;
  }

  /** Parses a JSON fill value of a dtype; {@code null} JSON gives the default. */
  public static Object parse(DType dtype, JsonNode n, String where) {
    if (n == null || n.isNull() || n.isMissingNode()) {
      return zero(dtype);
    }
    String field = where + ": field 'fill_value' (" + Json.text(n) + ")";
    if (dtype.isBool()) {
      if (n.isBoolean()) {
        return n.booleanValue();
      }
      if (n.isIntegralNumber() && (n.longValue() == 0 || n.longValue() == 1)) {
        return n.longValue() == 1;
      }
      throw new ZarrFormatException(field + ": expected true or false for dtype bool");
    }
    if (dtype.isInteger()) {
      BigInteger b;
      if (n.isIntegralNumber()) {
        b = n.bigIntegerValue();
      } else if (n.isNumber()
          && n.doubleValue() == Math.rint(n.doubleValue())
          && !Double.isInfinite(n.doubleValue())) {
        b = n.decimalValue().toBigInteger();
      } else {
        throw new ZarrFormatException(field + ": expected an integer for dtype " + dtype);
      }
      var info = dtype.iinfo();
      if (b.compareTo(info.min()) < 0 || b.compareTo(info.max()) > 0) {
        throw new ZarrFormatException(
            field
                + ": "
                + b
                + " is outside the range of "
                + dtype
                + " ["
                + info.min()
                + ", "
                + info.max()
                + "]");
      }
      return b.bitLength() < 64 ? (Object) b.longValue() : b;
    }
    if (dtype.isComplex()) {
      if (n.isArray() && n.size() == 2) {
        return new Complex(
            parseReal(dtype.realPart(), n.get(0), field),
            parseReal(dtype.realPart(), n.get(1), field));
      }
      if (n.isNumber() || n.isTextual()) {
        return new Complex(parseReal(dtype.realPart(), n, field), 0);
      }
      throw new ZarrFormatException(field + ": expected [real, imag] for dtype " + dtype);
    }
    return parseReal(dtype, n, field);
  }

  private static double parseReal(DType dtype, JsonNode n, String field) {
    if (n.isNumber()) {
      return n.doubleValue();
    }
    if (n.isTextual()) {
      String s = n.textValue();
      switch (s) {
        case "NaN":
          return Double.NaN;
        case "Infinity":
          return Double.POSITIVE_INFINITY;
        case "-Infinity":
          return Double.NEGATIVE_INFINITY;
        default:
          break;
      }
      if (s.startsWith("0x") || s.startsWith("0X")) {
        String hex = s.substring(2);
        try {
          if (dtype == DType.FLOAT32 && hex.length() <= 8) {
            return Float.intBitsToFloat((int) Long.parseUnsignedLong(hex, 16));
          }
          if (dtype == DType.FLOAT64 && hex.length() <= 16) {
            return Double.longBitsToDouble(Long.parseUnsignedLong(hex, 16));
          }
        } catch (NumberFormatException e) {
          // fall through to the error
        }
      }
    }
    throw new ZarrFormatException(
        field
            + ": expected a number, \"NaN\", \"Infinity\","
            + " \"-Infinity\" or a hex bit pattern \"0x...\" for dtype "
            + dtype);
  }

  /** The JSON form of a normalized fill value (non-finite floats as strings, complex as a pair). */
  public static Object toJson(DType dtype, Object v) {
    if (v instanceof Complex c) {
      return List.of(realJson(c.re()), realJson(c.im()));
    }
    if (v instanceof Double d) {
      return realJson(d);
    }
    return v;
  }

  private static Object realJson(double d) {
    if (Double.isNaN(d)) {
      return "NaN";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "Infinity" : "-Infinity";
    }
    return d;
  }

  /**
   * True if every element equals the fill value: integers and bools by value, floats (and each part
   * of a complex) by bit pattern, except that every NaN equals a NaN fill. Bit equality keeps the
   * sign of zero: a chunk of -0.0 under fill value 0.0 (or +0.0 under -0.0) is not empty, so it is
   * written and reads back with its sign. (zarr-python 3 compares with {@code np.array_equal(...,
   * equal_nan=True)}, i.e. -0.0 == 0.0, and skips such a chunk; the chunks written here are
   * ordinary chunks it reads correctly.)
   */
  public static boolean isAllFill(NDArray a, Object fill) {
    int n = a.size();
    Object data = a.data();
    switch (a.dtype()) {
      case BOOL -> {
        boolean f = (Boolean) normalize(DType.BOOL, fill);
        boolean[] d = (boolean[]) data;
        for (int i = 0; i < n; i++) {
          if (d[i] != f) {
            return false;
          }
        }
        return true;
      }
      case INT8, UINT8 -> {
        byte f = (byte) ((Number) normalize(a.dtype(), fill)).longValue();
        byte[] d = (byte[]) data;
        for (int i = 0; i < n; i++) {
          if (d[i] != f) {
            return false;
          }
        }
        return true;
      }
      case INT16, UINT16 -> {
        short f = (short) ((Number) normalize(a.dtype(), fill)).longValue();
        short[] d = (short[]) data;
        for (int i = 0; i < n; i++) {
          if (d[i] != f) {
            return false;
          }
        }
        return true;
      }
      case INT32, UINT32 -> {
        int f = (int) ((Number) normalize(a.dtype(), fill)).longValue();
        int[] d = (int[]) data;
        for (int i = 0; i < n; i++) {
          if (d[i] != f) {
            return false;
          }
        }
        return true;
      }
      case INT64, UINT64 -> {
        long f = ((Number) normalize(a.dtype(), fill)).longValue();
        long[] d = (long[]) data;
        for (int i = 0; i < n; i++) {
          if (d[i] != f) {
            return false;
          }
        }
        return true;
      }
      case FLOAT32, COMPLEX64 -> {
        float[] d = (float[]) data;
        float re;
        float im;
        Object f = normalize(a.dtype(), fill);
        if (f instanceof Complex c) {
          re = (float) c.re();
          im = (float) c.im();
        } else {
          re = (float) ((Double) f).doubleValue();
          im = re;
        }
        boolean cx = a.dtype().isComplex();
        for (int i = 0; i < d.length; i++) {
          float fv = cx && (i & 1) == 1 ? im : re;
          float x = d[i];
          if (Float.floatToRawIntBits(x) != Float.floatToRawIntBits(fv) && !(x != x && fv != fv)) {
            return false;
          }
        }
        return true;
      }
      case FLOAT64, COMPLEX128 -> {
        double[] d = (double[]) data;
        double re;
        double im;
        Object f = normalize(a.dtype(), fill);
        if (f instanceof Complex c) {
          re = c.re();
          im = c.im();
        } else {
          re = (Double) f;
          im = re;
        }
        boolean cx = a.dtype().isComplex();
        for (int i = 0; i < d.length; i++) {
          double fv = cx && (i & 1) == 1 ? im : re;
          double x = d[i];
          if (Double.doubleToRawLongBits(x) != Double.doubleToRawLongBits(fv)
              && !(x != x && fv != fv)) {
            return false;
          }
        }
        return true;
      }
      default -> throw new IllegalStateException("unreachable");
    }
  }
}
