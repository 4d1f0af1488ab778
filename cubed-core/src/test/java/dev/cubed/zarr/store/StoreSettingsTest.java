package dev.cubed.zarr.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StoreSettingsTest {
  private static final List<String> KNOWN = List.of("endpoint", "path_style", "max_attempts");

  private static StoreSettings settings(
      String uri, Map<String, String> props, Map<String, String> env) {
    return StoreSettings.of(URI.create(uri), "S3", "true", KNOWN, props::get, env::get);
  }

  @Test
  void queryThenPropertyThenEnvironmentEachNamedAfterTheParameter() {
    Map<String, String> props =
        Map.of("cubed.s3.pathStyle", " false ", "cubed.s3.maxAttempts", "3");
    Map<String, String> env =
        Map.of(
            "CUBED_S3_PATH_STYLE",
            "true",
            "CUBED_S3_MAX_ATTEMPTS",
            "4",
            "CUBED_S3_ENDPOINT",
            "http://e:1");
    StoreSettings s = settings("s3://b/p?max_attempts=2&endpoint=%20", props, env);
    assertThat(s.get("max_attempts")).isEqualTo("2");
    assertThat(s.maxAttempts(8)).isEqualTo(2);
    assertThat(s.get("path_style")).isEqualTo("false"); // property, trimmed
    assertThat(s.get("endpoint")).isEqualTo("http://e:1"); // blank query value: environment
    assertThat(settings("s3://b", Map.of(), Map.of()).maxAttempts(8)).isEqualTo(8);
    assertThat(settings("s3://b?path_style", Map.of(), Map.of()).get("path_style"))
        .isEqualTo("true");
  }

  @Test
  void unknownParametersAndBadAttemptsAreNamed() {
    assertThatThrownBy(() -> settings("s3://u:secret@b/p?colour=red", Map.of(), Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "S3 URI s3://***@b/p?...: unknown query parameter 'colour'"
                + " (known: endpoint, path_style, max_attempts)");
    assertThatThrownBy(() -> settings("s3://b?max_attempts=x", Map.of(), Map.of()).maxAttempts(8))
        .hasMessage("S3 max_attempts 'x' is not an integer");
    assertThatThrownBy(() -> StoreSettings.checkMaxAttempts("GCS", 0))
        .hasMessage("GCS max_attempts must be at least 1, got 0");
  }

  @Test
  void objectStorePrefixesChildNamesAndDescriptions() {
    assertThat(ObjectStores.rootPrefix("//a/b//")).isEqualTo("a/b/");
    assertThat(ObjectStores.rootPrefix(null)).isEmpty();
    assertThatThrownBy(() -> ObjectStores.rootPrefix("/a/../b"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ObjectStores.checkBucket("GCS", "a/b"))
        .hasMessage("GCS bucket name 'a/b' is empty or has a '/'");
    assertThat(ObjectStores.childName("p/x/", 2)).isEqualTo("x");
    assertThat(ObjectStores.childName("p/y", 2)).isEqualTo("y");
    assertThat(ObjectStores.describe("gs", "b", "p/", "http://u:pw@h:1"))
        .isEqualTo("gs://b/p/ at http://***@h:1");
  }
}
