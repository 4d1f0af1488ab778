package dev.cubed.zarr.store;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;

/**
 * One HTTP response body of an {@link HttpStore} read as a stream with a cap, and the exchange
 * watched by the thread that waits for it: no body is ever held beyond its cap (a value larger than
 * the most its key may hold is refused, and reading stops), and an exchange with no byte for the
 * read timeout, or not complete by the request deadline, is aborted.
 *
 * <ul>
 *   <li>{@link Cap#whole(long)}: the whole body, at most {@code n} bytes; a larger one (by its
 *       {@code Content-Length}, before any byte is read, or by counting) fails with {@link
 *       ValueTooLargeException} and the connection is dropped.
 *   <li>{@link Cap#prefix(long)}: the first {@code n} bytes; reading stops there.
 *   <li>{@link Cap#suffix(int)}: the last {@code n} bytes, kept in a ring as the body streams.
 * </ul>
 *
 * Answers other than 2xx keep at most {@link #ERROR_BODY} bytes.
 */
final class HttpBody implements HttpResponse.BodySubscriber<byte[]> {
  /** What is kept of the body of an answer other than 2xx. */
  static final int ERROR_BODY = 64 << 10;

  private static final int FIRST_BUFFER = 64 << 10;

  enum Mode {
    WHOLE,
    PREFIX,
    SUFFIX
  }

  /** What a body may hold and what is kept of it. */
  record Cap(Mode mode, long n) {
    static Cap whole(long max) {
      return new Cap(Mode.WHOLE, max);
    }

    static Cap prefix(long n) {
      return new Cap(Mode.PREFIX, n);
    }

    static Cap suffix(int n) {
      return new Cap(Mode.SUFFIX, n);
    }
  }

  private final CompletableFuture<byte[]> result = new CompletableFuture<>();
  private final Cap cap;
  private final Watch watch;
  private volatile Flow.Subscription subscription;
  private byte[] buf;
  private int len; // bytes in buf (WHOLE, PREFIX); in SUFFIX, min(total, n)
  private long total;

  private HttpBody(Cap cap, Watch watch, long expected) {
    this.cap = cap;
    this.watch = watch;
    if (cap.mode == Mode.SUFFIX) {
      buf = new byte[(int) cap.n];
    } else {
      long first = expected >= 0 ? expected : FIRST_BUFFER;
      buf = new byte[(int) Math.min(Math.min(first, cap.n), Stores.MAX_VALUE_BYTES)];
    }
  }

  @Override
  public void onSubscribe(Flow.Subscription s) {
    subscription = s;
    if (result.isDone()) {
      s.cancel();
    } else {
      s.request(1);
    }
  }

  @Override
  public void onNext(List<ByteBuffer> items) {
    watch.progress();
    if (result.isDone()) {
      return;
    }
    for (ByteBuffer b : items) {
      if (!take(b)) {
        subscription.cancel();
        return;
      }
    }
    subscription.request(1);
  }

  /** Adds a buffer's bytes; false once the body is decided (complete, or refused). */
  private boolean take(ByteBuffer b) {
    int r = b.remaining();
    total += r;
    switch (cap.mode) {
      case SUFFIX -> {
        int n = buf.length;
        if (n == 0) {
          return true;
        }
        while (b.hasRemaining()) { // a ring: byte i of the body at (i % n)
          int at = (int) ((total - b.remaining()) % n);
          int k = Math.min(b.remaining(), n - at);
          b.get(buf, at, k);
        }
        len = (int) Math.min(total, n);
        return true;
      }
      case PREFIX -> {
        int k = (int) Math.min(r, cap.n - len);
        ensure(len + k);
        b.get(buf, len, k);
        len += k;
        if (len >= cap.n) {
          result.complete(Arrays.copyOf(buf, len));
          return false;
        }
        return true;
      }
      default -> {
        if (total > cap.n) {
          result.completeExceptionally(watch.tooLarge(-1, cap.n));
          buf = null;
          return false;
        }
        ensure(len + r);
        b.get(buf, len, r);
        len += r;
        return true;
      }
    }
  }

  private void ensure(int need) {
    if (need > buf.length) {
      long grown = Math.max(need, Math.min((long) buf.length * 2, cap.n));
      buf = Arrays.copyOf(buf, (int) Math.min(grown, Stores.MAX_VALUE_BYTES));
    }
  }

  @Override
  public void onError(Throwable t) {
    result.completeExceptionally(t);
  }

  @Override
  public void onComplete() {
    if (result.isDone()) {
      return;
    }
    if (cap.mode == Mode.SUFFIX) {
      int n = buf.length;
      byte[] out = new byte[len];
      for (int i = 0; i < len; i++) {
        out[i] = buf[(int) ((total - len + i) % n)];
      }
      result.complete(out);
    } else {
      result.complete(len == buf.length ? buf : Arrays.copyOf(buf, len));
    }
  }

  @Override
  public CompletionStage<byte[]> getBody() {
    return result;
  }

  /** Stops reading: the body fails with {@code t} and the connection is dropped. */
  void abort(Throwable t) {
    result.completeExceptionally(t);
    Flow.Subscription s = subscription;
    if (s != null) {
      s.cancel();
    }
  }

  /**
   * One exchange: the body handler (a cap per status code) and the time of its last progress, which
   * {@link #await} watches.
   */
  static final class Watch implements HttpResponse.BodyHandler<byte[]> {
    private final IntFunction<Cap> caps;
    private final String key;
    private final String store;
    private volatile long lastNanos = System.nanoTime();
    private volatile HttpBody body;

    /**
     * @param caps the cap of a 2xx answer's body, by status code
     * @param key the key read, and the store's description, for messages
     */
    Watch(IntFunction<Cap> caps, String key, String store) {
      this.caps = caps;
      this.key = key;
      this.store = store;
    }

    @Override
    public HttpResponse.BodySubscriber<byte[]> apply(HttpResponse.ResponseInfo info) {
      progress();
      int st = info.statusCode();
      Cap cap = st / 100 == 2 ? caps.apply(st) : Cap.prefix(ERROR_BODY);
      OptionalLong declared = info.headers().firstValueAsLong("Content-Length");
      long expected = declared.isPresent() ? declared.getAsLong() : -1;
      HttpBody b = new HttpBody(cap, this, expected < 0 || expected > cap.n ? -1 : expected);
      if (cap.mode == Mode.WHOLE && expected > cap.n) {
        b.buf = null;
        b.result.completeExceptionally(tooLarge(expected, cap.n));
      }
      body = b;
      return b;
    }

    void progress() {
      lastNanos = System.nanoTime();
    }

    ValueTooLargeException tooLarge(long size, long max) {
      return new ValueTooLargeException(
          "key '"
              + key
              + "' of "
              + store
              + " holds "
              + ValueTooLargeException.sizeText(size, max)
              + (size >= 0 ? " (its Content-Length)" : "")
              + ", more than the "
              + max
              + " bytes it may hold; the response was refused and its connection dropped",
          size,
          max);
    }

    private void abort(Throwable t) {
      HttpBody b = body;
      if (b != null) {
        b.abort(t);
      }
    }
  }

  /**
   * Sends a request and waits for its answer and whole body: at most {@code readTimeout} without a
   * byte (or without the headers), at most {@code requestTimeout} in all; past either, the exchange
   * is aborted and an {@link HttpTimeoutException} (an {@link IOException}, retried by the caller)
   * says which limit was hit.
   *
   * @throws ValueTooLargeException if the body is larger than its cap
   * @throws IOException for a failed or timed-out exchange
   */
  static HttpResponse<byte[]> await(
      HttpClient client,
      HttpRequest req,
      Watch watch,
      Duration readTimeout,
      Duration requestTimeout)
      throws IOException, InterruptedException {
    long start = System.nanoTime();
    watch.lastNanos = start;
    CompletableFuture<HttpResponse<byte[]>> cf = client.sendAsync(req, watch);
    long deadline = start + requestTimeout.toNanos();
    long idle = readTimeout.toNanos();
    try {
      while (true) {
        long now = System.nanoTime();
        long idleLeft = watch.lastNanos + idle - now;
        long totalLeft = deadline - now;
        if (totalLeft <= 0 || idleLeft <= 0) {
          HttpTimeoutException t =
              new HttpTimeoutException(
                  totalLeft <= 0
                      ? "no complete response within "
                          + seconds(requestTimeout)
                          + " (the request timeout)"
                      : "no data for " + seconds(readTimeout) + " (the read timeout)");
          watch.abort(t);
          cf.cancel(true);
          throw t;
        }
        try {
          return cf.get(Math.min(idleLeft, totalLeft), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
          // look at the clocks again
        }
      }
    } catch (ExecutionException e) {
      for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
        if (c instanceof ValueTooLargeException v) {
          throw v;
        }
        if (c instanceof IOException io) {
          throw io;
        }
        if (!(c instanceof CompletionException)) {
          break;
        }
      }
      throw new IOException(String.valueOf(e.getCause()), e.getCause());
    } catch (InterruptedException e) {
      watch.abort(new IOException("interrupted"));
      cf.cancel(true);
      throw e;
    }
  }

  static String seconds(Duration d) {
    long ms = d.toMillis();
    return ms % 1000 == 0 ? ms / 1000 + " s" : ms / 1000.0 + " s";
  }
}
