package dev.cubed.zarr;

import dev.cubed.nd.DType;
import dev.cubed.nd.Shapes;
import java.io.Serializable;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The metadata of one Zarr array, in either format: what {@code .zarray}/{@code .zattrs} (v2) or
 * {@code zarr.json} (v3) hold, normalized.
 *
 * @param zarrFormat 2 or 3
 * @param shape the array's shape
 * @param chunks the regular chunk shape
 * @param dtype element type
 * @param bigEndian byte order of encoded elements
 * @param fillValue the value of elements never written (Boolean, Long, Double or Complex)
 * @param fortranOrder v2 {@code order: "F"} or a v3 transpose codec reversing the axes
 * @param compressors bytes-to-bytes codecs in encoding order (v2: at most one)
 * @param separator chunk key separator ("." or "/")
 * @param v2KeyEncoding true for v2-style keys ("0.0"), false for v3 default keys ("c/0/0")
 * @param attributes user attributes
 * @param dimensionNames v3 dimension_names, or v2 {@code _ARRAY_DIMENSIONS}; null if none
 */
public record ArrayMetadata(
    int zarrFormat,
    long[] shape,
    long[] chunks,
    DType dtype,
    boolean bigEndian,
    Object fillValue,
    boolean fortranOrder,
    List<Compressor> compressors,
    String separator,
    boolean v2KeyEncoding,
    Map<String, Object> attributes,
    List<String> dimensionNames)
    implements Serializable {

  public ArrayMetadata {
    shape = shape.clone();
    chunks = chunks.clone();
    compressors = List.copyOf(compressors);
    attributes = Map.copyOf(attributes);
    dimensionNames = dimensionNames == null ? null : List.copyOf(dimensionNames);
    if (shape.length != chunks.length) {
      throw new ZarrException("shape " + Shapes.format(shape) + " and chunks "
          + Shapes.format(chunks) + " must have the same number of dimensions");
    }
    for (int i = 0; i < shape.length; i++) {
      if (shape[i] < 0 || chunks[i] < 1) {
        throw new ZarrException("invalid shape " + Shapes.format(shape) + " / chunks "
            + Shapes.format(chunks) + ": dimensions must be >= 0 and chunk sizes >= 1");
      }
    }
    long chunkElems;
    try {
      chunkElems = Shapes.size(chunks);
      Shapes.size(shape);
    } catch (ArithmeticException e) {
      throw new ZarrException("shape " + Shapes.format(shape) + " or chunks "
          + Shapes.format(chunks) + " overflow 64-bit sizes");
    }
    if (chunkElems * (long) dtype.itemSize() > Integer.MAX_VALUE - 8) {
      throw new ZarrException("chunk shape " + Shapes.format(chunks) + " of " + dtype + " is "
          + chunkElems * dtype.itemSize() + " bytes; a chunk must fit in 2 GB");
    }
    if (dimensionNames != null && dimensionNames.size() != shape.length) {
      throw new ZarrException("dimension names " + dimensionNames + " must have one name per"
          + " dimension of shape " + Shapes.format(shape));
    }
  }

  public ByteOrder byteOrder() {
    return bigEndian ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
  }

  /** Number of chunks along each dimension. */
  public long[] chunkGridShape() {
    long[] g = new long[shape.length];
    for (int i = 0; i < shape.length; i++) {
      g[i] = (shape[i] + chunks[i] - 1) / chunks[i];
    }
    return g;
  }

  /** Bytes of one full (unclipped) decoded chunk. */
  public long chunkBytes() {
    return Shapes.size(chunks) * dtype.itemSize();
  }

  /** A copy with other attributes. */
  public ArrayMetadata withAttributes(Map<String, Object> attrs) {
    return new ArrayMetadata(zarrFormat, shape, chunks, dtype, bigEndian, fillValue, fortranOrder,
        compressors, separator, v2KeyEncoding, attrs, dimensionNames);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ArrayMetadata m && m.zarrFormat == zarrFormat
        && Arrays.equals(m.shape, shape) && Arrays.equals(m.chunks, chunks) && m.dtype == dtype
        && m.bigEndian == bigEndian && java.util.Objects.equals(m.fillValue, fillValue)
        && m.fortranOrder == fortranOrder && m.compressors.equals(compressors)
        && m.separator.equals(separator) && m.v2KeyEncoding == v2KeyEncoding
        && m.attributes.equals(attributes)
        && java.util.Objects.equals(m.dimensionNames, dimensionNames);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(shape) * 31 + dtype.hashCode();
  }

  @Override
  public String toString() {
    return "ArrayMetadata(v" + zarrFormat + ", shape=" + Shapes.format(shape) + ", chunks="
        + Shapes.format(chunks) + ", dtype=" + dtype + (bigEndian ? " (big-endian)" : "")
        + ", fill=" + fillValue + ", codecs=" + compressors.stream().map(Compressor::id).toList()
        + ")";
  }
}
