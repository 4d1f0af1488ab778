package dev.cubed.zarr.store;

import java.io.ObjectStreamException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An in-memory {@link Store} backed by a {@link ConcurrentHashMap}. Values are copied on put and
 * get, so callers cannot alter stored bytes. A named store (from {@link Stores#open} {@code
 * "memory://name"}) is shared within the JVM and deserializes to the same shared instance; an
 * anonymous store serializes its contents.
 */
public final class MemoryStore implements Store {
  private static final long serialVersionUID = 1L;

  private final ConcurrentHashMap<String, byte[]> map = new ConcurrentHashMap<>();
  private final String name;

  /** A new, empty, anonymous store. */
  public MemoryStore() {
    this(null);
  }

  MemoryStore(String name) {
    this.name = name;
  }

  /** The shared name, or {@code null} for an anonymous store. */
  public String name() {
    return name;
  }

  private Object readResolve() throws ObjectStreamException {
    return name == null ? this : Stores.memory(name);
  }

  @Override
  public byte[] get(String key) {
    byte[] v = map.get(Keys.check(key));
    return v == null ? null : v.clone();
  }

  @Override
  public byte[] get(String key, long maxBytes) {
    Stores.checkMaxBytes(key, maxBytes);
    byte[] v = map.get(Keys.check(key));
    if (v != null && v.length > maxBytes) {
      throw ValueTooLargeException.of(key, this, v.length, maxBytes);
    }
    return v == null ? null : v.clone();
  }

  @Override
  public byte[] getRange(String key, long offset, int length) {
    Stores.checkRange(key, offset, length);
    byte[] v = map.get(Keys.check(key));
    if (v == null) {
      return null;
    }
    int from = (int) Math.min(offset, v.length);
    int to = (int) Math.min((long) from + length, v.length);
    return Arrays.copyOfRange(v, from, to);
  }

  @Override
  public void put(String key, byte[] value) {
    map.put(Keys.check(key), value.clone());
  }

  /** Keeps one copy of the prefix (never {@code value} itself, which the caller reuses). */
  @Override
  public void put(String key, byte[] value, int length) {
    Stores.checkLength(key, value, length);
    map.put(Keys.check(key), Arrays.copyOf(value, length));
  }

  @Override
  public void delete(String key) {
    map.remove(Keys.check(key));
  }

  @Override
  public boolean exists(String key) {
    return map.containsKey(Keys.check(key));
  }

  @Override
  public List<String> list(String prefix) {
    String pre = Keys.checkPrefix(prefix);
    List<String> out = new ArrayList<>();
    for (String k : map.keySet()) {
      if (k.startsWith(pre)) {
        out.add(k);
      }
    }
    out.sort(null);
    return out;
  }

  @Override
  public String describe() {
    return name == null ? "memory store" : "memory://" + name;
  }

  @Override
  public String toString() {
    return "MemoryStore(" + (name == null ? "anonymous" : name) + ", " + map.size() + " keys)";
  }
}
