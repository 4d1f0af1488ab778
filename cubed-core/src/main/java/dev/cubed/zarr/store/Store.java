package dev.cubed.zarr.store;

import java.io.Serializable;
import java.util.Arrays;
import java.util.List;

/**
 * A key-value store holding the documents and chunks of Zarr hierarchies.
 *
 * <p>Keys are relative, '/'-separated paths such as {@code "a/zarr.json"} or {@code "a/c/0/1"}; a
 * key never starts with '/' and has no empty, "." or ".." segments. Implementations are thread-safe
 * and serializable (a serialized store reopens the same storage on another JVM when the storage is
 * shared, e.g. a filesystem path).
 *
 * <p>Failures of the underlying storage are reported as {@link ZarrStoreException} (an unchecked
 * {@link java.io.UncheckedIOException}); invalid keys as {@link IllegalArgumentException}.
 *
 * <p>A read-only store (e.g. one reading over plain HTTP) refuses {@code put}, {@code delete} and
 * {@code deletePrefix} with an {@link UnsupportedOperationException} whose one-line message names
 * the store ({@link #describe()}) and says it is read-only.
 */
public interface Store extends Serializable {

  /** The whole value of a key, or {@code null} if the key is absent. */
  byte[] get(String key);

  /**
   * {@code length} bytes starting at {@code offset} of a key's value, or {@code null} if the key is
   * absent. Fewer bytes are returned when the value ends before {@code offset + length}.
   *
   * @throws IllegalArgumentException if {@code offset} or {@code length} is negative
   */
  byte[] getRange(String key, long offset, int length);

  /**
   * The whole value of a key if it holds at most {@code maxBytes} bytes, or {@code null} if the key
   * is absent; a larger value is refused before it is read whole: no more than {@code maxBytes + 1}
   * of its bytes are read or held (none where the store knows the size first, as a file's
   * attributes or an HTTP {@code Content-Length}). Chunk reads pass their chunk's bound ({@link
   * dev.cubed.zarr.ZarrArray#maxStoredChunkBytes()}), metadata reads {@link
   * Stores#maxMetadataBytes()}. The default is a range read of {@code maxBytes + 1} bytes from
   * offset 0.
   *
   * @throws ValueTooLargeException if the value holds more than {@code maxBytes} bytes, naming the
   *     key, the store and both sizes (the value's as "more than" when it is not known)
   * @throws IllegalArgumentException if {@code maxBytes} is negative
   */
  default byte[] get(String key, long maxBytes) {
    Stores.checkMaxBytes(key, maxBytes);
    byte[] v = getRange(key, 0, (int) Math.min(maxBytes + 1, Stores.MAX_VALUE_BYTES));
    if (v != null && v.length > maxBytes) {
      throw ValueTooLargeException.of(key, this, -1, maxBytes);
    }
    return v;
  }

  /**
   * The last {@code length} bytes of a key's value (all of it if shorter), or {@code null} if the
   * key is absent. Used to read shard indexes stored at the end of a shard.
   */
  default byte[] getSuffix(String key, int length) {
    byte[] v = get(key);
    if (v == null) {
      return null;
    }
    int n = Math.min(length, v.length);
    return Arrays.copyOfRange(v, v.length - n, v.length);
  }

  /**
   * Stores a value, replacing any previous one atomically: concurrent readers see the old bytes or
   * the new bytes, never a mixture or a truncated value.
   */
  void put(String key, byte[] value);

  /**
   * Stores the first {@code length} bytes of {@code value} (a codec's output buffer may be longer
   * than its result). {@code value} stays the caller's: the chunk writer reuses it for the next
   * chunk once this returns, so a store that keeps the bytes after returning keeps a copy. The
   * default copies them and calls {@link #put(String, byte[])}; stores that can write a prefix
   * without the copy (and without keeping the array) override it.
   *
   * @throws IllegalArgumentException if {@code length} is outside [0, value.length]
   */
  default void put(String key, byte[] value, int length) {
    Stores.checkLength(key, value, length);
    put(key, Arrays.copyOf(value, length));
  }

  /** Removes a key; no error if it is absent. */
  void delete(String key);

  /**
   * Removes every key starting with {@code prefix} ("" for the whole store; see {@link #list}). The
   * default lists and deletes key by key; object stores override it with batch deletes.
   */
  default void deletePrefix(String prefix) {
    for (String k : list(prefix)) {
      delete(k);
    }
  }

  /** True if the key is present. */
  boolean exists(String key);

  /**
   * Every key starting with {@code prefix} (recursively, at any depth), sorted. An empty prefix
   * lists the whole store. A prefix meant as a directory should end with '/'.
   */
  List<String> list(String prefix);

  /**
   * The distinct names one level below {@code prefix} (which is "" or ends with '/'): the first
   * segment of every key under it, sorted. The default derives it from {@link #list}; stores
   * override it for speed.
   */
  default List<String> listChildren(String prefix) {
    return Stores.childrenFromList(this, prefix);
  }

  /**
   * Copies of a chunk's bytes a read or a write through this store holds at once besides the
   * decoded array, for the memory model: 1 for a local store (the encoded bytes), 2 for object
   * stores (the encoded bytes plus the HTTP client's buffer of them). A plan counts the largest
   * value over the stores it reads and writes, including its work directory's.
   */
  default int bufferCopies() {
    return 1;
  }

  /**
   * A short description of the store for messages, e.g. {@code "file:///data/x.zarr"}; it must not
   * contain credentials (pass any URL through {@link Stores#redact}).
   */
  default String describe() {
    return getClass().getSimpleName();
  }
}
