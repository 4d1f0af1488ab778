package dev.cubed.zarr.store;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A memory store that counts what it hands out, for tests of read patterns: the bytes returned by
 * every read ({@link #bytes}) and the reads per key, metadata ({@code .json}) left out ({@link
 * #reads}). Writes, deletes and listings pass through uncounted.
 */
public final class CountingStore implements Store {
  /** The store holding the data. */
  public final MemoryStore inner = new MemoryStore();

  /** Bytes handed out by get, getRange and getSuffix. */
  public final transient AtomicLong bytes = new AtomicLong();

  /** Reads per key (get, getRange or getSuffix), metadata keys left out. */
  public final transient Map<String, Integer> reads = new ConcurrentHashMap<>();

  private byte[] count(String key, byte[] b) {
    if (b != null) {
      bytes.addAndGet(b.length);
    }
    if (!key.endsWith(".json")) {
      reads.merge(key, 1, Integer::sum);
    }
    return b;
  }

  @Override
  public byte[] get(String key) {
    return count(key, inner.get(key));
  }

  @Override
  public byte[] getRange(String key, long offset, int length) {
    return count(key, inner.getRange(key, offset, length));
  }

  @Override
  public byte[] getSuffix(String key, int length) {
    return count(key, inner.getSuffix(key, length));
  }

  @Override
  public void put(String key, byte[] value) {
    inner.put(key, value);
  }

  @Override
  public void delete(String key) {
    inner.delete(key);
  }

  @Override
  public boolean exists(String key) {
    return inner.exists(key);
  }

  @Override
  public List<String> list(String prefix) {
    return inner.list(prefix);
  }
}
