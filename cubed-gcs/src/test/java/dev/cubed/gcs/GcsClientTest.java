package dev.cubed.gcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.Stores;
import dev.cubed.zarr.store.ZarrStoreException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Where a store's client comes from besides its own: a client given to the constructor (stays in
 * its JVM; equal stores share it) and a {@link GcsClientFactory} named in the client_factory
 * setting (travels by name; bad names say what is wrong).
 */
class GcsClientTest {
  @Test
  void aGivenClientServesTheStoreAndDoesNotTravel() throws Exception {
    GcsStore s = new GcsStore("given", "a/b", FakeGcs.STORAGE);
    s.put("k", new byte[] {4, 2});
    assertThat(FakeGcs.STORAGE.readAllBytes("given", "a/b/k")).containsExactly(4, 2);
    assertThat(s.settings().project()).isEqualTo("fake-project-for-testing");
    assertThat(s).isEqualTo(new GcsStore("given", "a/b", FakeGcs.STORAGE));
    // same bucket, prefix and settings but its own client: another store
    assertThat(s).isNotEqualTo(new GcsStore("given", "a/b", s.settings()));
    assertThatThrownBy(() -> new ObjectOutputStream(new ByteArrayOutputStream()).writeObject(s))
        .isInstanceOf(NotSerializableException.class)
        .hasMessageContaining("gs://given/a/b/")
        .hasMessageContaining("client_factory");
  }

  @Test
  void aClientFactoryNamedInTheUriBuildsTheClientAndTravelsByName() throws Exception {
    Store s = Stores.open(FakeGcs.uri("factory/x"));
    assertThat(((GcsStore) s).settings().clientFactory()).isEqualTo(FakeGcs.class.getName());
    s.put("k", new byte[] {7});
    assertThat(FakeGcs.STORAGE.readAllBytes("factory", "x/k")).containsExactly(7);
    ByteArrayOutputStream bo = new ByteArrayOutputStream();
    try (ObjectOutputStream oo = new ObjectOutputStream(bo)) {
      oo.writeObject(s);
    }
    try (ObjectInputStream oi = new ObjectInputStream(new ByteArrayInputStream(bo.toByteArray()))) {
      Store back = (Store) oi.readObject();
      assertThat(back).isEqualTo(s);
      assertThat(back.get("k")).containsExactly(7);
    }
    GcsSettings fromProperty =
        GcsSettings.resolve(
            URI.create("gs://b/x"),
            Map.of("cubed.gcs.clientFactory", FakeGcs.class.getName())::get,
            Map.<String, String>of()::get);
    assertThat(fromProperty.clientFactory()).isEqualTo(FakeGcs.class.getName());
  }

  @Test
  void badClientFactoriesSayWhatIsWrong() {
    assertThatThrownBy(() -> Stores.open("gs://b/x?client_factory=not%20a%20class"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is not a Java class name");
    assertThatThrownBy(() -> Stores.open("gs://b/x?client_factory=com.example.Missing").get("k"))
        .isInstanceOf(ZarrStoreException.class)
        .hasMessageContaining("'com.example.Missing' is not on this JVM's classpath");
    assertThatThrownBy(() -> Stores.open("gs://b/x?client_factory=java.lang.String").get("k"))
        .isInstanceOf(ZarrStoreException.class)
        .hasMessageContaining("does not implement dev.cubed.gcs.GcsClientFactory");
  }
}
