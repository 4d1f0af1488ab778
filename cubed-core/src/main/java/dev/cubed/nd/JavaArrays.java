package dev.cubed.nd;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Copies nested rectangular Java arrays into {@link NDArray}s (behind {@link NDArray#fromJava}).
 */
final class JavaArrays {
  private JavaArrays() {}

  static NDArray toNDArray(Object nested) {
    Objects.requireNonNull(nested, "nested");
    List<Long> dims = new ArrayList<>();
    Object cur = nested;
    while (cur.getClass().isArray() && cur.getClass().getComponentType().isArray()) {
      int n = Array.getLength(cur);
      dims.add((long) n);
      if (n == 0) {
        break;
      }
      cur = Array.get(cur, 0);
    }
    Class<?> leafType = leafComponent(nested.getClass());
    if (cur.getClass().isArray() && !cur.getClass().getComponentType().isArray()) {
      dims.add((long) Array.getLength(cur));
    }
    DType dtype =
        leafType == double.class
            ? DType.FLOAT64
            : leafType == float.class
                ? DType.FLOAT32
                : leafType == long.class
                    ? DType.INT64
                    : leafType == int.class
                        ? DType.INT32
                        : leafType == short.class
                            ? DType.INT16
                            : leafType == byte.class
                                ? DType.INT8
                                : leafType == boolean.class ? DType.BOOL : null;
    if (dtype == null) {
      throw new IllegalArgumentException(
          "fromJava: unsupported element type " + leafType + "; use primitive arrays");
    }
    long[] shape = dims.stream().mapToLong(Long::longValue).toArray();
    NDArray out = NDArray.zeros(dtype, shape);
    int[] pos = {0};
    flatten(nested, 0, shape, out.data(), pos);
    return out;
  }

  private static Class<?> leafComponent(Class<?> c) {
    while (c.isArray()) {
      c = c.getComponentType();
    }
    return c;
  }

  private static void flatten(Object arr, int depth, long[] shape, Object dst, int[] pos) {
    int n = Array.getLength(arr);
    if (n != shape[depth]) {
      throw new IllegalArgumentException(
          "fromJava: ragged array: dimension "
              + depth
              + " has length "
              + n
              + " here but "
              + shape[depth]
              + " elsewhere");
    }
    if (depth == shape.length - 1) {
      System.arraycopy(arr, 0, dst, pos[0], n);
      pos[0] += n;
      return;
    }
    for (int i = 0; i < n; i++) {
      flatten(Array.get(arr, i), depth + 1, shape, dst, pos);
    }
  }
}
