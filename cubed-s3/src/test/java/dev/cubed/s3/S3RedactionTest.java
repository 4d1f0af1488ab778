package dev.cubed.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.zarr.store.Stores;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A password inside an S3 endpoint URL (http://user:secret@host:port) is never echoed: not by a
 * store's describe() or toString(), not by the settings, not in the message of a failed request nor
 * of a refused URI.
 */
class S3RedactionTest {
  static final String SECRET = "pa55w0rd-do-not-print";
  static S3TestServer server;

  @BeforeAll
  static void start() throws Exception {
    server = S3TestServer.start().useAsDefault().createBucket("data");
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static String withPassword(String endpoint) {
    return endpoint.replace("http://", "http://admin:" + SECRET + "@");
  }

  @Test
  void describeToStringAndSettingsHideThePassword() {
    String ep = withPassword(server.endpoint());
    S3Store s = S3Store.open(URI.create("s3://data/x.zarr?endpoint=" + ep));
    assertThat(s.settings().endpoint())
        .as("the endpoint itself is kept for requests")
        .contains(SECRET);
    for (String shown :
        new String[] {
          s.describe(), s.toString(), s.settings().toString(), s.settings().describe()
        }) {
      assertThat(shown).doesNotContain(SECRET).contains("***@127.0.0.1");
    }
    String encoded = "s3://data/x.zarr?endpoint=" + URLEncoder.encode(ep, StandardCharsets.UTF_8);
    assertThat(Stores.open(encoded).describe()).doesNotContain(SECRET);
  }

  @Test
  void aFailedRequestsMessageHidesThePassword() {
    // a bucket that does not exist: the message names the endpoint
    S3Store s =
        new S3Store(
            "nosuchbucket",
            "",
            new S3Settings(withPassword(server.endpoint()), "us-east-1", true, 1));
    assertThatThrownBy(() -> s.get("x/zarr.json"))
        .satisfies(
            e -> {
              assertThat(e.getMessage()).contains("nosuchbucket").doesNotContain(SECRET);
              assertThat(e.getCause().getMessage()).doesNotContain(SECRET);
            });
  }

  @Test
  void anUnreachableEndpointsMessageHidesThePassword() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    S3Store s =
        new S3Store(
            "data",
            "",
            new S3Settings("http://admin:" + SECRET + "@127.0.0.1:" + port, "us-east-1", true, 1));
    assertThatThrownBy(() -> s.get("x/zarr.json"))
        .satisfies(
            e -> {
              assertThat(e.getMessage()).doesNotContain(SECRET);
              assertThat(e.getCause().getMessage()).doesNotContain(SECRET);
            });
  }

  @Test
  void refusedEndpointsAndUrisHideThePassword() {
    assertThatThrownBy(
            () -> new S3Settings("ftp://admin:" + SECRET + "@127.0.0.1:21", null, true, 1))
        .hasMessageContaining("must be an http:// or https://")
        .hasMessageNotContaining(SECRET);
    assertThatThrownBy(
            () ->
                S3Store.open(
                    URI.create(
                        "s3://data/x?endpoint=http://admin:"
                            + SECRET
                            + "@127.0.0.1:9000&token="
                            + SECRET)))
        .hasMessageContaining("unknown query parameter 'token'")
        .hasMessageNotContaining(SECRET);
    assertThatThrownBy(() -> Stores.open("nosuch://admin:" + SECRET + "@host/x"))
        .hasMessageContaining("no store for scheme 'nosuch'")
        .hasMessageNotContaining(SECRET);
  }
}
