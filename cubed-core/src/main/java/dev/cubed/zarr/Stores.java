package dev.cubed.zarr;

import java.net.URI;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Locale;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;

/** Opens stores from URIs or paths. */
public final class Stores {
  private static final ConcurrentHashMap<String, MemoryStore> MEMORY = new ConcurrentHashMap<>();

  private Stores() {}

  /**
   * Opens a store: {@code "file:///abs/dir"} or a plain path gives a {@link FileSystemStore};
   * {@code "memory://name"} the JVM-wide {@link MemoryStore} of that name (created on first use);
   * other schemes are looked up among the {@link StoreProvider} plugins.
   *
   * @throws IllegalArgumentException for an unsupported scheme, naming the URI and the schemes
   *     available
   */
  public static Store open(String uriOrPath) {
    if (uriOrPath == null || uriOrPath.isEmpty()) {
      throw new IllegalArgumentException("Stores.open: empty store location");
    }
    int colon = uriOrPath.indexOf("://");
    if (colon <= 1) { // no scheme, or a Windows drive letter
      return new FileSystemStore(Paths.get(uriOrPath));
    }
    String scheme = uriOrPath.substring(0, colon).toLowerCase(Locale.ROOT);
    if (scheme.equals("file")) {
      return new FileSystemStore(Path.of(URI.create(uriOrPath)));
    }
    if (scheme.equals("memory")) {
      String name = uriOrPath.substring(colon + 3);
      while (name.endsWith("/")) {
        name = name.substring(0, name.length() - 1);
      }
      return memory(name);
    }
    URI uri;
    try {
      uri = URI.create(uriOrPath);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Stores.open: malformed URI '" + uriOrPath + "'", e);
    }
    for (StoreProvider p : ServiceLoader.load(StoreProvider.class)) {
      if (p.supports(scheme)) {
        return p.open(uri);
      }
    }
    throw new IllegalArgumentException(
        "Stores.open: no store for scheme '" + scheme + "' in '" + uriOrPath + "': supported are"
            + " file://, memory:// and plain paths; other schemes need a StoreProvider plugin on"
            + " the classpath");
  }

  /**
   * Checks a store key the way the built-in stores do (for {@link StoreProvider} plugins): relative,
   * '/'-separated, no empty, "." or ".." segments, no backslash or drive letter.
   *
   * @return the key
   * @throws IllegalArgumentException naming the key and what is wrong with it
   */
  public static String checkKey(String key) {
    return Keys.check(key);
  }

  /** Checks a list prefix ("" or a key prefix, which may end with '/'); see {@link #checkKey}. */
  public static String checkPrefix(String prefix) {
    return Keys.checkPrefix(prefix);
  }

  /**
   * True if a location names a local filesystem path: a plain path or a {@code file://} URI (not a
   * {@code memory://} store or a plugin scheme such as {@code s3://}).
   */
  public static boolean isLocal(String uriOrPath) {
    int colon = uriOrPath.indexOf("://");
    return colon <= 1
        || uriOrPath.substring(0, colon).toLowerCase(Locale.ROOT).equals("file");
  }

  /**
   * The local path of a location for which {@link #isLocal} holds.
   *
   * @throws IllegalArgumentException if the location is not local
   */
  public static Path localPath(String uriOrPath) {
    if (!isLocal(uriOrPath)) {
      throw new IllegalArgumentException("'" + uriOrPath + "' is not a local path or file:// URI");
    }
    return uriOrPath.indexOf("://") <= 1 ? Paths.get(uriOrPath) : Path.of(URI.create(uriOrPath));
  }

  /** The shared in-memory store of a name. */
  static MemoryStore memory(String name) {
    return MEMORY.computeIfAbsent(name, MemoryStore::new);
  }

  /** Forgets a named in-memory store (its data becomes garbage once unreferenced). */
  public static void dropMemory(String name) {
    MEMORY.remove(name);
  }
}
