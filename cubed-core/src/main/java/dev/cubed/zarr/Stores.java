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

  /** The shared in-memory store of a name. */
  static MemoryStore memory(String name) {
    return MEMORY.computeIfAbsent(name, MemoryStore::new);
  }

  /** Forgets a named in-memory store (its data becomes garbage once unreferenced). */
  public static void dropMemory(String name) {
    MEMORY.remove(name);
  }
}
