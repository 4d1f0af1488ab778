package dev.cubed.nd;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * The standard's data type functions: {@code astype}, {@code can_cast}, {@code isdtype}, {@code
 * result_type}, {@code finfo} and {@code iinfo}.
 */
public final class DataTypes {
  private DataTypes() {}

  /**
   * {@code astype(x, dtype)} with {@code copy=True}: always a new array (see {@link
   * NDArray#astype}).
   */
  public static NDArray astype(NDArray x, DType dtype) {
    return x.astype(dtype);
  }

  /**
   * {@code astype(x, dtype, copy=...)}: with {@link Manipulation.Copy#IF_NEEDED} (or {@code NEVER})
   * and an unchanged dtype, x itself is returned.
   *
   * @throws IllegalArgumentException for {@code NEVER} when the dtype changes (a copy is needed)
   */
  public static NDArray astype(NDArray x, DType dtype, Manipulation.Copy copy) {
    if (dtype == x.dtype() && copy != Manipulation.Copy.ALWAYS) {
      return x;
    }
    if (copy == Manipulation.Copy.NEVER) {
      throw new IllegalArgumentException(
          "astype: converting " + x.dtype() + " to " + dtype + " needs a copy, but copy=False");
    }
    return x.astype(dtype);
  }

  /**
   * {@code can_cast(from_, to)} with NumPy's "safe" rule: true when every value of {@code from} is
   * exactly representable in {@code to} (equivalently, promoting the two gives {@code to}).
   */
  public static boolean canCast(DType from, DType to) {
    return DType.resultType(from, to) == to;
  }

  /** {@code can_cast(x, to)}: the rule of {@link #canCast(DType, DType)} for x's dtype. */
  public static boolean canCast(NDArray from, DType to) {
    return canCast(from.dtype(), to);
  }

  /**
   * {@code isdtype(dtype, kind)}: whether the dtype is of any of the kinds, each a {@link DType}
   * (equality) or one of the strings "bool", "signed integer", "unsigned integer", "integral",
   * "real floating", "complex floating", "numeric". Several kinds form the standard's tuple.
   *
   * @throws IllegalArgumentException for an unknown kind string or another kind object
   */
  public static boolean isdtype(DType dtype, Object... kinds) {
    for (Object k : kinds) {
      if (k instanceof DType d) {
        if (d == dtype) {
          return true;
        }
      } else if (k instanceof String s) {
        boolean match =
            switch (s) {
              case "bool" -> dtype.isBool();
              case "signed integer" -> dtype.isSigned();
              case "unsigned integer" -> dtype.isUnsigned();
              case "integral" -> dtype.isInteger();
              case "real floating" -> dtype.isRealFloating();
              case "complex floating" -> dtype.isComplex();
              case "numeric" -> dtype.isNumeric();
              default ->
                  throw new IllegalArgumentException(
                      "isdtype: unknown kind \""
                          + s
                          + "\"; expected a dtype or one of \"bool\", \"signed"
                          + " integer\", \"unsigned integer\", \"integral\", \"real floating\", \"complex"
                          + " floating\", \"numeric\"");
            };
        if (match) {
          return true;
        }
      } else {
        throw new IllegalArgumentException(
            "isdtype: kind " + k + " must be a DType or a kind name string");
      }
    }
    return false;
  }

  /**
   * {@code result_type(*arrays_and_dtypes)}: arrays ({@link NDArray}) and dtypes promote with
   * {@link DType#resultType(DType, DType)}; then Java scalars (Boolean, integers, Float/Double,
   * {@link Complex}) apply with {@link DType#resultType(DType, Object)}.
   *
   * @throws IllegalArgumentException if no array or dtype is given, or for an unsupported argument
   */
  public static DType resultType(Object... arraysAndDtypes) {
    DType r = null;
    List<Object> scalars = new ArrayList<>();
    for (Object o : arraysAndDtypes) {
      DType d = o instanceof NDArray a ? a.dtype() : o instanceof DType t ? t : null;
      if (d != null) {
        r = r == null ? d : DType.resultType(r, d);
      } else {
        DType.scalarKind(o);
        scalars.add(o);
      }
    }
    if (r == null) {
      throw new IllegalArgumentException(
          "result_type: at least one array or dtype is required, got only scalars " + scalars);
    }
    for (Object s : scalars) {
      r = DType.resultType(r, s);
    }
    return r;
  }

  /** {@code finfo(dtype)}; see {@link DType#finfo()}. */
  public static DType.FInfo finfo(DType dtype) {
    return dtype.finfo();
  }

  /** {@code finfo(x)} for an array's dtype. */
  public static DType.FInfo finfo(NDArray x) {
    return x.dtype().finfo();
  }

  /** {@code iinfo(dtype)}; see {@link DType#iinfo()}. */
  public static DType.IInfo iinfo(DType dtype) {
    return dtype.iinfo();
  }

  /** {@code iinfo(x)} for an array's dtype. */
  public static DType.IInfo iinfo(NDArray x) {
    return x.dtype().iinfo();
  }

  /**
   * A Java scalar operand as a 0-d array of the dtype it takes next to an array of dtype {@code
   * array} ({@link DType#resultType(DType, Object)}), as the binary functions of the standard take
   * a Python scalar operand. {@code fn} names the calling function in the message.
   *
   * @throws IllegalArgumentException if an integer scalar does not fit the integer result dtype
   */
  public static NDArray scalarOperand(String fn, DType array, Object value) {
    DType r = DType.resultType(array, value);
    if (r.isInteger() && DType.scalarKind(value) == DType.Kind.SIGNED) {
      BigInteger v =
          value instanceof BigInteger b ? b : BigInteger.valueOf(((Number) value).longValue());
      DType.IInfo info = r.iinfo();
      if (v.compareTo(info.min()) < 0 || v.compareTo(info.max()) > 0) {
        throw new IllegalArgumentException(
            fn
                + ": scalar "
                + v
                + " is out of range for dtype "
                + r
                + " ("
                + info.min()
                + " to "
                + info.max()
                + "); a Java integer scalar takes the array's dtype and must fit it");
      }
      if (r == DType.UINT64) {
        return NDArray.scalar(r, v.longValue());
      }
    }
    return NDArray.scalar(r, value);
  }
}
