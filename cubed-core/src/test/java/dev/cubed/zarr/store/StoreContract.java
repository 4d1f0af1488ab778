package dev.cubed.zarr.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The {@link Store} contract every store must keep, as tests: missing keys, values, empty and big
 * values, ranges and suffixes, sorted listing by prefix and by child, overwrite, idempotent delete
 * and listing after delete, the keys Zarr uses ({@code ".zarray"}, {@code "zarr.json"}, {@code
 * "c/0/1"}, {@code "0.0"}), keys that would escape the store's root refused, concurrent writers of
 * different and of the same key (a reader never sees a mixture), concurrent readers, and read-only
 * stores refusing every write.
 *
 * <p>A store's test class extends this and says how to make a store: {@link #freshStore} (an empty,
 * writable store) for a writable store; for a read-only one, {@link #readOnly()} returning true and
 * {@link #storeWith} (a store already holding given values, written by other means, e.g. into the
 * directory an HTTP server serves). It adds what is particular to that store through the {@code
 * check...} hooks and its own tests. Shared with other modules through cubed-core's test-jar.
 */
public abstract class StoreContract {
  /**
   * A fresh, empty, writable store; {@code name} differs between the calls of one test class.
   * Read-only stores may throw (it is not called when {@link #readOnly()} is true).
   */
  protected abstract Store freshStore(String name);

  /**
   * True for a read-only store: the write cases are skipped, {@link #readOnlyStoresRefuseWrites}
   * runs, and stores come from {@link #storeWith}.
   */
  protected boolean readOnly() {
    return false;
  }

  /**
   * A store holding exactly {@code values}; {@code name} differs between calls. The default puts
   * them into {@link #freshStore}; read-only stores override it.
   */
  protected Store storeWith(String name, Map<String, byte[]> values) {
    Store s = freshStore(name);
    values.forEach(s::put);
    return s;
  }

  /** Writes per thread in {@link #concurrentWritersOfDifferentAndSameKeys} (8 threads). */
  protected int writesPerThread() {
    return 50;
  }

  /** The size of the big value in {@link #bigValues} and {@link #readsOfStoredValues}. */
  protected int bigValueBytes() {
    return 3 * 1024 * 1024 + 17;
  }

  /**
   * What {@code get} of a key that is only a prefix of other keys ("a" when "a/c/d" exists) does:
   * absent by default; a filesystem store reports the directory as corruption.
   */
  protected void checkPrefixIsNoValue(Store s) {
    assertThat(s.get("a")).isNull();
  }

  /** Called after the keys that escape the root were refused: nothing may have been written. */
  protected void checkNothingEscaped(Store s) {}

  /** Extra checks after {@link #concurrentWritersOfDifferentAndSameKeys} (none by default). */
  protected void afterConcurrentWriters(Store s) throws Exception {}

  static byte[] bytes(int... v) {
    byte[] b = new byte[v.length];
    for (int i = 0; i < v.length; i++) {
      b[i] = (byte) v[i];
    }
    return b;
  }

  static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  /** Values shaped like a Zarr hierarchy (v2 and v3 keys) beside plain ones. */
  private Map<String, byte[]> sample() {
    Map<String, byte[]> m = new LinkedHashMap<>();
    m.put("a/b", bytes(1, 2, 3, 4, 5));
    m.put("a/c/d", bytes(9));
    m.put("ab", new byte[0]);
    m.put("z", bytes(7));
    m.put(".zgroup", "{\"zarr_format\":2}".getBytes());
    m.put("v2/.zarray", "{}".getBytes());
    m.put("v2/0.0", bytes(1));
    m.put("v2/1.0", bytes(2));
    m.put("v3/zarr.json", "{}".getBytes());
    m.put("v3/c/0/1", bytes(3));
    m.put("v3/c/10/0", bytes(4));
    m.put("with space/x-y_z.1", bytes(5));
    m.put("big", random(bigValueBytes(), 42));
    return m;
  }

  @Test
  void readsOfStoredValues() {
    Map<String, byte[]> values = sample();
    Store s = storeWith("reads", values);
    for (Map.Entry<String, byte[]> e : values.entrySet()) {
      assertThat(s.get(e.getKey())).as(e.getKey()).isEqualTo(e.getValue());
      assertThat(s.exists(e.getKey())).as(e.getKey()).isTrue();
    }
    for (String missing :
        List.of("a/b/c", "nope", "v3/c/0/2", "v2/.zattrs", "zarr.json", "big2", "with space/x")) {
      assertThat(s.get(missing)).as(missing).isNull();
      assertThat(s.getRange(missing, 0, 3)).as(missing).isNull();
      assertThat(s.getSuffix(missing, 3)).as(missing).isNull();
      assertThat(s.exists(missing)).as(missing).isFalse();
    }
    assertThat(s.getRange("a/b", 1, 3)).containsExactly(2, 3, 4);
    assertThat(s.getRange("a/b", 3, 10)).containsExactly(4, 5);
    assertThat(s.getRange("a/b", 9, 10)).isEmpty();
    assertThat(s.getRange("a/b", 2, 0)).isEmpty();
    assertThat(s.getRange("ab", 0, 4)).isEmpty();
    assertThat(s.getSuffix("a/b", 2)).containsExactly(4, 5);
    assertThat(s.getSuffix("a/b", 99)).containsExactly(1, 2, 3, 4, 5);
    assertThat(s.getSuffix("ab", 4)).isEmpty();
    byte[] big = values.get("big");
    assertThat(s.getRange("big", 1_000_001, 4096))
        .isEqualTo(Arrays.copyOfRange(big, 1_000_001, 1_000_001 + 4096));
    assertThat(s.getSuffix("big", 16))
        .isEqualTo(Arrays.copyOfRange(big, big.length - 16, big.length));
    assertThatThrownBy(() -> s.getRange("a/b", -1, 2)).isInstanceOf(IllegalArgumentException.class);
    assertThat(s.list("")).containsExactlyElementsOf(values.keySet().stream().sorted().toList());
    assertThat(s.list("a/")).containsExactly("a/b", "a/c/d");
    assertThat(s.list("a")).containsExactly("a/b", "a/c/d", "ab");
    assertThat(s.list("v3/c/")).containsExactly("v3/c/0/1", "v3/c/10/0");
    assertThat(s.list("v2/")).containsExactly("v2/.zarray", "v2/0.0", "v2/1.0");
    assertThat(s.list("nope/")).isEmpty();
    assertThat(s.listChildren(""))
        .containsExactly(".zgroup", "a", "ab", "big", "v2", "v3", "with space", "z");
    assertThat(s.listChildren("a/")).containsExactly("b", "c");
    assertThat(s.listChildren("v3/c/")).containsExactly("0", "10");
    checkPrefixIsNoValue(s);
    // bounded reads: the whole value up to the bound, a larger one refused naming the key
    assertThat(s.get("a/b", 5)).containsExactly(1, 2, 3, 4, 5);
    assertThat(s.get("ab", 0)).isEmpty();
    assertThat(s.get("nope", 10)).isNull();
    assertThat(s.get("big", big.length)).isEqualTo(big);
    for (String k : List.of("a/b", "big")) {
      long max = values.get(k).length - 1;
      ValueTooLargeException e =
          catchThrowableOfType(() -> s.get(k, max), ValueTooLargeException.class);
      assertThat(e).as(k).isNotNull();
      assertThat(e.getMessage()).contains("'" + k + "'").contains(max + " bytes");
      assertThat(e.limit()).isEqualTo(max);
      assertThat(e.size()).isIn(-1L, max + 1);
    }
  }

  @Test
  void basicContract() {
    assumeFalse(readOnly(), "a read-only store");
    Store s = freshStore("basic");
    assertThat(s.get("a/b")).isNull();
    assertThat(s.exists("a/b")).isFalse();
    s.put("a/b", bytes(1, 2, 3, 4, 5));
    s.put("a/c/d", bytes(9));
    s.put("ab", new byte[0]);
    s.put("z", bytes(7));
    assertThat(s.get("a/b")).containsExactly(1, 2, 3, 4, 5);
    assertThat(s.get("ab")).isEmpty();
    assertThat(s.exists("ab")).isTrue();
    assertThat(s.list("")).containsExactly("a/b", "a/c/d", "ab", "z");
    s.put("a/b", bytes(6)); // overwrite with a shorter value
    assertThat(s.get("a/b")).containsExactly(6);
    s.put("a/b", bytes(6, 7, 8, 9, 10, 11, 12)); // and a longer one
    assertThat(s.get("a/b")).containsExactly(6, 7, 8, 9, 10, 11, 12);
    s.put("a/b", new byte[0]); // and an empty one
    assertThat(s.get("a/b")).isEmpty();
    s.put("v3/c/0/1", bytes(1, 2, 3), 2); // a prefix of a buffer
    assertThat(s.get("v3/c/0/1")).containsExactly(1, 2);
    assertThatThrownBy(() -> s.put("v3/c/0/1", bytes(1), 2))
        .isInstanceOf(IllegalArgumentException.class);
    s.delete("a/b");
    s.delete("a/b"); // idempotent
    assertThat(s.exists("a/b")).isFalse();
    assertThat(s.get("a/b")).isNull();
    assertThat(s.list("")).containsExactly("a/c/d", "ab", "v3/c/0/1", "z");
    assertThat(s.listChildren("a/")).containsExactly("c");
    s.delete("a/c/d");
    assertThat(s.list("a/")).isEmpty(); // no "directory" remains listed
    assertThat(s.listChildren("")).containsExactly("ab", "v3", "z");
    s.put("a/c/d", bytes(9));
    s.put("a/c/e", bytes(9));
    s.deletePrefix("a/");
    assertThat(s.list("")).containsExactly("ab", "v3/c/0/1", "z");
    s.deletePrefix("");
    assertThat(s.list("")).isEmpty();
    s.put("a/c/d", bytes(9));
    checkPrefixIsNoValue(s);
  }

  @Test
  void bigValues() {
    assumeFalse(readOnly(), "a read-only store");
    Store s = freshStore("big");
    byte[] big = random(bigValueBytes() + 100, 7);
    s.put("big", big, bigValueBytes()); // a codec's longer output buffer
    byte[] want = Arrays.copyOf(big, bigValueBytes());
    assertThat(s.get("big")).isEqualTo(want);
    assertThat(s.getRange("big", 2_000_000, 100))
        .isEqualTo(Arrays.copyOfRange(want, 2_000_000, 2_000_100));
    assertThat(s.getSuffix("big", 10))
        .isEqualTo(Arrays.copyOfRange(want, want.length - 10, want.length));
    byte[] other = random(bigValueBytes(), 8);
    s.put("big", other);
    assertThat(s.get("big")).isEqualTo(other);
  }

  @Test
  void rejectsKeysEscapingTheRoot() {
    Store s = readOnly() ? storeWith("keys", Map.of()) : freshStore("keys");
    for (String bad :
        List.of("../x", "/etc/passwd", "a/../../x", "a//b", "", "a/./b", "C:/x", "a\\..\\b")) {
      if (!readOnly()) {
        assertThatThrownBy(() -> s.put(bad, new byte[1]), bad)
            .isInstanceOf(IllegalArgumentException.class);
      }
      assertThatThrownBy(() -> s.get(bad), bad).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> s.exists(bad), bad).isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> s.list("../"), "../").isInstanceOf(IllegalArgumentException.class);
    assertThat(s.list("")).isEmpty();
    checkNothingEscaped(s);
  }

  @Test
  void readOnlyStoresRefuseWrites() {
    assumeTrue(readOnly(), "a writable store");
    Store s = storeWith("refuse", Map.of("a/b", bytes(1, 2)));
    String where = s.describe();
    List<Runnable> writes =
        List.of(
            () -> s.put("a/b", bytes(3)),
            () -> s.put("n", bytes(3), 1),
            () -> s.delete("a/b"),
            () -> s.deletePrefix(""),
            () -> s.deletePrefix("a/"));
    for (Runnable w : writes) {
      assertThatThrownBy(w::run)
          .isInstanceOf(UnsupportedOperationException.class)
          .hasMessageContaining("read-only")
          .hasMessageContaining(where)
          .hasMessageNotContaining("\n");
    }
    assertThat(s.get("a/b")).containsExactly(1, 2);
    assertThat(s.list("")).containsExactly("a/b");
  }

  @Test
  void concurrentReaders() throws Exception {
    Map<String, byte[]> values = new LinkedHashMap<>();
    for (int i = 0; i < 16; i++) {
      values.put("c/" + i, random(1000 + i, i));
    }
    Store s = storeWith("readers", values);
    ExecutorService ex = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> fs = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int id = t;
        fs.add(
            ex.submit(
                () -> {
                  for (int i = 0; i < 16; i++) {
                    String k = "c/" + ((i + id) % 16);
                    assertThat(s.get(k)).isEqualTo(values.get(k));
                    assertThat(s.getRange(k, 10, 20))
                        .isEqualTo(Arrays.copyOfRange(values.get(k), 10, 30));
                  }
                }));
      }
      for (Future<?> f : fs) {
        f.get();
      }
    } finally {
      ex.shutdown();
    }
  }

  @Test
  void concurrentWritersOfDifferentAndSameKeys() throws Exception {
    assumeFalse(readOnly(), "a read-only store");
    Store s = freshStore("concurrent");
    int n = writesPerThread();
    ExecutorService ex = Executors.newFixedThreadPool(8);
    List<Future<?>> fs = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      int id = t;
      fs.add(
          ex.submit(
              () -> {
                for (int i = 0; i < n; i++) {
                  s.put("k/" + id + "/" + i, new byte[] {(byte) id, (byte) i});
                  byte[] v = new byte[4096];
                  Arrays.fill(v, (byte) id);
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
    assertThat(s.list("k/")).hasSize(8 * n);
    assertThat(s.list("")).hasSize(8 * n + 1); // no temporary keys remain or are listed
    assertThat(s.listChildren("k/")).hasSize(8);
    for (int t = 0; t < 8; t++) {
      assertThat(s.get("k/" + t + "/" + (n - 1))).containsExactly(t, n - 1);
    }
    afterConcurrentWriters(s);
  }
}
