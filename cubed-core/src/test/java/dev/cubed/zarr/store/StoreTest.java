package dev.cubed.zarr.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The filesystem and memory stores under the {@link StoreContract}, and opening stores by location
 * ({@link Stores#open}) with serialization.
 */
public class StoreTest {
  @TempDir Path dir;

  /** The filesystem store under the contract. */
  @Nested
  class FileSystem extends StoreContract {
    @Override
    protected Store freshStore(String name) {
      return new FileSystemStore(dir.resolve(name));
    }

    @Override
    protected void checkPrefixIsNoValue(Store s) {
      // a directory where a value should be is corruption, not an absent key
      assertThatThrownBy(() -> s.get("a"))
          .isInstanceOf(ZarrStoreException.class)
          .hasMessageContaining("key 'a'")
          .hasMessageContaining("is a directory");
    }

    @Override
    protected void checkNothingEscaped(Store s) {
      // the store's root is one level inside the temporary directory, so "../x" would land there
      assertThat(Files.exists(dir.resolve("x"))).isFalse();
      assertThat(Files.exists(dir.resolve("keys").resolve("x"))).isFalse();
    }

    @Override
    protected void afterConcurrentWriters(Store s) throws Exception {
      try (var st = Files.list(((FileSystemStore) s).root())) {
        assertThat(st.map(p -> p.getFileName().toString()))
            .containsExactlyInAnyOrder("k", "shared"); // no temporary files left beside the values
      }
    }
  }

  /** The memory store under the contract. */
  @Nested
  class Memory extends StoreContract {
    @Override
    protected Store freshStore(String name) {
      return new MemoryStore();
    }
  }

  @Test
  void storesOpenAndSerialize() throws Exception {
    assertThat(Stores.open(dir.toString())).isInstanceOf(FileSystemStore.class);
    Store f = Stores.open(dir.toUri().toString());
    assertThat(((FileSystemStore) f).root()).isEqualTo(dir.toAbsolutePath());
    Store m = Stores.open("memory://shared-test");
    m.put("x", new byte[] {1});
    assertThat(Stores.open("memory://shared-test").get("x")).containsExactly(1);
    assertThat(roundTrip(m)).isSameAs(m);
    f.put("y", new byte[] {2});
    assertThat(((Store) roundTrip(f)).get("y")).containsExactly(2);
    assertThatThrownBy(() -> Stores.open("gopher://host/x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("gopher")
        .hasMessageContaining("StoreProvider");
    Stores.dropMemory("shared-test");
    Store plugin = Stores.open("testmem://abc/whatever");
    assertThat(plugin).isSameAs(Stores.open("memory://plugin-abc"));
    Stores.dropMemory("plugin-abc");
  }

  public static Object roundTrip(Object o) throws Exception {
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bos)) {
      out.writeObject(o);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bos.toByteArray()))) {
      return in.readObject();
    }
  }
}
