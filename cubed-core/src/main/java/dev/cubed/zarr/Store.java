package dev.cubed.zarr;

import java.io.Serializable;
import java.util.List;

/**
 * A key-value store holding Zarr metadata and chunks. Keys are relative, '/'-separated paths
 * ({@code "a/b/c/0.0"}). Implementations are thread-safe; they are {@link Serializable} so a task
 * shipped to another process can reopen the same store.
 *
 * <p>Contract: {@link #put} is atomic (a reader sees the old value or the new one, never a part), so
 * a crashed writer never leaves a half-written chunk and retried or duplicated tasks are harmless.
 */
public interface Store extends Serializable {

  /** The value of a key, or null if the key is absent. */
  byte[] get(String key);

  /**
   * {@code length} bytes of a key's value from {@code offset}, or null if the key is absent.
   *
   * @throws ZarrException if the range is outside the value
   */
  byte[] getRange(String key, long offset, int length);

  /** Stores a value atomically, replacing any previous value. */
  void put(String key, byte[] value);

  /** Removes a key; no error if absent. */
  void delete(String key);

  /** True if the key is present. */
  boolean exists(String key);

  /** Every key under a prefix (recursively), sorted; a prefix of "" lists the whole store. */
  List<String> list(String prefix);

  /** A description for messages, e.g. the root directory. */
  String describe();

  /** Checks a key: relative, no empty, "." or ".." segments, no backslashes. */
  static String checkKey(String key) {
    if (key == null || key.isEmpty() || key.startsWith("/") || key.contains("\\")) {
      throw new IllegalArgumentException(
          "invalid store key '" + key + "': keys are relative '/'-separated paths");
    }
    for (String seg : key.split("/", -1)) {
      if (seg.isEmpty() || seg.equals(".") || seg.equals("..")) {
        throw new IllegalArgumentException(
            "invalid store key '" + key + "': empty, '.' and '..' segments are not allowed"
                + " (a key may not escape the store's root)");
      }
    }
    return key;
  }
}
