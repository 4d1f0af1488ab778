package dev.cubed.zarr;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A store in this JVM's memory (a concurrent map). Values are copied in and out, so callers may
 * reuse their buffers. Named stores ({@link #named}) are shared by every {@code memory://name} URI in
 * this JVM; serializing a named store and reading it back in the same JVM gives the same store.
 */
public final class MemoryStore implements Store {
  private static final long serialVersionUID = 1L;
  private static final Map<String, MemoryStore> NAMED = new ConcurrentHashMap<>();

  private final String name;
  private transient Map<String, byte[]> map = new ConcurrentHashMap<>();

  public MemoryStore() {
    this(null);
  }

  private MemoryStore(String name) {
    this.name = name;
  }

  /** The store of this JVM with that name, created on first use. */
  public static MemoryStore named(String name) {
    return NAMED.computeIfAbsent(name, MemoryStore::new);
  }

  private Object readResolve() {
    if (name != null) {
      return named(name);
    }
    map = new ConcurrentHashMap<>();
    return this;
  }

  @Override
  public byte[] get(String key) {
    byte[] v = map.get(Store.checkKey(key));
    return v == null ? null : v.clone();
  }

  @Override
  public byte[] getRange(String key, long offset, int length) {
    byte[] v = map.get(Store.checkKey(key));
    if (v == null) {
      return null;
    }
    if (offset < 0 || length < 0 || offset + length > v.length) {
      throw new ZarrException("range [" + offset + ", " + (offset + length) + ") is outside key '"
          + key + "' of " + v.length + " bytes");
    }
    return Arrays.copyOfRange(v, (int) offset, (int) offset + length);
  }

  @Override
  public void put(String key, byte[] value) {
    map.put(Store.checkKey(key), value.clone());
  }

  @Override
  public void delete(String key) {
    map.remove(Store.checkKey(key));
  }

  @Override
  public boolean exists(String key) {
    return map.containsKey(Store.checkKey(key));
  }

  @Override
  public List<String> list(String prefix) {
    String p = prefix.isEmpty() || prefix.endsWith("/") ? prefix : prefix + "/";
    List<String> out = new ArrayList<>();
    for (String k : map.keySet()) {
      if (prefix.isEmpty() || k.startsWith(p) || k.equals(prefix)) {
        out.add(k);
      }
    }
    Collections.sort(out);
    return out;
  }

  @Override
  public String describe() {
    return name == null ? "memory" : "memory://" + name;
  }
}
