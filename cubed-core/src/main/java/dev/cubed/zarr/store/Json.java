package dev.cubed.zarr.store;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON reading and writing of Zarr documents (NaN/Infinity literals accepted when reading).
 *
 * <p>Built on Jackson's streaming parser and generator and its tree nodes only: Jackson's {@code
 * ObjectMapper} is not used, because initializing it (date formats, locale data, bean
 * introspection) took about a third of a second of a fresh JVM's first {@code fromZarr} when the
 * JVM has no application class data sharing archive. Documents are JSON objects, arrays, strings,
 * numbers, booleans and null; {@link #write} takes the Java forms of those (maps, lists and arrays,
 * strings, numbers, booleans, null, characters, enums and tree nodes) and refuses anything else
 * with an {@link IllegalArgumentException}. Nesting deeper than Jackson's stream constraints (1000
 * levels) is refused both ways (a map containing itself ends there).
 */
public final class Json {
  private static final JsonFactory FACTORY =
      JsonFactory.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private Json() {}

  /** Parses a JSON object document, naming {@code where} in errors. */
  public static JsonNode parseObject(byte[] bytes, String where) {
    JsonNode n;
    try (JsonParser p = FACTORY.createParser(bytes)) {
      JsonToken t = p.nextToken();
      n = t == null ? null : readValue(p, t);
    } catch (IOException e) {
      throw new ZarrFormatException(where + ": not valid JSON: " + originalMessage(e), e);
    }
    if (n == null || !n.isObject()) {
      throw new ZarrFormatException(
          where
              + ": expected a JSON object, got "
              + (n == null ? "an empty document" : n.getNodeType().toString().toLowerCase()));
    }
    return n;
  }

  private static JsonNode readValue(JsonParser p, JsonToken t) throws IOException {
    switch (t) {
      case START_OBJECT:
        {
          ObjectNode o = NODES.objectNode();
          for (JsonToken k = p.nextToken(); k != JsonToken.END_OBJECT; k = p.nextToken()) {
            String name = p.currentName();
            JsonNode v = readValue(p, p.nextToken());
            if (o.replace(name, v) != null) {
              throw new JsonProcessingException(
                  "duplicate key \"" + name + "\"", p.currentLocation()) {};
            }
          }
          return o;
        }
      case START_ARRAY:
        {
          ArrayNode a = NODES.arrayNode();
          for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
            a.add(readValue(p, e));
          }
          return a;
        }
      case VALUE_STRING:
        return NODES.textNode(p.getText());
      case VALUE_NUMBER_INT:
        switch (p.getNumberType()) {
          case INT:
            return NODES.numberNode(p.getIntValue());
          case LONG:
            return NODES.numberNode(p.getLongValue());
          default:
            return NODES.numberNode(p.getBigIntegerValue());
        }
      case VALUE_NUMBER_FLOAT:
        return NODES.numberNode(p.getDoubleValue());
      case VALUE_TRUE:
        return NODES.booleanNode(true);
      case VALUE_FALSE:
        return NODES.booleanNode(false);
      case VALUE_NULL:
        return NODES.nullNode();
      default:
        throw new JsonProcessingException("unexpected token " + t, p.currentLocation()) {};
    }
  }

  /** A JSON object as a mutable Java map (nested maps, lists, numbers, strings, booleans). */
  public static Map<String, Object> toMap(JsonNode n) {
    if (n == null || n.isNull() || n.isMissingNode()) {
      return new LinkedHashMap<>();
    }
    if (!n.isObject()) {
      throw new IllegalArgumentException("expected a JSON object, got " + n.getNodeType());
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> m = (Map<String, Object>) toJava(n);
    return m;
  }

  /**
   * A tree node as plain Java: objects as {@link LinkedHashMap}, arrays as {@link ArrayList},
   * integers as Integer, Long or BigInteger (the smallest that holds them), other numbers as
   * Double, and strings, booleans and null as themselves.
   */
  static Object toJava(JsonNode n) {
    if (n.isObject()) {
      Map<String, Object> m = new LinkedHashMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        m.put(e.getKey(), toJava(e.getValue()));
      }
      return m;
    }
    if (n.isArray()) {
      List<Object> l = new ArrayList<>(n.size());
      for (JsonNode e : n) {
        l.add(toJava(e));
      }
      return l;
    }
    if (n.isTextual()) {
      return n.textValue();
    }
    if (n.isBoolean()) {
      return n.booleanValue();
    }
    if (n.isIntegralNumber()) {
      if (n.canConvertToInt()) {
        return n.intValue();
      }
      return n.canConvertToLong() ? (Object) n.longValue() : n.bigIntegerValue();
    }
    if (n.isNumber()) {
      return n.doubleValue();
    }
    return null; // null, missing
  }

  /** Serializes a document, pretty-printed. */
  public static byte[] write(Object doc) {
    return write(doc, true);
  }

  /**
   * A tree node as compact JSON text, for messages: what {@code JsonNode.toString()} gives, without
   * the {@code ObjectMapper} that {@code toString()} starts in a fresh JVM.
   */
  public static String text(JsonNode n) {
    return n == null ? "null" : new String(writeCompact(n), StandardCharsets.UTF_8);
  }

  /** Serializes a document on one line. */
  public static byte[] writeCompact(Object doc) {
    return write(doc, false);
  }

  private static byte[] write(Object doc, boolean pretty) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      if (pretty) {
        g.setPrettyPrinter(new DefaultPrettyPrinter());
      }
      writeValue(g, doc);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot serialize metadata to JSON: " + e.getMessage(), e);
    }
    return out.toByteArray();
  }

  private static void writeValue(JsonGenerator g, Object v) throws IOException {
    if (v == null) {
      g.writeNull();
    } else if (v instanceof String s) {
      g.writeString(s);
    } else if (v instanceof Boolean b) {
      g.writeBoolean(b);
    } else if (v instanceof Number num) {
      writeNumber(g, num);
    } else if (v instanceof Character c) {
      g.writeString(c.toString());
    } else if (v instanceof Enum<?> e) {
      g.writeString(e.name());
    } else if (v instanceof Map<?, ?> m) {
      g.writeStartObject();
      for (Map.Entry<?, ?> e : m.entrySet()) {
        g.writeFieldName(String.valueOf(e.getKey()));
        writeValue(g, e.getValue());
      }
      g.writeEndObject();
    } else if (v instanceof JsonNode n) {
      writeNode(g, n);
    } else if (v instanceof Iterable<?> it) {
      g.writeStartArray();
      for (Object e : it) {
        writeValue(g, e);
      }
      g.writeEndArray();
    } else if (v.getClass().isArray()) {
      g.writeStartArray();
      int n = Array.getLength(v);
      for (int i = 0; i < n; i++) {
        writeValue(g, Array.get(v, i));
      }
      g.writeEndArray();
    } else {
      throw new IllegalArgumentException(
          "cannot serialize metadata to JSON: a value of type "
              + v.getClass().getName()
              + " is not a JSON value (use maps, lists, arrays, strings, numbers, booleans or"
              + " null)");
    }
  }

  private static void writeNumber(JsonGenerator g, Number num) throws IOException {
    if (num instanceof Integer || num instanceof Short || num instanceof Byte) {
      g.writeNumber(num.intValue());
    } else if (num instanceof Long l) {
      g.writeNumber(l);
    } else if (num instanceof Double d) {
      g.writeNumber(d);
    } else if (num instanceof Float f) {
      g.writeNumber(f);
    } else if (num instanceof BigInteger b) {
      g.writeNumber(b);
    } else if (num instanceof BigDecimal b) {
      g.writeNumber(b);
    } else {
      g.writeNumber(num.toString()); // AtomicLong and the like: their decimal form
    }
  }

  /** Writes a tree node as it is (no copy into Java maps and lists; numbers keep their type). */
  private static void writeNode(JsonGenerator g, JsonNode n) throws IOException {
    if (n.isObject()) {
      g.writeStartObject();
      for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        g.writeFieldName(e.getKey());
        writeNode(g, e.getValue());
      }
      g.writeEndObject();
    } else if (n.isArray()) {
      g.writeStartArray();
      for (JsonNode e : n) {
        writeNode(g, e);
      }
      g.writeEndArray();
    } else if (n.isNumber()) {
      writeNumber(g, n.numberValue());
    } else {
      writeValue(g, toJava(n)); // text, boolean, null
    }
  }

  private static String originalMessage(IOException e) {
    return e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
  }
}
