package dev.cubed.zarr;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cubed.nd.Complex;
import dev.cubed.nd.DType;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads and writes Zarr v2 and v3 array metadata documents (package-private). */
final class MetadataJson {
  private MetadataJson() {}

  static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  static JsonNode parse(byte[] bytes, String where) {
    if (bytes.length > 64 << 20) {
      throw new ZarrException(where + ": metadata of " + bytes.length + " bytes is absurdly large");
    }
    try {
      JsonNode n = JSON.readTree(bytes);
      if (n == null || !n.isObject()) {
        throw new ZarrException(where + ": metadata is not a JSON object");
      }
      return n;
    } catch (JsonProcessingException e) {
      throw new ZarrException(where + ": metadata is not valid JSON: " + e.getOriginalMessage(), e);
    } catch (java.io.IOException e) {
      throw new ZarrException(where + ": cannot read metadata", e);
    }
  }

  static byte[] write(JsonNode n) {
    try {
      return JSON.writeValueAsBytes(n);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> toMap(JsonNode n) {
    return n == null || n.isNull() ? Map.of() : JSON.convertValue(n, LinkedHashMap.class);
  }

  private static JsonNode required(JsonNode n, String field, String where) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      throw new ZarrException(where + ": required field '" + field + "' is missing");
    }
    return v;
  }

  private static long[] longs(JsonNode n, String field, String where) {
    JsonNode a = required(n, field, where);
    if (!a.isArray()) {
      throw new ZarrException(where + ": field '" + field + "' must be an array of integers");
    }
    long[] out = new long[a.size()];
    for (int i = 0; i < out.length; i++) {
      if (!a.get(i).canConvertToLong() || !a.get(i).isIntegralNumber()) {
        throw new ZarrException(where + ": field '" + field + "' must hold integers, got " + a);
      }
      out[i] = a.get(i).asLong();
    }
    return out;
  }

  // ---------------------------------------------------------------- v2

  static ArrayMetadata parseV2(byte[] zarray, byte[] zattrs, String where) {
    JsonNode n = parse(zarray, where + "/.zarray");
    String w = where + "/.zarray";
    if (required(n, "zarr_format", w).asInt() != 2) {
      throw new ZarrException(w + ": zarr_format must be 2");
    }
    long[] shape = longs(n, "shape", w);
    long[] chunks = longs(n, "chunks", w);
    JsonNode dt = required(n, "dtype", w);
    if (!dt.isTextual()) {
      throw new ZarrException(w + ": structured dtypes are not supported (dtype " + dt + ")");
    }
    DType dtype;
    try {
      dtype = DType.fromTypeString(dt.asText());
    } catch (IllegalArgumentException e) {
      throw new ZarrException(w + ": field 'dtype': " + e.getMessage());
    }
    boolean big = DType.isBigEndianTypeString(dt.asText());
    String order = n.path("order").asText("C");
    if (!order.equals("C") && !order.equals("F")) {
      throw new ZarrException(w + ": field 'order' must be \"C\" or \"F\", got " + order);
    }
    JsonNode filters = n.get("filters");
    if (filters != null && !filters.isNull() && filters.size() > 0) {
      throw new ZarrException(w + ": filters " + filters + " are not supported");
    }
    JsonNode comp = n.get("compressor");
    List<Compressor> cs = new ArrayList<>();
    if (comp != null && !comp.isNull()) {
      cs.add(Compressors.fromV2(toMap(comp), w + " compressor"));
    }
    String sep = n.path("dimension_separator").asText(".");
    Object fill = parseFill(n.get("fill_value"), dtype, w);
    Map<String, Object> attrs = new LinkedHashMap<>();
    if (zattrs != null) {
      attrs.putAll(toMap(parse(zattrs, where + "/.zattrs")));
    }
    List<String> dims = null;
    if (attrs.get("_ARRAY_DIMENSIONS") instanceof List<?> l && l.size() == shape.length) {
      dims = l.stream().map(String::valueOf).toList();
    }
    return new ArrayMetadata(2, shape, chunks, dtype, big, fill, order.equals("F"), cs, sep, true,
        attrs, dims);
  }

  static byte[] writeV2(ArrayMetadata m) {
    ObjectNode n = F.objectNode();
    n.put("zarr_format", 2);
    ArrayNode s = n.putArray("shape");
    for (long v : m.shape()) {
      s.add(v);
    }
    ArrayNode c = n.putArray("chunks");
    for (long v : m.chunks()) {
      c.add(v);
    }
    n.put("dtype", m.dtype().typeString(m.bigEndian()));
    if (m.compressors().isEmpty()) {
      n.putNull("compressor");
    } else {
      n.set("compressor", JSON.valueToTree(m.compressors().get(0).v2Config()));
    }
    n.set("fill_value", fillJson(m.fillValue(), m.dtype()));
    n.put("order", m.fortranOrder() ? "F" : "C");
    n.putNull("filters");
    n.put("dimension_separator", m.separator());
    return write(n);
  }

  static byte[] writeV2Attrs(ArrayMetadata m) {
    Map<String, Object> attrs = new LinkedHashMap<>(m.attributes());
    if (m.dimensionNames() != null) {
      attrs.put("_ARRAY_DIMENSIONS", m.dimensionNames());
    }
    return write(JSON.valueToTree(attrs));
  }

  // ---------------------------------------------------------------- v3

  static ArrayMetadata parseV3(byte[] json, String where) {
    String w = where + "/zarr.json";
    JsonNode n = parse(json, w);
    if (required(n, "zarr_format", w).asInt() != 3) {
      throw new ZarrException(w + ": zarr_format must be 3");
    }
    if (!"array".equals(required(n, "node_type", w).asText())) {
      throw new ZarrException(w + ": node_type is '" + n.get("node_type").asText()
          + "', not an array");
    }
    long[] shape = longs(n, "shape", w);
    JsonNode dtn = required(n, "data_type", w);
    DType dtype;
    try {
      dtype = DType.fromName(dtn.asText());
    } catch (IllegalArgumentException e) {
      throw new ZarrException(w + ": field 'data_type': " + e.getMessage());
    }
    JsonNode grid = required(n, "chunk_grid", w);
    if (!"regular".equals(grid.path("name").asText())) {
      throw new ZarrException(w + ": chunk_grid '" + grid.path("name").asText()
          + "' is not supported; only 'regular'");
    }
    long[] chunks = longs(required(grid, "configuration", w), "chunk_shape", w + " chunk_grid");
    JsonNode cke = n.path("chunk_key_encoding");
    boolean v2Keys = "v2".equals(cke.path("name").asText("default"));
    String sep = cke.path("configuration").path("separator").asText(v2Keys ? "." : "/");
    boolean big = false;
    boolean fortran = false;
    List<Compressor> cs = new ArrayList<>();
    boolean sawBytes = false;
    for (JsonNode codec : required(n, "codecs", w)) {
      String name = codec.isTextual() ? codec.asText() : codec.path("name").asText();
      JsonNode cfg = codec.path("configuration");
      switch (name) {
        case "bytes" -> {
          big = "big".equals(cfg.path("endian").asText("little"));
          sawBytes = true;
        }
        case "transpose" -> {
          JsonNode ord = cfg.path("order");
          boolean reversed = ord.isArray() && ord.size() == shape.length;
          boolean identity = reversed;
          for (int i = 0; reversed && i < ord.size(); i++) {
            reversed &= ord.get(i).asInt() == shape.length - 1 - i;
            identity &= ord.get(i).asInt() == i;
          }
          if (!reversed && !identity) {
            throw new ZarrException(w + ": transpose order " + ord + " is not supported; only the"
                + " identity and the full reversal (F order)");
          }
          fortran = reversed && !identity;
        }
        case "sharding_indexed" -> throw new ZarrException(w + ": codec sharding_indexed is not"
            + " supported yet");
        default -> {
          if (!sawBytes) {
            throw new ZarrException(w + ": unsupported array-to-array codec '" + name + "'");
          }
          cs.add(Compressors.fromV3(name, toMap(cfg), w + " codec " + name));
        }
      }
    }
    Object fill = parseFill(n.get("fill_value"), dtype, w);
    List<String> dims = null;
    JsonNode dn = n.get("dimension_names");
    if (dn != null && dn.isArray()) {
      dims = new ArrayList<>();
      for (JsonNode d : dn) {
        dims.add(d.isNull() ? null : d.asText());
      }
    }
    return new ArrayMetadata(3, shape, chunks, dtype, big, fill, fortran, cs, sep, v2Keys,
        toMap(n.get("attributes")), dims);
  }

  static byte[] writeV3(ArrayMetadata m) {
    ObjectNode n = F.objectNode();
    n.put("zarr_format", 3);
    n.put("node_type", "array");
    ArrayNode s = n.putArray("shape");
    for (long v : m.shape()) {
      s.add(v);
    }
    n.put("data_type", m.dtype().zarrV3Name());
    ObjectNode grid = n.putObject("chunk_grid");
    grid.put("name", "regular");
    ArrayNode cs = grid.putObject("configuration").putArray("chunk_shape");
    for (long v : m.chunks()) {
      cs.add(v);
    }
    ObjectNode cke = n.putObject("chunk_key_encoding");
    cke.put("name", m.v2KeyEncoding() ? "v2" : "default");
    cke.putObject("configuration").put("separator", m.separator());
    n.set("fill_value", fillJson(m.fillValue(), m.dtype()));
    ArrayNode codecs = n.putArray("codecs");
    if (m.fortranOrder() && m.shape().length > 1) {
      ObjectNode t = codecs.addObject();
      t.put("name", "transpose");
      ArrayNode ord = t.putObject("configuration").putArray("order");
      for (int i = m.shape().length - 1; i >= 0; i--) {
        ord.add(i);
      }
    }
    ObjectNode b = codecs.addObject();
    b.put("name", "bytes");
    b.putObject("configuration").put("endian", m.bigEndian() ? "big" : "little");
    for (Compressor c : m.compressors()) {
      ObjectNode o = codecs.addObject();
      o.put("name", c.id());
      o.set("configuration", JSON.valueToTree(c.v3Config()));
    }
    n.set("attributes", JSON.valueToTree(m.attributes()));
    if (m.dimensionNames() != null) {
      n.set("dimension_names", JSON.valueToTree(m.dimensionNames()));
    }
    return write(n);
  }

  // ---------------------------------------------------------------- fill values

  /** Parses a fill value into Boolean / Long (integer bits) / Double / Complex. */
  static Object parseFill(JsonNode v, DType dtype, String where) {
    if (v == null || v.isNull()) {
      return defaultFill(dtype);
    }
    try {
      if (dtype.isBool()) {
        if (v.isBoolean()) {
          return v.asBoolean();
        }
        return v.asDouble() != 0;
      }
      if (dtype.isInteger()) {
        if (!v.isIntegralNumber()) {
          if (v.isNumber() && v.asDouble() == Math.rint(v.asDouble())) {
            return (long) v.asDouble();
          }
          throw new ZarrException(where + ": fill_value " + v + " is not an integer for " + dtype);
        }
        BigInteger b = v.bigIntegerValue();
        return b.longValue();
      }
      if (dtype.isComplex()) {
        if (v.isArray() && v.size() == 2) {
          return new Complex(floatOf(v.get(0), where), floatOf(v.get(1), where));
        }
        return new Complex(floatOf(v, where), 0);
      }
      return floatOf(v, where);
    } catch (ZarrException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new ZarrException(where + ": invalid fill_value " + v + " for " + dtype, e);
    }
  }

  private static double floatOf(JsonNode v, String where) {
    if (v.isNumber()) {
      return v.asDouble();
    }
    if (v.isTextual()) {
      String t = v.asText();
      switch (t) {
        case "NaN":
          return Double.NaN;
        case "Infinity":
          return Double.POSITIVE_INFINITY;
        case "-Infinity":
          return Double.NEGATIVE_INFINITY;
        default:
          if (t.startsWith("0x")) {
            long bits = Long.parseUnsignedLong(t.substring(2), 16);
            return t.length() <= 10 ? Float.intBitsToFloat((int) bits) : Double.longBitsToDouble(bits);
          }
      }
    }
    throw new ZarrException(where + ": invalid floating fill_value " + v);
  }

  static Object defaultFill(DType dtype) {
    if (dtype.isBool()) {
      return false;
    }
    if (dtype.isInteger()) {
      return 0L;
    }
    if (dtype.isComplex()) {
      return Complex.ZERO;
    }
    return 0.0;
  }

  static JsonNode fillJson(Object fill, DType dtype) {
    if (fill instanceof Boolean b) {
      return F.booleanNode(b);
    }
    if (fill instanceof Complex c) {
      ArrayNode a = F.arrayNode();
      a.add(floatJson(c.re()));
      a.add(floatJson(c.im()));
      return a;
    }
    if (dtype.isInteger()) {
      long l = ((Number) fill).longValue();
      if (dtype == DType.UINT64 && l < 0) {
        return F.numberNode(new BigInteger(Long.toUnsignedString(l)));
      }
      return F.numberNode(l);
    }
    return floatJson(((Number) fill).doubleValue());
  }

  private static JsonNode floatJson(double d) {
    if (Double.isNaN(d)) {
      return F.textNode("NaN");
    }
    if (Double.isInfinite(d)) {
      return F.textNode(d > 0 ? "Infinity" : "-Infinity");
    }
    return F.numberNode(d);
  }

  static String utf8(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }
}
