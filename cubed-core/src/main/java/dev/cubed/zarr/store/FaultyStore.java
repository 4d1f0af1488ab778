package dev.cubed.zarr.store;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link Store} that injects transient storage failures into another store, to test that computes
 * survive them (with the executor's retries) and to check a setup.
 *
 * <p>Each {@link #put} fails with probability {@code putFailRate} (a {@link ZarrStoreException}
 * thrown before anything is written) or with probability {@code partialPutRate} after leaving a
 * partial temporary file: when the wrapped store is a {@link FileSystemStore}, half of the value is
 * written to a {@code .cubed-tmp-*} file next to the key (what a writer killed mid-write leaves),
 * then the exception is thrown; the key itself is untouched, so readers keep seeing the old value
 * and {@link #list} (which ignores temporary files) does not show the junk. Each read ({@link
 * #get}, {@link #getRange}, {@link #getSuffix}) fails with probability {@code getFailRate}. Other
 * calls pass through. All injected failures are {@link ZarrStoreException}s, which the executor
 * retries.
 *
 * <p>Decisions are a pure function of (seed, kind of call, key, how many such calls this instance
 * has seen for the key), so a seeded run is reproducible whatever the thread interleaving.
 * Serializable like other stores: a deserialized copy wraps the deserialized store with the same
 * rates and starts its call counts afresh.
 */
public final class FaultyStore implements Store {
  private static final long serialVersionUID = 1L;

  private final Store delegate;
  private final long seed;
  private final double putFailRate;
  private final double partialPutRate;
  private final double getFailRate;
  private transient ConcurrentHashMap<String, AtomicInteger> calls;
  private transient AtomicLong injected;

  /**
   * Wraps {@code delegate}.
   *
   * @throws IllegalArgumentException if a rate is outside [0, 1] or putFailRate + partialPutRate
   *     exceeds 1
   */
  public FaultyStore(
      Store delegate, long seed, double putFailRate, double partialPutRate, double getFailRate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.seed = seed;
    this.putFailRate = rate("putFailRate", putFailRate);
    this.partialPutRate = rate("partialPutRate", partialPutRate);
    this.getFailRate = rate("getFailRate", getFailRate);
    if (putFailRate + partialPutRate > 1) {
      throw new IllegalArgumentException(
          "FaultyStore: putFailRate ("
              + putFailRate
              + ") + partialPutRate ("
              + partialPutRate
              + ") must not exceed 1");
    }
    init();
  }

  private static double rate(String name, double r) {
    if (!(r >= 0 && r <= 1)) {
      throw new IllegalArgumentException(
          "FaultyStore: " + name + " must be a probability in" + " [0, 1], got " + r);
    }
    return r;
  }

  private void init() {
    calls = new ConcurrentHashMap<>();
    injected = new AtomicLong();
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    init();
  }

  /** The wrapped store. */
  public Store delegate() {
    return delegate;
  }

  /** Failures injected so far by this instance. */
  public long injectedFailures() {
    return injected.get();
  }

  private double draw(String kind, String key) {
    int n = calls.computeIfAbsent(kind + ":" + key, k -> new AtomicInteger()).incrementAndGet();
    long h = seed * 0x9E3779B97F4A7C15L;
    h = h * 31 + kind.hashCode();
    h = h * 31 + key.hashCode();
    h = h * 31 + n;
    return new SplittableRandom(h).nextDouble();
  }

  private ZarrStoreException fault(String what, String key) {
    injected.incrementAndGet();
    return new ZarrStoreException(
        "injected transient failure: " + what + " key '" + key + "' of " + describe(),
        new IOException("injected by FaultyStore"));
  }

  private void maybeFailRead(String key) {
    if (getFailRate > 0 && draw("get", key) < getFailRate) {
      throw fault("cannot read", key);
    }
  }

  @Override
  public byte[] get(String key) {
    maybeFailRead(key);
    return delegate.get(key);
  }

  @Override
  public byte[] get(String key, long maxBytes) {
    maybeFailRead(key);
    return delegate.get(key, maxBytes);
  }

  @Override
  public byte[] getRange(String key, long offset, int length) {
    maybeFailRead(key);
    return delegate.getRange(key, offset, length);
  }

  @Override
  public byte[] getSuffix(String key, int length) {
    maybeFailRead(key);
    return delegate.getSuffix(key, length);
  }

  @Override
  public void put(String key, byte[] value) {
    if (putFailRate + partialPutRate > 0) {
      double d = draw("put", key);
      if (d < putFailRate) {
        throw fault("cannot write (nothing written)", key);
      }
      if (d < putFailRate + partialPutRate) {
        leavePartialTemp(key, value);
        throw fault("cannot write (partial temporary file left)", key);
      }
    }
    delegate.put(key, value);
  }

  /** Writes half the value to a temporary file beside the key, as a killed writer would. */
  private void leavePartialTemp(String key, byte[] value) {
    if (!(delegate instanceof FileSystemStore fs)) {
      return;
    }
    Path p = fs.resolve(key); // the store's own checks: inside the root, no link out
    try {
      Files.createDirectories(p.getParent());
      Path tmp =
          Files.createTempFile(
              p.getParent(), FileSystemStore.TMP_PREFIX + p.getFileName() + ".", "");
      Files.write(tmp, Arrays.copyOf(value, value.length / 2));
    } catch (IOException e) {
      throw new ZarrStoreException(
          "FaultyStore: cannot leave a partial temporary file for key '"
              + key
              + "' of "
              + describe(),
          e);
    }
  }

  @Override
  public void delete(String key) {
    delegate.delete(key);
  }

  @Override
  public boolean exists(String key) {
    return delegate.exists(key);
  }

  @Override
  public List<String> list(String prefix) {
    return delegate.list(prefix);
  }

  @Override
  public List<String> listChildren(String prefix) {
    return delegate.listChildren(prefix);
  }

  @Override
  public String describe() {
    return "faulty(" + delegate.describe() + ")";
  }

  @Override
  public String toString() {
    return describe();
  }
}
