package dev.cubed.zarr.store;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * A read-only {@link Store} over plain HTTP(S), opened by {@link Stores#open} for {@code
 * http://host/path/array.zarr} and {@code https://...} through the JDK's {@link HttpClient}.
 *
 * <ul>
 *   <li>Key {@code k} is the URL {@code base/k} (each segment percent-encoded). 404 and 410 mean an
 *       absent key; other 4xx are errors naming the key and the URL.
 *   <li>Reads of part of a value (shard indexes and inner chunks) are HTTP range requests; a server
 *       that ignores {@code Range} and sends the whole value is served from it.
 *   <li>Consolidated metadata, when present at the base (v2 {@code .zmetadata}, or v3 {@code
 *       consolidated_metadata} inside the base's {@code zarr.json}), is read once and answers every
 *       metadata key ({@code .zarray}, {@code .zattrs}, {@code .zgroup}, {@code zarr.json}): a
 *       metadata key it lacks is absent, as zarr-python's consolidated stores treat it.
 *   <li>Listing follows the HTML directory listings that file servers give ({@code python3 -m
 *       http.server}, nginx {@code autoindex}, Apache); reading an array needs no listing, only
 *       groups' members and {@link #list} do. Where the server gives none, listing fails with a
 *       message saying so.
 *   <li>429 and 5xx answers and I/O failures are retried with exponential backoff (100 ms doubling,
 *       at most 5 s, or the server's {@code Retry-After} up to 30 s), {@value #DEFAULT_ATTEMPTS}
 *       attempts in all.
 *   <li>Every exchange is watched ({@link HttpBody}): one that receives no byte for the read
 *       timeout (default {@link #DEFAULT_READ_TIMEOUT}), or is not complete by the request timeout
 *       (default {@link #DEFAULT_REQUEST_TIMEOUT}), is aborted and counts as a failed attempt; the
 *       last error names the key, the URL and the limit.
 *   <li>Bodies are read as streams with a cap: a bounded read ({@link #get(String, long)}: a
 *       chunk's bound, a metadata document's limit) refuses a larger value by its {@code
 *       Content-Length} before reading it, or when the count passes the cap, and drops the
 *       connection ({@link ValueTooLargeException}, not retried); range reads keep only the bytes
 *       asked for, listings at most {@link #MAX_LISTING_BYTES}.
 *   <li>Settings ({@link StoreSettings} of service {@code HTTP}, system properties and environment
 *       only, as the URL's query belongs to the server): {@code max_attempts} ({@code
 *       cubed.http.maxAttempts}, {@code CUBED_HTTP_MAX_ATTEMPTS}), {@code read_timeout} and {@code
 *       request_timeout} in seconds ({@code cubed.http.readTimeout}, {@code
 *       CUBED_HTTP_READ_TIMEOUT}, ...).
 *   <li>{@code put}, {@code delete} and {@code deletePrefix} throw {@link
 *       UnsupportedOperationException} naming the URL.
 *   <li>User info in the URL ({@code https://user:password@host/...}) is sent as HTTP basic
 *       authentication and never printed ({@link Stores#redact}).
 * </ul>
 */
public final class HttpStore implements Store {
  private static final long serialVersionUID = 1L;

  /** Attempts per request (the first and the retries). */
  public static final int DEFAULT_ATTEMPTS = 5;

  static final long FIRST_BACKOFF_MS = 100;
  private static final long MAX_BACKOFF_MS = 5_000;
  private static final long MAX_RETRY_AFTER_MS = 30_000;

  /** Default longest wait for the next byte of an answer (or for its headers): 30 s. */
  public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(30);

  /** Default longest time for one request, its whole body included: 120 s. */
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(120);

  /** The most an HTML directory listing may hold: 64 MiB. */
  static final long MAX_LISTING_BYTES = 64L << 20;

  private static volatile HttpClient client;

  private final String base; // ends with '/', without user info
  private final String authorization; // null, or a basic authorization header value
  private final String shown; // the redacted base URL
  private final int attempts;
  private final long readTimeoutMs;
  private final long requestTimeoutMs;
  private transient volatile HttpConsolidated consolidated;

  /**
   * A store reading below a base URL.
   *
   * @param url an {@code http} or {@code https} URL (a trailing '/' is added)
   * @param attempts attempts per request, at least 1
   * @throws IllegalArgumentException for another scheme, no host, a query or a fragment
   */
  public HttpStore(URI url, int attempts) {
    this(url, attempts, DEFAULT_READ_TIMEOUT, DEFAULT_REQUEST_TIMEOUT);
  }

  /**
   * A store reading below a base URL with its own timeouts.
   *
   * @param url an {@code http} or {@code https} URL (a trailing '/' is added)
   * @param attempts attempts per request, at least 1
   * @param readTimeout the longest wait for the next byte of an answer (or its headers)
   * @param requestTimeout the longest time for one request, its whole body included
   * @throws IllegalArgumentException for another scheme, no host, a query or a fragment, or a
   *     timeout that is not positive
   */
  public HttpStore(URI url, int attempts, Duration readTimeout, Duration requestTimeout) {
    String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")
        || url.getHost() == null
        || url.getRawQuery() != null
        || url.getRawFragment() != null
        || url.isOpaque()) {
      throw new IllegalArgumentException(
          "HTTP store: '"
              + Stores.redact(url.toString())
              + "' is not an http(s)://host/path URL without query or fragment");
    }
    if (attempts < 1) {
      throw new IllegalArgumentException("HTTP store: attempts " + attempts + " must be >= 1");
    }
    String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
    this.base =
        scheme
            + "://"
            + url.getRawAuthority().substring(url.getRawAuthority().lastIndexOf('@') + 1)
            + (path.endsWith("/") ? path : path + "/");
    String info = url.getUserInfo();
    this.authorization =
        info == null
            ? null
            : "Basic " + Base64.getEncoder().encodeToString(info.getBytes(StandardCharsets.UTF_8));
    this.shown =
        Stores.redact(url.toString().endsWith("/") ? url.toString() : url.toString() + "/");
    this.attempts = attempts;
    if (readTimeout.isNegative()
        || readTimeout.isZero()
        || requestTimeout.isNegative()
        || requestTimeout.isZero()) {
      throw new IllegalArgumentException(
          "HTTP store: timeouts must be positive, got read "
              + readTimeout
              + " and request "
              + requestTimeout);
    }
    this.readTimeoutMs = readTimeout.toMillis();
    this.requestTimeoutMs = requestTimeout.toMillis();
  }

  /**
   * A store of {@code url} with the settings of service {@code HTTP} ({@code max_attempts}, {@code
   * read_timeout}, {@code request_timeout}; class comment), defaults where absent.
   *
   * @throws IllegalArgumentException for a malformed setting, naming it
   */
  public static HttpStore open(URI url, StoreSettings settings) {
    int attempts = StoreSettings.checkMaxAttempts("HTTP", settings.maxAttempts(DEFAULT_ATTEMPTS));
    return new HttpStore(
        url,
        attempts,
        seconds(settings, "read_timeout", DEFAULT_READ_TIMEOUT),
        seconds(settings, "request_timeout", DEFAULT_REQUEST_TIMEOUT));
  }

  private static Duration seconds(StoreSettings s, String param, Duration dflt) {
    String v = s.get(param);
    if (v == null) {
      return dflt;
    }
    try {
      double d = Double.parseDouble(v);
      if (d > 0 && d <= 1e6) {
        return Duration.ofMillis(Math.max(1, Math.round(d * 1000)));
      }
    } catch (NumberFormatException e) {
      // the message below
    }
    throw new IllegalArgumentException(
        "HTTP " + param + " '" + v + "' is not a positive number of seconds");
  }

  /** The longest wait for the next byte of an answer. */
  public Duration readTimeout() {
    return Duration.ofMillis(readTimeoutMs);
  }

  /** The longest time for one request, its whole body included. */
  public Duration requestTimeout() {
    return Duration.ofMillis(requestTimeoutMs);
  }

  /** The base URL (ending with '/', without credentials). */
  public String base() {
    return base;
  }

  private static HttpClient client() {
    HttpClient c = client;
    if (c == null) {
      synchronized (HttpStore.class) {
        if (client == null) {
          client =
              HttpClient.newBuilder()
                  .connectTimeout(Duration.ofSeconds(30))
                  .followRedirects(HttpClient.Redirect.NORMAL)
                  .build();
        }
        c = client;
      }
    }
    return c;
  }

  /** The URL of a key or directory path (segments percent-encoded). */
  String url(String path) {
    StringBuilder sb = new StringBuilder(base);
    int start = 0;
    for (int i = 0; i <= path.length(); i++) {
      if (i == path.length() || path.charAt(i) == '/') {
        sb.append(encodeSegment(path.substring(start, i)));
        if (i < path.length()) {
          sb.append('/');
        }
        start = i + 1;
      }
    }
    return sb.toString();
  }

  static String encodeSegment(String s) {
    StringBuilder sb = new StringBuilder();
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (c >= 'a' && c <= 'z'
          || c >= 'A' && c <= 'Z'
          || c >= '0' && c <= '9'
          || c == '-'
          || c == '.'
          || c == '_'
          || c == '~') {
        sb.append((char) c);
      } else {
        sb.append('%')
            .append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
      }
    }
    return sb.toString();
  }

  /**
   * Sends a request with retries: the response of a status other than 429/5xx, its body kept as
   * {@code caps} says for its status ({@link HttpBody}), or an exception naming {@code what} and
   * the URL once the attempts are spent.
   *
   * @throws ValueTooLargeException at once (not retried) for a body over its cap
   */
  HttpResponse<byte[]> send(
      String method, String path, String range, String what, IntFunction<HttpBody.Cap> caps) {
    String u = url(path);
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(u))
            .timeout(requestTimeout())
            .method(method, HttpRequest.BodyPublishers.noBody());
    if (range != null) {
      b.header("Range", range);
    }
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    HttpRequest req = b.build();
    String failure = null;
    IOException cause = null;
    for (int attempt = 1; ; attempt++) {
      long waitMs = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS << Math.min(20, attempt - 1));
      try {
        HttpResponse<byte[]> r =
            HttpBody.await(
                client(),
                req,
                new HttpBody.Watch(caps, path, shown),
                readTimeout(),
                requestTimeout());
        int st = r.statusCode();
        if (st != 429 && st < 500) {
          return r;
        }
        failure = "HTTP " + st;
        cause = new IOException(failure);
        Optional<String> after = r.headers().firstValue("Retry-After");
        if (after.isPresent() && after.get().trim().matches("\\d{1,6}")) {
          waitMs = Math.min(MAX_RETRY_AFTER_MS, Long.parseLong(after.get().trim()) * 1000);
        }
      } catch (IOException e) {
        failure =
            e.getClass().getSimpleName()
                + (e.getMessage() == null ? "" : ": " + Stores.redact(e.getMessage()));
        cause = e;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ZarrStoreException(
            what + " at " + Stores.redact(u) + ": interrupted", new InterruptedIOException());
      }
      if (attempt >= attempts) {
        throw new ZarrStoreException(
            what
                + " at "
                + Stores.redact(u)
                + " failed after "
                + attempts
                + " attempts: "
                + failure
                + (cause instanceof java.net.http.HttpTimeoutException
                    ? "; the server stalled or is too slow (if it is only slow, raise the HTTP"
                        + " settings read_timeout or request_timeout, in seconds:"
                        + " CUBED_HTTP_READ_TIMEOUT, CUBED_HTTP_REQUEST_TIMEOUT)"
                    : "; the server is failing or throttling, retry later"),
            cause);
      }
      try {
        Thread.sleep(waitMs);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ZarrStoreException(
            what + " at " + Stores.redact(u) + ": interrupted", new InterruptedIOException());
      }
    }
  }

  /** The exception for an unexpected status (not 2xx, 404, 410; 416 for ranges). */
  ZarrStoreException unexpected(HttpResponse<?> r, String what) {
    int st = r.statusCode();
    String hint =
        st == 401 || st == 403
            ? "access denied: check the URL's credentials or the server's access rules"
            : "the server refused the request";
    return new ZarrStoreException(
        what + " at " + Stores.redact(r.uri().toString()) + ": HTTP " + st + " (" + hint + ")",
        new IOException("HTTP " + st));
  }

  /**
   * True for an absent key: 404 or 410, or a redirect to a directory ("a" to "a/", what file
   * servers answer for a prefix of other keys).
   */
  private static boolean absent(HttpResponse<?> r) {
    return r.statusCode() == 404 || r.statusCode() == 410 || r.uri().getRawPath().endsWith("/");
  }

  private HttpConsolidated consolidated() {
    HttpConsolidated c = consolidated;
    if (c == null) {
      c = HttpConsolidated.load(this);
      consolidated = c;
    }
    return c;
  }

  /** The value of a metadata key from consolidated metadata, or null to ask the server. */
  private byte[] fromConsolidated(String key, boolean[] known) {
    if (!HttpConsolidated.isMetadataKey(key)) {
      return null;
    }
    HttpConsolidated c = consolidated();
    if (c.present()) {
      known[0] = true;
      return c.get(key);
    }
    return null;
  }

  @Override
  public byte[] get(String key) {
    return get(key, Stores.MAX_VALUE_BYTES);
  }

  /**
   * The body is read as a stream with the cap {@code maxBytes}: a larger value is refused by its
   * {@code Content-Length} before it is read, or as soon as more than {@code maxBytes} bytes have
   * come, and the connection is dropped.
   */
  @Override
  public byte[] get(String key, long maxBytes) {
    Keys.check(key);
    Stores.checkMaxBytes(key, maxBytes);
    boolean[] known = new boolean[1];
    byte[] m = fromConsolidated(key, known);
    if (known[0]) {
      if (m != null && m.length > maxBytes) {
        throw ValueTooLargeException.of(key, this, m.length, maxBytes);
      }
      return m;
    }
    HttpResponse<byte[]> r =
        send(
            "GET", key, null, "HTTP read of key '" + key + "'", st -> HttpBody.Cap.whole(maxBytes));
    if (absent(r)) {
      return null;
    }
    if (r.statusCode() / 100 != 2) {
      throw unexpected(r, "HTTP read of key '" + key + "'");
    }
    return r.body();
  }

  @Override
  public byte[] getRange(String key, long offset, int length) {
    Stores.checkRange(key, offset, length);
    Keys.check(key);
    if (length == 0) {
      return exists(key) ? new byte[0] : null;
    }
    String what = "HTTP range read of key '" + key + "'";
    HttpResponse<byte[]> r =
        send(
            "GET",
            key,
            "bytes=" + offset + "-" + (offset + length - 1),
            what,
            st -> HttpBody.Cap.prefix(st == 206 ? length : offset + length));
    if (absent(r)) {
      return null;
    }
    byte[] body = r.body();
    switch (r.statusCode()) {
      case 206:
        return body.length <= length ? body : Arrays.copyOf(body, length);
      case 200:
        { // the server ignored the range: the whole value
          int from = (int) Math.min(offset, body.length);
          return Arrays.copyOfRange(body, from, (int) Math.min(body.length, from + (long) length));
        }
      case 416: // the value ends before the offset
        return new byte[0];
      default:
        throw unexpected(r, what);
    }
  }

  @Override
  public byte[] getSuffix(String key, int length) {
    Stores.checkSuffix(key, length);
    Keys.check(key);
    if (length == 0) {
      return exists(key) ? new byte[0] : null;
    }
    String what = "HTTP suffix read of key '" + key + "'";
    HttpResponse<byte[]> r =
        send(
            "GET",
            key,
            "bytes=-" + length,
            what,
            st -> st == 206 ? HttpBody.Cap.prefix(length) : HttpBody.Cap.suffix(length));
    if (absent(r)) {
      return null;
    }
    byte[] body = r.body();
    switch (r.statusCode()) {
      case 206:
        return body;
      case 200:
        return Arrays.copyOfRange(body, Math.max(0, body.length - length), body.length);
      case 416: // an empty value has no suffix range
        return new byte[0];
      default:
        throw unexpected(r, what);
    }
  }

  @Override
  public boolean exists(String key) {
    Keys.check(key);
    boolean[] known = new boolean[1];
    byte[] m = fromConsolidated(key, known);
    if (known[0]) {
      return m != null;
    }
    String what = "HTTP existence check of key '" + key + "'";
    HttpResponse<byte[]> r = send("HEAD", key, null, what, st -> HttpBody.Cap.prefix(0));
    if (absent(r)) {
      return false;
    }
    if (r.statusCode() / 100 != 2) {
      throw unexpected(r, what);
    }
    return true;
  }

  @Override
  public List<String> list(String prefix) {
    String pre = Keys.checkPrefix(prefix);
    int slash = pre.lastIndexOf('/');
    String dir = slash < 0 ? "" : pre.substring(0, slash + 1);
    String partial = pre.substring(slash + 1);
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, Boolean> e : HttpListing.entries(this, dir).entrySet()) {
      if (e.getKey().startsWith(partial)) {
        if (e.getValue()) {
          HttpListing.walk(this, dir + e.getKey() + "/", out);
        } else {
          out.add(dir + e.getKey());
        }
      }
    }
    Collections.sort(out);
    return out;
  }

  @Override
  public List<String> listChildren(String prefix) {
    return Stores.listChildren(
        this, prefix, pre -> new ArrayList<>(HttpListing.entries(this, pre).keySet()));
  }

  private UnsupportedOperationException readOnly(String op, String key) {
    return new UnsupportedOperationException(
        describe()
            + " is a read-only HTTP store: cannot "
            + op
            + " '"
            + key
            + "'; write to a file://, s3:// or az:// location instead");
  }

  @Override
  public void put(String key, byte[] value) {
    throw readOnly("put key", key);
  }

  @Override
  public void put(String key, byte[] value, int length) {
    throw readOnly("put key", key);
  }

  @Override
  public void delete(String key) {
    throw readOnly("delete key", key);
  }

  @Override
  public void deletePrefix(String prefix) {
    throw readOnly("delete prefix", prefix);
  }

  /** 2: the response body and the HTTP client's buffers of it. */
  @Override
  public int bufferCopies() {
    return 2;
  }

  @Override
  public String describe() {
    return shown;
  }

  @Override
  public String toString() {
    return "HttpStore(" + shown + ")";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof HttpStore h
        && h.base.equals(base)
        && h.attempts == attempts
        && h.readTimeoutMs == readTimeoutMs
        && h.requestTimeoutMs == requestTimeoutMs
        && Objects.equals(h.authorization, authorization);
  }

  @Override
  public int hashCode() {
    return base.hashCode();
  }
}
