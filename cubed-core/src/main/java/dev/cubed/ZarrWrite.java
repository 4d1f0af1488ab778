package dev.cubed;

import dev.cubed.zarr.codec.Compression;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * How {@link Cubed#toZarr(CubedArray, String, ZarrWrite)} writes an array: the Zarr format, the
 * compressor, whether an existing array at the target is replaced, extra attributes and how the
 * compute runs. Immutable; start with {@link #defaults()}.
 *
 * <p>Defaults are what zarr-python 3 writes with its own defaults, so that other tools read the
 * result at their usual speed: Zarr format 3, the {@code zstd} codec at level 0 (the library's
 * default level) without its checksum, the array's chunks, no overwrite, the spec's executor.
 */
public final class ZarrWrite {
  private final int zarrFormat;
  private final Compression compression;
  private final boolean overwrite;
  private final Map<String, Object> attributes;
  private final ComputeOptions compute;

  private ZarrWrite(
      int zarrFormat,
      Compression compression,
      boolean overwrite,
      Map<String, Object> attributes,
      ComputeOptions compute) {
    this.zarrFormat = zarrFormat;
    this.compression = compression;
    this.overwrite = overwrite;
    this.attributes = Map.copyOf(attributes);
    this.compute = compute;
  }

  /** Zarr v3, zstd (zarr-python's default codec), no overwrite, default compute options. */
  public static ZarrWrite defaults() {
    return new ZarrWrite(3, null, false, Map.of(), ComputeOptions.defaults());
  }

  /**
   * A copy writing Zarr format 2 or 3 (for 2 the compressor becomes {@code .zarray}'s {@code
   * compressor}).
   *
   * @throws IllegalArgumentException for any other format
   */
  public ZarrWrite zarrFormat(int format) {
    if (format != 2 && format != 3) {
      throw new IllegalArgumentException(
          "ZarrWrite.zarrFormat: " + format + " is not a Zarr format; use 2 or 3");
    }
    return new ZarrWrite(format, compression, overwrite, attributes, compute);
  }

  /** A copy with this compressor instead of zarr-python's default ({@code zstd}, level 0). */
  public ZarrWrite compression(Compression c) {
    return new ZarrWrite(
        zarrFormat, Objects.requireNonNull(c, "compression"), overwrite, attributes, compute);
  }

  /**
   * A copy that replaces an existing Zarr array or group at the target once the new array is
   * complete (never a path holding anything else; see {@link
   * dev.cubed.zarr.ZarrArrayBuilder#overwrite()}).
   */
  public ZarrWrite overwrite() {
    return new ZarrWrite(zarrFormat, compression, true, attributes, compute);
  }

  /** A copy adding these attributes to the array's metadata (later keys replace earlier ones). */
  public ZarrWrite attributes(Map<String, ?> attrs) {
    Map<String, Object> m = new LinkedHashMap<>(attributes);
    m.putAll(Objects.requireNonNull(attrs, "attributes"));
    return new ZarrWrite(zarrFormat, compression, overwrite, m, compute);
  }

  /** A copy whose compute runs with these options (executor, callbacks, resume). */
  public ZarrWrite compute(ComputeOptions options) {
    return new ZarrWrite(
        zarrFormat, compression, overwrite, attributes, Objects.requireNonNull(options, "options"));
  }

  int format() {
    return zarrFormat;
  }

  /** The compressor to write: the one chosen, else zarr-python's default. */
  Compression compressionOrDefault() {
    return compression != null ? compression : Compression.zarrPythonDefault();
  }

  boolean overwrites() {
    return overwrite;
  }

  Map<String, Object> extraAttributes() {
    return attributes;
  }

  ComputeOptions computeOptions() {
    return compute;
  }
}
