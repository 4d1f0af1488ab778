package dev.cubed.zarr.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** JSON reading and writing of Zarr documents (NaN/Infinity literals accepted when reading). */
public final class Json {
  static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
          .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
          .enable(SerializationFeature.INDENT_OUTPUT)
          .build();

  private Json() {}

  /** Parses a JSON object document, naming {@code where} in errors. */
  public static JsonNode parseObject(byte[] bytes, String where) {
    JsonNode n;
    try {
      n = MAPPER.readTree(bytes);
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

  /** A JSON object as a mutable Java map (nested maps, lists, numbers, strings, booleans). */
  public static Map<String, Object> toMap(JsonNode n) {
    if (n == null || n.isNull() || n.isMissingNode()) {
      return new LinkedHashMap<>();
    }
    return MAPPER.convertValue(n, new TypeReference<LinkedHashMap<String, Object>>() {});
  }

  /** Serializes a document, pretty-printed. */
  public static byte[] write(Object doc) {
    try {
      return MAPPER.writeValueAsString(doc).getBytes(StandardCharsets.UTF_8);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot serialize metadata to JSON: " + e.getMessage(), e);
    }
  }

  private static String originalMessage(IOException e) {
    return e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
  }
}
