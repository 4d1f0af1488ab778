package dev.cubed.zarr.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cubed.nd.DType;
import dev.cubed.nd.Shapes;
import dev.cubed.zarr.codec.BytesCodecs;
import dev.cubed.zarr.codec.ChunkCodec;
import dev.cubed.zarr.codec.FillValues;
import dev.cubed.zarr.codec.V2Codec;
import dev.cubed.zarr.store.ZarrFormatException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** Parsed, validated metadata of one array (v2 or v3), and its serialization. */
public final class ArrayMetadata implements Serializable {
  private static final long serialVersionUID = 1L;
  static final int MAX_DIMS = 32;
  static final long MAX_CHUNK_BYTES = Integer.MAX_VALUE - 8;

  public final int zarrFormat;
  public final long[] shape;
  public final int[] chunks;
  public final DType dtype;
  public final Object fillValue;
  public final LinkedHashMap<String, Object> attributes;
  public final List<String> dimensionNames; // null if none
  final String separator;
  final boolean v3DefaultKeys; // "c/" prefix
  public final ChunkCodec codec;

  public ArrayMetadata(
      int zarrFormat,
      long[] shape,
      int[] chunks,
      DType dtype,
      Object fillValue,
      Map<String, Object> attributes,
      List<String> dimensionNames,
      String separator,
      boolean v3DefaultKeys,
      ChunkCodec codec) {
    this.zarrFormat = zarrFormat;
    this.shape = shape;
    this.chunks = chunks;
    this.dtype = dtype;
    this.fillValue = fillValue;
    this.attributes = new LinkedHashMap<>(attributes);
    this.dimensionNames =
        dimensionNames == null
            ? null
            : Collections.unmodifiableList(new ArrayList<>(dimensionNames));
    this.separator = separator;
    this.v3DefaultKeys = v3DefaultKeys;
    this.codec = codec;
  }

  /** This metadata with its attributes replaced. */
  public ArrayMetadata withAttributes(Map<String, ?> attrs) {
    return new ArrayMetadata(
        zarrFormat,
        shape,
        chunks,
        dtype,
        fillValue,
        new LinkedHashMap<>(attrs),
        dimensionNames,
        separator,
        v3DefaultKeys,
        codec);
  }

  /** Checks shape and chunks for absurd sizes; {@code where} names the document. */
  public static void checkSizes(long[] shape, int[] chunks, DType dtype, String where) {
    if (shape.length > MAX_DIMS) {
      throw new ZarrFormatException(
          where
              + ": field 'shape' has "
              + shape.length
              + " dimensions, more than the "
              + MAX_DIMS
              + " supported");
    }
    if (chunks.length != shape.length) {
      throw new ZarrFormatException(
          where
              + ": chunk shape "
              + Arrays.toString(chunks)
              + " has "
              + chunks.length
              + " dimensions but shape "
              + Arrays.toString(shape)
              + " has "
              + shape.length);
    }
    long elems = 1;
    for (int i = 0; i < shape.length; i++) {
      if (shape[i] < 0) {
        throw new ZarrFormatException(
            where + ": field 'shape' has negative extent " + shape[i] + " in dimension " + i);
      }
      if (chunks[i] < 1) {
        throw new ZarrFormatException(
            where
                + ": chunk shape has extent "
                + chunks[i]
                + " in dimension "
                + i
                + "; expected >= 1");
      }
      elems *= chunks[i];
      if (elems * dtype.itemSize() > MAX_CHUNK_BYTES) {
        throw new ZarrFormatException(
            where
                + ": chunk shape "
                + Arrays.toString(chunks)
                + " of "
                + dtype
                + " exceeds the limit of "
                + MAX_CHUNK_BYTES
                + " bytes (2^31 elements) per chunk");
      }
    }
    try {
      Shapes.byteSize("field 'shape'", shape, dtype);
    } catch (IllegalArgumentException e) {
      throw new ZarrFormatException(where + ": " + e.getMessage(), e);
    }
  }

  static long[] longArray(JsonNode n, String where, String field) {
    if (n == null || !n.isArray()) {
      throw new ZarrFormatException(
          where + ": field '" + field + "' is missing or not a list of integers");
    }
    if (n.size() > MAX_DIMS) {
      throw new ZarrFormatException(
          where
              + ": field '"
              + field
              + "' has "
              + n.size()
              + " entries, more than the "
              + MAX_DIMS
              + " supported dimensions");
    }
    long[] out = new long[n.size()];
    for (int i = 0; i < out.length; i++) {
      JsonNode e = n.get(i);
      if (!e.isIntegralNumber() || !e.canConvertToLong()) {
        throw new ZarrFormatException(
            where
                + ": field '"
                + field
                + "' entry "
                + i
                + " ("
                + e
                + ") is not an integer that fits in 64 bits");
      }
      out[i] = e.longValue();
      if (out[i] < 0 || out[i] > (1L << 62)) {
        throw new ZarrFormatException(
            where + ": field '" + field + "' entry " + i + " (" + out[i] + ") is outside 0..2^62");
      }
    }
    return out;
  }

  public static int[] intChunks(long[] c, String where) {
    int[] out = new int[c.length];
    for (int i = 0; i < c.length; i++) {
      if (c[i] > Integer.MAX_VALUE || c[i] < 1) {
        throw new ZarrFormatException(
            where + ": chunk extent " + c[i] + " in dimension " + i + " is outside 1..2^31-1");
      }
      out[i] = (int) c[i];
    }
    return out;
  }

  // ------------------------------------------------------------------ chunk keys

  /** The chunk key relative to the array (e.g. "c/0/1", "0.1", "c" and "0" for 0-d). */
  public String chunkKey(long[] coords) {
    StringBuilder sb = new StringBuilder();
    if (v3DefaultKeys) {
      sb.append('c');
      for (long c : coords) {
        sb.append(separator).append(c);
      }
      return sb.toString();
    }
    if (coords.length == 0) {
      return "0";
    }
    for (int i = 0; i < coords.length; i++) {
      if (i > 0) {
        sb.append(separator);
      }
      sb.append(coords[i]);
    }
    return sb.toString();
  }

  /** True if a key relative to the array is a chunk key of this array's encoding. */
  public boolean isChunkKey(String rel) {
    int nd = shape.length;
    String s = rel;
    if (v3DefaultKeys) {
      if (nd == 0) {
        return s.equals("c");
      }
      if (!s.startsWith("c" + separator)) {
        return false;
      }
      s = s.substring(1 + separator.length());
    } else if (nd == 0) {
      return s.equals("0");
    }
    String[] parts = s.split(Pattern.quote(separator), -1);
    if (parts.length != nd) {
      return false;
    }
    for (String p : parts) {
      if (p.isEmpty() || p.length() > 19) {
        return false;
      }
      for (int i = 0; i < p.length(); i++) {
        if (!Character.isDigit(p.charAt(i))) {
          return false;
        }
      }
    }
    return true;
  }

  // ------------------------------------------------------------------ serialization

  public Map<String, Object> toV3Json() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("zarr_format", 3);
    m.put("node_type", "array");
    m.put("shape", toList(shape));
    m.put("data_type", dtype.zarrV3Name());
    m.put("chunk_grid", BytesCodecs.doc("name", "regular", "chunk_shape", toList(chunks)));
    m.put(
        "chunk_key_encoding",
        BytesCodecs.doc("name", v3DefaultKeys ? "default" : "v2", "separator", separator));
    m.put("fill_value", FillValues.toJson(dtype, fillValue));
    m.put("codecs", codec.describe());
    m.put("attributes", attributes);
    if (dimensionNames != null) {
      m.put("dimension_names", dimensionNames);
    }
    m.put("storage_transformers", List.of());
    return m;
  }

  public Map<String, Object> toV2Json() {
    V2Codec c = (V2Codec) codec;
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("zarr_format", 2);
    m.put("shape", toList(shape));
    m.put("chunks", toList(chunks));
    m.put("dtype", dtype.typeString(c.bigEndian));
    m.put("compressor", c.compressor == null ? null : c.compressor.v2Json());
    m.put("fill_value", FillValues.toJson(dtype, fillValue));
    m.put("order", c.fortran ? "F" : "C");
    m.put("filters", null);
    m.put("dimension_separator", separator);
    return m;
  }

  /** v2 attributes: the user's plus {@code _ARRAY_DIMENSIONS} when dimension names are set. */
  public Map<String, Object> v2Attributes() {
    Map<String, Object> a = new LinkedHashMap<>(attributes);
    if (dimensionNames != null) {
      a.put("_ARRAY_DIMENSIONS", dimensionNames);
    }
    return a;
  }

  static List<Long> toList(long[] a) {
    List<Long> l = new ArrayList<>();
    for (long v : a) {
      l.add(v);
    }
    return l;
  }

  static List<Integer> toList(int[] a) {
    List<Integer> l = new ArrayList<>();
    for (int v : a) {
      l.add(v);
    }
    return l;
  }
}
