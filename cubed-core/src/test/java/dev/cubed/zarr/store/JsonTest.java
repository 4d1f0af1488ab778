package dev.cubed.zarr.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Json} reads and writes documents exactly as Jackson's {@code ObjectMapper} (which it no
 * longer uses) did: seeded random documents written by both are byte-identical, parsed by both are
 * equal trees and equal maps.
 */
class JsonTest {
  private static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
          .enable(SerializationFeature.INDENT_OUTPUT)
          .build();

  static Stream<Long> seeds() {
    return IntStream.range(0, 40).mapToObj(i -> 0x5EEDL * 31 + i);
  }

  @ParameterizedTest
  @MethodSource("seeds")
  void writesWhatObjectMapperWroteAndReadsWhatItRead(long seed) throws Exception {
    Random r = new Random(seed);
    Map<String, Object> doc = object(r, 0);
    byte[] ours = Json.write(doc);
    String theirs = MAPPER.writeValueAsString(doc);
    assertThat(new String(ours, StandardCharsets.UTF_8)).isEqualTo(theirs);
    assertThat(new String(Json.writeCompact(doc), StandardCharsets.UTF_8))
        .isEqualTo(
            MAPPER.copy().disable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(doc));

    JsonNode tree = Json.parseObject(ours, "doc");
    assertThat(tree).isEqualTo(MAPPER.readTree(ours));
    Map<String, Object> back = Json.toMap(tree);
    assertThat(back)
        .isEqualTo(
            MAPPER.convertValue(
                MAPPER.readTree(ours), new TypeReference<LinkedHashMap<String, Object>>() {}));
    // a tree node written back is the same document
    assertThat(Json.write(tree)).isEqualTo(ours);
  }

  @Test
  void nonNumericNumbersAndLargeIntegersRoundTrip() {
    JsonNode n =
        Json.parseObject(
            "{\"a\": NaN, \"b\": -Infinity, \"c\": 123456789012345678901234567890, \"d\": 1e-300}"
                .getBytes(StandardCharsets.UTF_8),
            "doc");
    Map<String, Object> m = Json.toMap(n);
    assertThat((Double) m.get("a")).isNaN();
    assertThat(m.get("b")).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(m.get("c")).isEqualTo(new BigInteger("123456789012345678901234567890"));
    assertThat(m.get("d")).isEqualTo(1e-300);
  }

  @Test
  void badDocumentsAreRefusedNamingWhere() {
    assertThatThrownBy(() -> Json.parseObject("{\"a\": 1, \"a\": 2}".getBytes(), "arr/zarr.json"))
        .isInstanceOf(ZarrFormatException.class)
        .hasMessageContaining("arr/zarr.json: not valid JSON")
        .hasMessageContaining("duplicate key \"a\"");
    assertThatThrownBy(() -> Json.parseObject("{not json".getBytes(), "x"))
        .isInstanceOf(ZarrFormatException.class)
        .hasMessageContaining("x: not valid JSON");
    assertThatThrownBy(() -> Json.parseObject("".getBytes(), "x"))
        .hasMessageContaining("expected a JSON object, got an empty document");
    assertThatThrownBy(() -> Json.parseObject("[1]".getBytes(), "x"))
        .hasMessageContaining("expected a JSON object, got array");
    String deep = "{\"a\":".repeat(1005) + "1" + "}".repeat(1005);
    assertThatThrownBy(() -> Json.parseObject(deep.getBytes(), "x"))
        .isInstanceOf(ZarrFormatException.class)
        .hasMessageContaining("nesting depth");
  }

  @Test
  void valuesThatAreNotJsonAreRefusedNamingTheirType() {
    assertThatThrownBy(() -> Json.write(Map.of("a", new Object())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("java.lang.Object is not a JSON value");
    Map<String, Object> loop = new LinkedHashMap<>();
    loop.put("self", loop);
    assertThatThrownBy(() -> Json.write(loop))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nesting depth");
  }

  @Test
  void arraysOfPrimitivesAndEnumsAreWrittenAsObjectMapperDid() throws Exception {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("longs", new long[] {1, -2, Long.MAX_VALUE});
    doc.put("doubles", new double[] {0.5, Double.NaN, 1e300});
    doc.put("ints", new int[] {3});
    doc.put("strings", new String[] {"x", null});
    doc.put("enum", Thread.State.NEW);
    doc.put("char", 'c');
    doc.put("float", 1.5f);
    assertThat(new String(Json.write(doc), StandardCharsets.UTF_8))
        .isEqualTo(MAPPER.writeValueAsString(doc));
  }

  private static Map<String, Object> object(Random r, int depth) {
    Map<String, Object> m = new LinkedHashMap<>();
    int n = r.nextInt(depth == 0 ? 8 : 4) + (depth == 0 ? 1 : 0);
    for (int i = 0; i < n; i++) {
      m.put(key(r, i), value(r, depth + 1));
    }
    return m;
  }

  private static Object value(Random r, int depth) {
    int k = r.nextInt(depth > 3 ? 7 : 9);
    switch (k) {
      case 0:
        return null;
      case 1:
        return r.nextBoolean();
      case 2:
        return r.nextInt();
      case 3:
        return r.nextLong();
      case 4:
        double[] specials = {Double.NaN, Double.POSITIVE_INFINITY, -0.0, 1e-310, 0.1, 1e22};
        return r.nextInt(3) == 0 ? specials[r.nextInt(specials.length)] : r.nextGaussian() * 1e6;
      case 5:
        return new BigInteger(100, r);
      case 6:
        return text(r);
      case 7:
        List<Object> l = new ArrayList<>();
        int n = r.nextInt(5);
        for (int i = 0; i < n; i++) {
          l.add(value(r, depth + 1));
        }
        return l;
      default:
        return object(r, depth);
    }
  }

  private static String key(Random r, int i) {
    return text(r) + "_" + i; // distinct within an object
  }

  private static String text(Random r) {
    String alphabet = "az09 _-\"\\/\n\tµ€\u0001中";
    StringBuilder b = new StringBuilder();
    int n = r.nextInt(8);
    for (int i = 0; i < n; i++) {
      b.append(alphabet.charAt(r.nextInt(alphabet.length())));
    }
    return b.toString();
  }
}
