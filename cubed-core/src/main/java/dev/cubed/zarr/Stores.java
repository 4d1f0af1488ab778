package dev.cubed.zarr;

import java.net.URI;
import java.nio.file.Path;

/**
 * Opens a store from a URI or path: a plain path or {@code file://} URI gives a {@link
 * FileSystemStore}; {@code memory://name} gives the shared {@link MemoryStore#named named memory
 * store}. Other schemes are rejected with a message naming the supported ones.
 */
public final class Stores {
  private Stores() {}

  public static Store open(String uriOrPath) {
    if (uriOrPath.startsWith("memory://")) {
      return MemoryStore.named(uriOrPath.substring("memory://".length()));
    }
    if (uriOrPath.startsWith("file:")) {
      return new FileSystemStore(Path.of(URI.create(uriOrPath)));
    }
    int colon = uriOrPath.indexOf("://");
    if (colon > 0) {
      throw new IllegalArgumentException("unsupported store URI '" + uriOrPath
          + "': supported are plain paths, file:// and memory:// URIs");
    }
    return new FileSystemStore(Path.of(uriOrPath));
  }
}
