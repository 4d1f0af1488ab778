package dev.cubed.zarr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Contract tests of the filesystem and memory stores. */
class StoreTest {
  @TempDir
  Path dir;

  List<Store> stores() {
    return List.of(new FileSystemStore(dir), new MemoryStore());
  }

  @Test
  void basicContract() {
    for (Store s : stores()) {
      assertThat(s.get("a/b")).isNull();
      assertThat(s.getRange("a/b", 0, 3)).isNull();
      assertThat(s.exists("a/b")).isFalse();
      s.put("a/b", new byte[] {1, 2, 3, 4, 5});
      s.put("a/c/d", new byte[] {9});
      s.put("ab", new byte[0]);
      s.put("z", new byte[] {7});
      assertThat(s.get("a/b")).containsExactly(1, 2, 3, 4, 5);
      assertThat(s.getRange("a/b", 1, 3)).containsExactly(2, 3, 4);
      assertThat(s.getRange("a/b", 3, 10)).containsExactly(4, 5);
      assertThat(s.getRange("a/b", 9, 10)).isEmpty();
      assertThat(s.list("")).containsExactly("a/b", "a/c/d", "ab", "z");
      assertThat(s.list("a/")).containsExactly("a/b", "a/c/d");
      assertThat(s.list("a")).containsExactly("a/b", "a/c/d", "ab");
      assertThat(s.list("nope/")).isEmpty();
      assertThat(s.listChildren("")).containsExactly("a", "ab", "z");
      assertThat(s.listChildren("a/")).containsExactly("b", "c");
      s.put("a/b", new byte[] {6});
      assertThat(s.get("a/b")).containsExactly(6);
      s.delete("a/b");
      s.delete("a/b");
      assertThat(s.exists("a/b")).isFalse();
      if (s instanceof FileSystemStore) {
        // a directory where a value should be is corruption, not an absent key
        assertThatThrownBy(() -> s.get("a")).isInstanceOf(ZarrStoreException.class)
            .hasMessageContaining("key 'a'").hasMessageContaining("is a directory");
      } else {
        assertThat(s.get("a")).isNull();
      }
    }
  }

  @Test
  void rejectsKeysEscapingTheRoot() {
    // the store's root one level inside the temporary directory, so "../x" would land in it
    Path root = dir.resolve("root");
    for (Store s : List.of(new FileSystemStore(root), new MemoryStore())) {
      for (String bad : List.of("../x", "/etc/passwd", "a/../../x", "a//b", "", "a/./b",
          "C:/x", "a\\..\\b")) {
        assertThatThrownBy(() -> s.put(bad, new byte[1]), bad)
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> s.get(bad), bad).isInstanceOf(IllegalArgumentException.class);
      }
    }
    assertThat(Files.exists(dir.resolve("x"))).isFalse();
    assertThat(Files.exists(root.resolve("x"))).isFalse();
  }

  @Test
  void concurrentWritersOfDifferentAndSameKeys() throws Exception {
    Store s = new FileSystemStore(dir);
    ExecutorService ex = Executors.newFixedThreadPool(8);
    List<Future<?>> fs = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      int id = t;
      fs.add(ex.submit(() -> {
        for (int i = 0; i < 50; i++) {
          s.put("k/" + id + "/" + i, new byte[] {(byte) id, (byte) i});
          byte[] v = new byte[4096];
          java.util.Arrays.fill(v, (byte) id);
          s.put("shared", v);
          byte[] r = s.get("shared");
          byte first = r[0];
          for (byte b : r) {
            assertThat(b).isEqualTo(first); // never a mixture
          }
        }
      }));
    }
    for (Future<?> f : fs) {
      f.get();
    }
    ex.shutdown();
    assertThat(s.list("k/")).hasSize(400);
    assertThat(s.list("")).hasSize(401); // no temporary files remain or are listed
    try (var st = Files.list(dir)) {
      assertThat(st.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("k",
          "shared");
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
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("gopher")
        .hasMessageContaining("StoreProvider");
    Stores.dropMemory("shared-test");
    Store plugin = Stores.open("testmem://abc/whatever");
    assertThat(plugin).isSameAs(Stores.open("memory://plugin-abc"));
    Stores.dropMemory("plugin-abc");
  }

  static Object roundTrip(Object o) throws Exception {
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bos)) {
      out.writeObject(o);
    }
    try (ObjectInputStream in = new ObjectInputStream(
        new ByteArrayInputStream(bos.toByteArray()))) {
      return in.readObject();
    }
  }
}
