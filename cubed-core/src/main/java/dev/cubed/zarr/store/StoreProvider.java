package dev.cubed.zarr.store;

import java.net.URI;

/**
 * A plugin opening stores for a URI scheme (e.g. {@code s3}), found with {@link
 * java.util.ServiceLoader}: list the implementation class in {@code
 * META-INF/services/dev.cubed.zarr.store.StoreProvider}. {@link Stores#open} asks the providers for
 * any scheme other than {@code file} and {@code memory}.
 */
public interface StoreProvider {

  /** True if this provider opens URIs of this scheme (lower case, without ':'). */
  boolean supports(String scheme);

  /**
   * Opens a store for a URI of a supported scheme.
   *
   * @throws IllegalArgumentException if the URI is malformed for the scheme
   */
  Store open(URI uri);
}
