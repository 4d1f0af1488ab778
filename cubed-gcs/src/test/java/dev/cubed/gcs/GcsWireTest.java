package dev.cubed.gcs;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.cubed.zarr.store.Store;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the store asks of GCS that Google's in-memory fake ({@link FakeGcs}) does not serve, seen on
 * the wire: a local HTTP endpoint on 127.0.0.1 (like {@link GcsRetryTest}'s) that answers the few
 * JSON API requests involved from a map of objects with generations. Ranged reads ask for the
 * generation the metadata named, and start again when that generation is gone; listings follow page
 * tokens; prefix deletes are batch requests of at most 100 deletes.
 */
class GcsWireTest {
  record Obj(long generation, byte[] bytes) {}

  static HttpServer server;
  static final Map<String, Obj> OBJECTS = new TreeMap<>();
  static final List<String> REQUESTS = new CopyOnWriteArrayList<>();
  static final List<Integer> BATCHES = new CopyOnWriteArrayList<>();

  /** The generation replaced (by generation + 1) when its download is first asked for, or -1. */
  static volatile long overwriteOnDownload = -1;

  static final Pattern OBJECT = Pattern.compile("(?:/download)?/storage/v1/b/bkt/o/([^/?]+)");
  static final Pattern DELETE = Pattern.compile("DELETE \\S*/storage/v1/b/bkt/o/(\\S+) HTTP");

  @BeforeAll
  static void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", GcsWireTest::handle);
    server.start();
  }

  @AfterAll
  static void stop() {
    server.stop(0);
  }

  @BeforeEach
  void reset() {
    synchronized (OBJECTS) {
      OBJECTS.clear();
    }
    REQUESTS.clear();
    BATCHES.clear();
    overwriteOnDownload = -1;
  }

  private static Store store() {
    String ep = "http://127.0.0.1:" + server.getAddress().getPort();
    return new GcsStore("bkt", "p", new GcsSettings(ep, null, true, 2));
  }

  private static void put(String name, long generation, byte[] bytes) {
    synchronized (OBJECTS) {
      OBJECTS.put(name, new Obj(generation, bytes));
    }
  }

  @Test
  void rangedReadsAskForTheGenerationTheMetadataNamed() {
    put("p/k", 7, "0123456789".getBytes(StandardCharsets.US_ASCII));
    Store s = store();
    assertThat(new String(s.getRange("k", 2, 3), StandardCharsets.US_ASCII)).isEqualTo("234");
    assertThat(new String(s.getSuffix("k", 4), StandardCharsets.US_ASCII)).isEqualTo("6789");
    assertThat(REQUESTS)
        .filteredOn(r -> r.contains("alt=media"))
        .hasSize(2)
        .allMatch(r -> r.contains("generation=7"));
  }

  @Test
  void aRangedReadStartsAgainWhenItsGenerationIsReplaced() {
    put("p/k", 7, "old-value!".getBytes(StandardCharsets.US_ASCII));
    overwriteOnDownload = 7; // replaced between the metadata and the download
    String got = new String(store().getRange("k", 0, 3), StandardCharsets.US_ASCII);
    assertThat(got).isEqualTo("new"); // never a mixture of two generations
    List<String> media = REQUESTS.stream().filter(r -> r.contains("alt=media")).toList();
    assertThat(media).hasSize(2);
    assertThat(media.get(0)).contains("generation=7");
    assertThat(media.get(1)).contains("generation=8");
  }

  @Test
  void listingsFollowPagesAndPrefixDeletesAreBatchesOfAtMost100() {
    for (int i = 0; i < 230; i++) {
      put(String.format("p/c/%03d", i), 1, new byte[] {1});
    }
    put("p/keep", 1, new byte[] {1});
    Store s = store();
    int before = GcsStore.listPageSize;
    GcsStore.listPageSize = 40;
    try {
      assertThat(s.list("c/")).hasSize(230).startsWith("c/000").endsWith("c/229");
      assertThat(REQUESTS).filteredOn(r -> r.startsWith("GET /storage/v1/b/bkt/o?")).hasSize(6);
      assertThat(s.listChildren("")).containsExactly("c", "keep");
      s.deletePrefix("c/");
    } finally {
      GcsStore.listPageSize = before;
    }
    assertThat(BATCHES).containsExactly(100, 100, 30);
    synchronized (OBJECTS) {
      assertThat(OBJECTS.keySet()).containsExactly("p/keep");
    }
  }

  // ---- a few requests of the JSON API, enough for the cases above ----

  private static void handle(HttpExchange ex) throws IOException {
    String body;
    try (InputStream in = ex.getRequestBody()) {
      body = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
    }
    String method = ex.getRequestMethod();
    String path = ex.getRequestURI().getRawPath();
    Map<String, String> q = query(ex.getRequestURI().getRawQuery());
    REQUESTS.add(method + " " + ex.getRequestURI());
    synchronized (OBJECTS) {
      if (method.equals("POST") && path.equals("/batch/storage/v1")) {
        batch(ex, body);
        return;
      }
      if (method.equals("GET") && path.equals("/storage/v1/b/bkt/o")) {
        list(ex, q);
        return;
      }
      Matcher m = OBJECT.matcher(path);
      if (method.equals("GET") && m.matches()) {
        String name = URLDecoder.decode(m.group(1), StandardCharsets.UTF_8);
        Obj o = OBJECTS.get(name);
        if ("media".equals(q.get("alt"))) {
          download(ex, name, o, q.get("generation"));
        } else if (o == null) {
          send(
              ex,
              404,
              "{\"error\":{\"code\":404,\"message\":\"No such object: bkt/" + name + "\"}}");
        } else {
          send(ex, 200, meta(name, o));
        }
        return;
      }
    }
    send(ex, 501, "{\"error\":{\"code\":501,\"message\":\"not in this test endpoint\"}}");
  }

  private static void download(HttpExchange ex, String name, Obj o, String generation)
      throws IOException {
    if (o != null && generation != null && o.generation() == overwriteOnDownload) {
      overwriteOnDownload = -1;
      OBJECTS.put(name, o = new Obj(o.generation() + 1, "new-value!".getBytes()));
    }
    if (o == null || generation != null && Long.parseLong(generation) != o.generation()) {
      send(ex, 404, "{\"error\":{\"code\":404,\"message\":\"No such object: bkt/" + name + "\"}}");
      return;
    }
    byte[] b = o.bytes();
    int start = 0;
    int end = b.length - 1;
    String range = ex.getRequestHeaders().getFirst("Range");
    if (range != null) {
      String[] r = range.substring("bytes=".length()).split("-", -1);
      start = Integer.parseInt(r[0]);
      if (!r[1].isEmpty()) {
        end = Math.min(end, Integer.parseInt(r[1]));
      }
    }
    byte[] part = java.util.Arrays.copyOfRange(b, start, end + 1);
    ex.getResponseHeaders().set("Content-Type", "application/octet-stream");
    ex.getResponseHeaders().set("x-goog-generation", String.valueOf(o.generation()));
    if (range != null) {
      ex.getResponseHeaders().set("Content-Range", "bytes " + start + "-" + end + "/" + b.length);
    }
    ex.sendResponseHeaders(range != null ? 206 : 200, part.length);
    ex.getResponseBody().write(part);
    ex.close();
  }

  private static void list(HttpExchange ex, Map<String, String> q) throws IOException {
    String prefix = q.getOrDefault("prefix", "");
    String delimiter = q.get("delimiter");
    TreeSet<String> entries = new TreeSet<>(); // names, and "directories" ending with '/'
    for (String n : OBJECTS.keySet()) {
      if (n.startsWith(prefix)) {
        int cut = delimiter == null ? -1 : n.indexOf(delimiter, prefix.length());
        entries.add(cut < 0 ? n : n.substring(0, cut + 1));
      }
    }
    List<String> all = new ArrayList<>(entries);
    int from = Integer.parseInt(q.getOrDefault("pageToken", "0"));
    int max = Integer.parseInt(q.getOrDefault("maxResults", "1000"));
    List<String> page = all.subList(from, Math.min(all.size(), from + max));
    StringBuilder items = new StringBuilder();
    StringBuilder prefixes = new StringBuilder();
    for (String e : page) {
      if (e.endsWith("/") && delimiter != null) {
        prefixes.append(prefixes.isEmpty() ? "" : ",").append('"').append(e).append('"');
      } else {
        items.append(items.isEmpty() ? "" : ",").append(meta(e, OBJECTS.get(e)));
      }
    }
    String next = from + max < all.size() ? ",\"nextPageToken\":\"" + (from + max) + "\"" : "";
    send(ex, 200, "{\"items\":[" + items + "],\"prefixes\":[" + prefixes + "]" + next + "}");
  }

  private static void batch(HttpExchange ex, String body) throws IOException {
    Matcher m = DELETE.matcher(body);
    int n = 0;
    StringBuilder out = new StringBuilder();
    String boundary = "batch_wire_test";
    while (m.find()) {
      OBJECTS.remove(URLDecoder.decode(m.group(1), StandardCharsets.UTF_8));
      n++;
      out.append("--")
          .append(boundary)
          .append("\r\n")
          .append("Content-Type: application/http\r\n")
          .append("Content-ID: <response-")
          .append(n)
          .append(">\r\n\r\n")
          .append("HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n\r\n");
    }
    out.append("--").append(boundary).append("--\r\n");
    BATCHES.add(n);
    byte[] b = out.toString().getBytes(StandardCharsets.ISO_8859_1);
    ex.getResponseHeaders().set("Content-Type", "multipart/mixed; boundary=" + boundary);
    ex.sendResponseHeaders(200, b.length);
    ex.getResponseBody().write(b);
    ex.close();
  }

  private static String meta(String name, Obj o) {
    return "{\"bucket\":\"bkt\",\"name\":\""
        + name
        + "\",\"size\":\""
        + o.bytes().length
        + "\",\"generation\":\""
        + o.generation()
        + "\"}";
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> q = new HashMap<>();
    if (raw != null) {
      for (String p : raw.split("&")) {
        int eq = p.indexOf('=');
        q.put(
            URLDecoder.decode(eq < 0 ? p : p.substring(0, eq), StandardCharsets.UTF_8),
            eq < 0 ? "" : URLDecoder.decode(p.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return q;
  }

  private static void send(HttpExchange ex, int status, String json) throws IOException {
    byte[] b = json.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(status, b.length);
    ex.getResponseBody().write(b);
    ex.close();
  }
}
