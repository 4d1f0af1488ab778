package dev.cubed.zarr.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.cubed.runtime.RetryPolicy;
import dev.cubed.zarr.ZarrArray;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hostile HTTP server on 127.0.0.1 ({@link HostileHttpServer}) against the HTTP store, as {@code
 * cubed info} and {@code rechunk} meet it: a body trickled a byte at a time or never sent fails
 * each attempt at the request or read timeout, then the read fails naming the key, the URL and the
 * limit (a failure the task retry policy retries); a body far larger than its key may hold, or
 * without end, is refused naming the key, in a JVM of 64 MB heap that stays healthy.
 */
class HostileHttpTest {
  static final String ZARRAY =
      "{\"zarr_format\": 2, \"shape\": [262144], \"chunks\": [131072], \"dtype\": \"<f8\","
          + " \"compressor\": null, \"fill_value\": 0.0, \"order\": \"C\", \"filters\": null}";

  @TempDir Path tmp;

  /** Opens {@code url} as `cubed info` does, with the HTTP settings given as system properties. */
  private static Throwable withSettings(String read, String request, Runnable r) {
    List<String> keys =
        List.of("cubed.http.readTimeout", "cubed.http.requestTimeout", "cubed.http.maxAttempts");
    List<String> values = List.of(read, request, "2");
    for (int i = 0; i < keys.size(); i++) {
      System.setProperty(keys.get(i), values.get(i));
    }
    try {
      return catchThrowable(r::run);
    } finally {
      keys.forEach(System::clearProperty);
    }
  }

  @Test
  void aTrickledBodyFailsAtTheRequestTimeoutNamingTheKeyAndUrl() throws Exception {
    try (HostileHttpServer server = new HostileHttpServer()) {
      server.route("t/.zarray", server.trickle(100_000, 100));
      long t0 = System.nanoTime();
      Throwable e =
          assertTimeoutPreemptively(
              Duration.ofSeconds(60),
              () ->
                  withSettings(
                      "1", "2", () -> ZarrArray.open(Stores.open(server.url() + "t"), "")));
      double s = (System.nanoTime() - t0) / 1e9;
      assertThat(e)
          .isInstanceOf(ZarrStoreException.class)
          .hasMessageContaining("key '.zarray'")
          .hasMessageContaining(server.url() + "t/.zarray")
          .hasMessageContaining("failed after 2 attempts")
          .hasMessageContaining("no complete response within 2 s (the request timeout)")
          .hasMessageContaining("CUBED_HTTP_REQUEST_TIMEOUT");
      assertThat(s).as("seconds").isBetween(3.5, 30.0);
      assertThat(RetryPolicy.isRetryable(e)).isTrue();
    }
  }

  @Test
  void aStalledBodyFailsAtTheReadTimeout() throws Exception {
    try (HostileHttpServer server = new HostileHttpServer()) {
      server
          .route("a/.zarray", HostileHttpServer.bytes(ZARRAY.getBytes(StandardCharsets.UTF_8)))
          .route("a/0", HostileHttpServer.stall(1 << 20));
      Throwable e =
          assertTimeoutPreemptively(
              Duration.ofSeconds(60),
              () ->
                  withSettings(
                      "0.5",
                      "30",
                      () -> ZarrArray.open(Stores.open(server.url() + "a"), "").readChunk(0)));
      assertThat(e)
          .isInstanceOf(ZarrStoreException.class)
          .hasMessageContaining("key '0'")
          .hasMessageContaining(server.url() + "a/0")
          .hasMessageContaining("no data for 0.5 s (the read timeout)");
    }
  }

  @Test
  void settingsAreCheckedAndHaveDefaults() {
    HttpStore h = (HttpStore) Stores.open("http://127.0.0.1:9/x");
    assertThat(h.readTimeout()).isEqualTo(HttpStore.DEFAULT_READ_TIMEOUT);
    assertThat(h.requestTimeout()).isEqualTo(HttpStore.DEFAULT_REQUEST_TIMEOUT);
    Throwable e = withSettings("soon", "2", () -> Stores.open("http://127.0.0.1:9/x"));
    assertThat(e)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("HTTP read_timeout 'soon' is not a positive number of seconds");
  }

  @Test
  void endlessBodiesAreRefusedNamingTheKeyInASmallHeap() throws Exception {
    try (HostileHttpServer server = new HostileHttpServer()) {
      server
          .route("big/.zarray", server.endless(3L << 30)) // declares 3 GiB
          .route("endless/.zarray", server.endless(-1)) // declares nothing
          .route("a/.zarray", HostileHttpServer.bytes(ZARRAY.getBytes(StandardCharsets.UTF_8)))
          .route("a/0", server.endless(-1)) // a 1 MiB chunk without end
          .route("a/1", server.endless(3L << 30));
      Path out = tmp.resolve("child.out");
      Process p =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-Xmx64m",
                  "-cp",
                  System.getProperty("java.class.path"),
                  HostileHttpChild.class.getName(),
                  server.url())
              .redirectErrorStream(true)
              .redirectOutput(out.toFile())
              .start();
      boolean done = p.waitFor(90, TimeUnit.SECONDS);
      if (!done) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
      String text = Files.readString(out);
      System.out.println("child JVM (-Xmx64m):\n" + text);
      assertThat(done).as("the child finished within 90 s; its output:\n" + text).isTrue();
      assertThat(p.exitValue()).as("exit code; output:\n" + text).isZero();
      assertThat(text)
          .contains(
              "big: ValueTooLargeException: metadata document '.zarray' of "
                  + server.url()
                  + "big/ holds 3221225472 bytes")
          .contains("endless: ValueTooLargeException: metadata document '.zarray' of")
          .contains("holds more than 16777216 bytes")
          .contains(
              "chunk 0: ValueTooLargeException: zarr array '' chunk '0' in " + server.url() + "a/")
          .contains("holds more than 1114112 bytes")
          .contains("chunk 1: ValueTooLargeException")
          .contains("holds 3221225472 bytes")
          .contains("healthy")
          .doesNotContain("OutOfMemoryError");
      // the server was stopped after about the cap, not 3 GB later
      assertThat(server.bytesSent()).isLessThan(512L << 20);
    }
  }
}
