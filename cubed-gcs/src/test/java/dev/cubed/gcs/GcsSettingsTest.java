package dev.cubed.gcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.Stores;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How a gs:// location becomes a store: settings from the query, system properties and the
 * environment (STORAGE_EMULATOR_HOST included), the provider found by {@link Stores#open}, keys
 * mapped under the prefix, serialization without credentials, and nothing secret in descriptions.
 * No server is needed.
 */
class GcsSettingsTest {
  static final String SECRET = "pa55w0rd-do-not-print";

  private static GcsSettings resolve(
      String uri, Map<String, String> props, Map<String, String> env) {
    return GcsSettings.resolve(URI.create(uri), props::get, env::get);
  }

  @Test
  void defaultsAreGoogleCloudStorageWithApplicationDefaultCredentials() {
    GcsSettings s = resolve("gs://b/x", Map.of(), Map.of());
    assertThat(s).isEqualTo(new GcsSettings(null, null, false, 8));
    assertThat(s.describe())
        .contains("Google Cloud Storage")
        .contains("Application Default Credentials");
  }

  @Test
  void queryBeatsPropertyBeatsEnvironmentAndEmulatorHostComesLast() {
    Map<String, String> env =
        Map.of(
            "STORAGE_EMULATOR_HOST",
            "127.0.0.1:9023",
            "CUBED_GCS_PROJECT",
            "env-project",
            "CUBED_GCS_MAX_ATTEMPTS",
            "5");
    GcsSettings fromEmulatorHost = resolve("gs://b/x", Map.of(), env);
    // host:port (the emulator convention) becomes a URL; an endpoint means no credentials
    assertThat(fromEmulatorHost)
        .isEqualTo(new GcsSettings("http://127.0.0.1:9023", "env-project", true, 5));
    GcsSettings fromProperty =
        resolve(
            "gs://b/x",
            Map.of("cubed.gcs.endpoint", "http://127.0.0.1:4443/", "cubed.gcs.maxAttempts", "3"),
            env);
    assertThat(fromProperty)
        .isEqualTo(new GcsSettings("http://127.0.0.1:4443", "env-project", true, 3));
    GcsSettings fromQuery =
        resolve(
            "gs://b/x?endpoint=https%3A%2F%2Fgcs.example:8443"
                + "&project=p&credentials=default&max_attempts=2",
            Map.of("cubed.gcs.endpoint", "http://127.0.0.1:4443"), env);
    assertThat(fromQuery).isEqualTo(new GcsSettings("https://gcs.example:8443", "p", false, 2));
    assertThat(resolve("gs://b/x", Map.of("cubed.gcs.credentials", "none"), Map.of()))
        .isEqualTo(new GcsSettings(null, null, true, 8));
  }

  @Test
  void badSettingsSayWhatIsWrong() {
    assertThatThrownBy(() -> resolve("gs://b/x?colour=red&token=" + SECRET, Map.of(), Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'colour'")
        .hasMessageContaining("known: endpoint, project, credentials, max_attempts")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(SECRET));
    assertThatThrownBy(() -> resolve("gs://b/x?max_attempts=0", Map.of(), Map.of()))
        .hasMessageContaining("at least 1");
    assertThatThrownBy(() -> resolve("gs://b/x?max_attempts=many", Map.of(), Map.of()))
        .hasMessageContaining("'many' is not an integer");
    assertThatThrownBy(() -> resolve("gs://b/x?credentials=secret", Map.of(), Map.of()))
        .hasMessageContaining("neither 'default'");
    assertThatThrownBy(() -> new GcsSettings("ftp://h:1", null, true, 1))
        .hasMessageContaining("http:// or https://");
    assertThatThrownBy(() -> Stores.open("gs:///x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("names no bucket");
  }

  @Test
  void storesOpenThroughTheProviderAndSerializeWithoutCredentials() throws Exception {
    String ep = "http://admin:" + SECRET + "@127.0.0.1:4443";
    Store s = Stores.open("gs://bkt/some/prefix/?endpoint=" + ep + "&max_attempts=4");
    assertThat(s).isInstanceOf(GcsStore.class);
    GcsStore g = (GcsStore) s;
    assertThat(g.bucket()).isEqualTo("bkt");
    assertThat(g.prefix()).isEqualTo("some/prefix/");
    assertThat(g.settings()).isEqualTo(new GcsSettings(ep, null, true, 4));
    assertThat(s.bufferCopies()).isEqualTo(2);
    for (String shown :
        new String[] {
          s.describe(), s.toString(), g.settings().toString(), g.settings().describe()
        }) {
      assertThat(shown).doesNotContain(SECRET).contains("***@127.0.0.1:4443");
    }
    assertThat(s.describe()).isEqualTo("gs://bkt/some/prefix/ at http://***@127.0.0.1:4443");
    ByteArrayOutputStream bo = new ByteArrayOutputStream();
    try (ObjectOutputStream oo = new ObjectOutputStream(bo)) {
      oo.writeObject(s);
    }
    // no client, and so no credentials object, travels with the store
    assertThat(bo.toString(StandardCharsets.ISO_8859_1))
        .doesNotContain("Credentials")
        .doesNotContain("com.google.cloud.storage");
    try (ObjectInputStream oi = new ObjectInputStream(new ByteArrayInputStream(bo.toByteArray()))) {
      assertThat(oi.readObject()).isEqualTo(s);
    }
    assertThatThrownBy(() -> s.get("../escape")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new GcsStore("a/b", "", g.settings()))
        .hasMessageContaining("has a '/'");
  }
}
