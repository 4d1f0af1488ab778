package dev.cubed.zarr.store;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A static file server on 127.0.0.1 (the JDK's com.sun.net.httpserver) for the HTTP store's tests:
 * files under a directory with HEAD, byte ranges ({@code bytes=a-b}, {@code a-}, {@code -n}), HTML
 * directory listings, a log of the requests, and injected 503 answers.
 */
public final class HttpTestServer implements AutoCloseable {
  private static final Pattern RANGE = Pattern.compile("bytes=(\\d*)-(\\d*)");

  private final Path root;
  private final HttpServer server;
  private final ExecutorService pool = Executors.newFixedThreadPool(8);
  private final List<String> log = new CopyOnWriteArrayList<>();
  private final AtomicInteger failures = new AtomicInteger();
  private final AtomicInteger injected = new AtomicInteger();
  private volatile Predicate<String> failing = p -> false;
  private volatile int status = 503;

  private HttpTestServer(Path root) throws IOException {
    this.root = root.toAbsolutePath();
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::handle);
    server.setExecutor(pool);
    server.start();
  }

  /** Serves the files under {@code root}. */
  public static HttpTestServer start(Path root) throws IOException {
    return new HttpTestServer(root);
  }

  /** {@code http://127.0.0.1:PORT/} */
  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/";
  }

  /** Requests so far, as "METHOD /path [range]". */
  public List<String> log() {
    return log;
  }

  /** Answers the next {@code n} requests whose path matches with {@code status}. */
  public void failNext(int n, int status, Predicate<String> path) {
    this.status = status;
    failures.set(n);
    failing = path;
  }

  /** The failures answered so far. */
  public int injected() {
    return injected.get();
  }

  private void handle(HttpExchange ex) throws IOException {
    try (ex) {
      String path = ex.getRequestURI().getPath();
      String range = ex.getRequestHeaders().getFirst("Range");
      log.add(ex.getRequestMethod() + " " + path + (range == null ? "" : " " + range));
      if (failing.test(path) && failures.getAndUpdate(f -> Math.max(0, f - 1)) > 0) {
        injected.incrementAndGet();
        reply(ex, status, "text/plain", "injected failure".getBytes(StandardCharsets.UTF_8));
        return;
      }
      Path p = root.resolve(path.substring(1)).normalize();
      if (!p.startsWith(root) || !Files.exists(p)) {
        reply(ex, 404, "text/plain", "not found".getBytes(StandardCharsets.UTF_8));
      } else if (Files.isDirectory(p)) {
        if (!path.endsWith("/")) {
          ex.getResponseHeaders().set("Location", ex.getRequestURI().getRawPath() + "/");
          reply(ex, 301, "text/plain", new byte[0]);
        } else {
          reply(ex, 200, "text/html; charset=utf-8", listing(p));
        }
      } else {
        file(ex, p, range);
      }
    }
  }

  private void file(HttpExchange ex, Path p, String range) throws IOException {
    byte[] all = Files.readAllBytes(p);
    Matcher m = range == null ? null : RANGE.matcher(range);
    if (m == null || !m.matches()) {
      reply(ex, 200, "application/octet-stream", all);
      return;
    }
    long from;
    long to;
    if (m.group(1).isEmpty()) {
      long n = Long.parseLong(m.group(2));
      from = Math.max(0, all.length - n);
      to = all.length - 1;
      if (n == 0 || all.length == 0) {
        from = all.length; // unsatisfiable
      }
    } else {
      from = Long.parseLong(m.group(1));
      to =
          m.group(2).isEmpty()
              ? all.length - 1
              : Math.min(all.length - 1, Long.parseLong(m.group(2)));
    }
    if (from >= all.length) {
      ex.getResponseHeaders().set("Content-Range", "bytes */" + all.length);
      reply(ex, 416, "text/plain", new byte[0]);
      return;
    }
    ex.getResponseHeaders().set("Content-Range", "bytes " + from + "-" + to + "/" + all.length);
    reply(ex, 206, "application/octet-stream", Arrays.copyOfRange(all, (int) from, (int) to + 1));
  }

  private static byte[] listing(Path dir) throws IOException {
    StringBuilder sb = new StringBuilder("<html><body><a href=\"../\">..</a><ul>\n");
    try (Stream<Path> s = Files.list(dir)) {
      for (Path e : s.sorted().toList()) {
        String n =
            HttpStore.encodeSegment(e.getFileName().toString()) + (Files.isDirectory(e) ? "/" : "");
        sb.append("<li><a href=\"").append(n).append("\">").append(n).append("</a></li>\n");
      }
    }
    return sb.append("</ul></body></html>").toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void reply(HttpExchange ex, int status, String type, byte[] body)
      throws IOException {
    ex.getResponseHeaders().set("Content-Type", type);
    boolean head = ex.getRequestMethod().equals("HEAD");
    if (head) {
      ex.getResponseHeaders().set("Content-Length", Integer.toString(body.length));
    }
    ex.sendResponseHeaders(status, head || body.length == 0 ? -1 : body.length);
    if (!head && body.length > 0) {
      try (OutputStream o = ex.getResponseBody()) {
        o.write(body);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    pool.shutdownNow();
  }
}
