package dev.cubed.gcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.ZarrStoreException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The client's retry configuration, seen from the wire: an HTTP endpoint on 127.0.0.1 that answers
 * every request with one status code (it is no storage server: it only refuses) counts the attempts
 * the store makes for reads, uploads and listings. 429 and 5xx are retried up to max_attempts,
 * uploads included; 403 is not retried and says how credentials were chosen; the endpoint's
 * password never appears in a message.
 */
class GcsRetryTest {
  static final String SECRET = "pa55w0rd-do-not-print";
  static HttpServer server;
  static final AtomicInteger REQUESTS = new AtomicInteger();
  static volatile int status = 503;

  @BeforeAll
  static void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        ex -> {
          try (InputStream in = ex.getRequestBody()) {
            in.readAllBytes();
          }
          REQUESTS.incrementAndGet();
          byte[] body =
              ("{\"error\":{\"code\":" + status + ",\"message\":\"refused on purpose\"}}")
                  .getBytes(StandardCharsets.UTF_8);
          ex.getResponseHeaders().set("Content-Type", "application/json");
          ex.sendResponseHeaders(status, body.length);
          ex.getResponseBody().write(body);
          ex.close();
        });
    server.start();
  }

  @AfterAll
  static void stop() {
    server.stop(0);
  }

  @BeforeEach
  void reset() {
    REQUESTS.set(0);
  }

  private static Store store(int attempts) {
    String ep = "http://admin:" + SECRET + "@127.0.0.1:" + server.getAddress().getPort();
    return new GcsStore("bkt", "p", new GcsSettings(ep, null, true, attempts));
  }

  @Test
  void serverErrorsAreRetriedForReadsUploadsAndListings() {
    status = 503;
    Store s = store(3);
    assertThatThrownBy(() -> s.get("a/zarr.json"))
        .isInstanceOf(ZarrStoreException.class)
        .hasMessageContaining("GCS read of key 'a/zarr.json' of bucket 'bkt'")
        .hasMessageContaining("failed after 3 attempts")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(SECRET));
    assertThat(REQUESTS.getAndSet(0)).isEqualTo(3);
    assertThatThrownBy(() -> s.put("a/c/0", new byte[] {1, 2, 3}))
        .isInstanceOf(ZarrStoreException.class)
        .hasMessageContaining("GCS write of key 'a/c/0'")
        .hasMessageContaining("failed after 3 attempts");
    assertThat(REQUESTS.getAndSet(0)).as("uploads are retried too").isEqualTo(3);
    assertThatThrownBy(() -> s.list("a/"))
        .isInstanceOf(ZarrStoreException.class)
        .hasMessageContaining("GCS list");
    assertThat(REQUESTS.getAndSet(0)).isEqualTo(3);
  }

  @Test
  void throttlingIsRetriedUpToMaxAttempts() {
    status = 429;
    assertThatThrownBy(() -> store(5).exists("k"))
        .isInstanceOf(ZarrStoreException.class)
        .hasMessageContaining("failed after 5 attempts");
    assertThat(REQUESTS.get()).isEqualTo(5);
  }

  @Test
  void accessDeniedIsNotRetriedAndSaysHowCredentialsWereChosen() {
    status = 403;
    assertThatThrownBy(() -> store(4).get("k"))
        .isInstanceOf(ZarrStoreException.class)
        .hasMessageContaining("access denied (HTTP 403)")
        .hasMessageContaining("no credentials sent (credentials=none)")
        .hasMessageContaining("***@127.0.0.1")
        .satisfies(
            e -> {
              assertThat(e.getMessage()).doesNotContain(SECRET);
              assertThat(e.getCause().getMessage()).doesNotContain(SECRET);
            });
    assertThat(REQUESTS.get()).isEqualTo(1);
  }
}
