package dev.cubed.zarr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The {@link Store} contract every store must keep, as tests: values, ranges and suffixes, sorted
 * listing by prefix and by child, overwrite and idempotent delete, keys that would escape the
 * store's root refused, and concurrent writers of different and of the same key (a reader never
 * sees a mixture). A store's test class extends this and says how to make a fresh, empty store;
 * it adds what is particular to that store. Shared with other modules through cubed-core's
 * test-jar.
 */
public abstract class StoreContract {
  /** A fresh, empty store; {@code name} differs between the calls of one test class. */
  protected abstract Store freshStore(String name);

  /** Writes per thread in {@link #concurrentWritersOfDifferentAndSameKeys} (8 threads). */
  protected int writesPerThread() {
    return 50;
  }

  /**
   * What {@code get} of a key that is only a prefix of other keys ("a" when "a/c/d" exists)
   * does: absent by default; a filesystem store reports the directory as corruption.
   */
  protected void checkPrefixIsNoValue(Store s) {
    assertThat(s.get("a")).isNull();
  }

  /** Called after the keys that escape the root were refused: nothing may have been written. */
  protected void checkNothingEscaped(Store s) {}

  @Test
  void basicContract() {
    Store s = freshStore("basic");
    assertThat(s.get("a/b")).isNull();
    assertThat(s.getRange("a/b", 0, 3)).isNull();
    assertThat(s.getSuffix("a/b", 3)).isNull();
    assertThat(s.exists("a/b")).isFalse();
    s.put("a/b", new byte[] {1, 2, 3, 4, 5});
    s.put("a/c/d", new byte[] {9});
    s.put("ab", new byte[0]);
    s.put("z", new byte[] {7});
    assertThat(s.get("a/b")).containsExactly(1, 2, 3, 4, 5);
    assertThat(s.getRange("a/b", 1, 3)).containsExactly(2, 3, 4);
    assertThat(s.getRange("a/b", 3, 10)).containsExactly(4, 5);
    assertThat(s.getRange("a/b", 9, 10)).isEmpty();
    assertThat(s.getRange("a/b", 2, 0)).isEmpty();
    assertThat(s.getSuffix("a/b", 2)).containsExactly(4, 5);
    assertThat(s.getSuffix("a/b", 99)).containsExactly(1, 2, 3, 4, 5);
    assertThat(s.get("ab")).isEmpty();
    assertThat(s.getSuffix("ab", 4)).isEmpty();
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
    checkPrefixIsNoValue(s);
  }

  @Test
  void rejectsKeysEscapingTheRoot() {
    Store s = freshStore("keys");
    for (String bad : List.of("../x", "/etc/passwd", "a/../../x", "a//b", "", "a/./b", "C:/x",
        "a\\..\\b")) {
      assertThatThrownBy(() -> s.put(bad, new byte[1]), bad)
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> s.get(bad), bad).isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(s.list("")).isEmpty();
    checkNothingEscaped(s);
  }

  @Test
  void concurrentWritersOfDifferentAndSameKeys() throws Exception {
    Store s = freshStore("concurrent");
    int n = writesPerThread();
    ExecutorService ex = Executors.newFixedThreadPool(8);
    List<Future<?>> fs = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      int id = t;
      fs.add(ex.submit(() -> {
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
    afterConcurrentWriters(s);
  }

  /** Extra checks after {@link #concurrentWritersOfDifferentAndSameKeys} (none by default). */
  protected void afterConcurrentWriters(Store s) throws Exception {}
}
