package dev.cubed;

import dev.cubed.nd.DType;
import dev.cubed.nd.DataTypes;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Array API inspection namespace of the chunked layer ({@code __array_namespace_info__()}),
 * returned by {@link Xp#info()}. The engine has one device, {@code "cpu"} (tasks run on JVM threads
 * or processes; the arrays live in a Zarr store).
 */
public final class ArrayApiInfo {
  /** The one device name. */
  public static final String CPU = "cpu";

  static final ArrayApiInfo INSTANCE = new ArrayApiInfo();

  private ArrayApiInfo() {}

  /**
   * {@code capabilities()}: {@code "boolean indexing"} and {@code "data-dependent shapes"} are
   * true: {@link Xp#nonzero}, masks of x's shape or over its leading dimensions ({@link
   * Xp#getMask}) and the unique functions work, each running a counting pass when called (the
   * results are lazy, chunked by the counts; unique is for real and bool dtypes); {@code "max
   * dimensions"} is null (no limit, as the standard spells "None").
   */
  public Map<String, Object> capabilities() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("boolean indexing", true);
    m.put("data-dependent shapes", true);
    m.put("max dimensions", null);
    return Collections.unmodifiableMap(m);
  }

  /** {@code default_device()}: {@code "cpu"}. */
  public String defaultDevice() {
    return CPU;
  }

  /** {@code devices()}: {@code ["cpu"]}. */
  public List<String> devices() {
    return List.of(CPU);
  }

  /**
   * {@code default_dtypes()}: "real floating" float64, "complex floating" complex128, "integral"
   * int64, "indexing" int64.
   *
   * @throws IllegalArgumentException for a device other than "cpu"
   */
  public Map<String, DType> defaultDtypes(String device) {
    checkDevice("default_dtypes", device);
    Map<String, DType> m = new LinkedHashMap<>();
    m.put("real floating", DType.FLOAT64);
    m.put("complex floating", DType.COMPLEX128);
    m.put("integral", DType.INT64);
    m.put("indexing", DType.INT64);
    return Collections.unmodifiableMap(m);
  }

  /** {@code default_dtypes()} for the default device. */
  public Map<String, DType> defaultDtypes() {
    return defaultDtypes(CPU);
  }

  /** {@code dtypes()}: every supported dtype by its standard name, in the standard's order. */
  public Map<String, DType> dtypes() {
    return dtypes(CPU, null);
  }

  /**
   * {@code dtypes(device, kind)}: the supported dtypes of a kind ("bool", "signed integer",
   * "unsigned integer", "integral", "real floating", "complex floating", "numeric"; null for all).
   *
   * @throws IllegalArgumentException for an unknown kind or a device other than "cpu"
   */
  public Map<String, DType> dtypes(String device, String kind) {
    checkDevice("dtypes", device);
    Map<String, DType> m = new LinkedHashMap<>();
    for (DType t : DType.values()) {
      if (kind == null || DataTypes.isdtype(t, kind)) {
        m.put(t.standardName(), t);
      }
    }
    return Collections.unmodifiableMap(m);
  }

  private static void checkDevice(String fn, String device) {
    if (device != null && !CPU.equals(device)) {
      throw new IllegalArgumentException(
          fn + ": unknown device '" + device + "'; the only device is \"cpu\"");
    }
  }
}
