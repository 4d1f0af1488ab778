package dev.cubed.zarr;

import java.net.URI;

/**
 * Opens {@code http://} and {@code https://} locations as read-only {@link HttpStore}s for {@link
 * Stores#open} (registered in cubed-core's {@code META-INF/services}).
 */
public final class HttpStoreProvider implements StoreProvider {
  @Override
  public boolean supports(String scheme) {
    return scheme.equals("http") || scheme.equals("https");
  }

  @Override
  public Store open(URI uri) {
    return new HttpStore(uri, HttpStore.DEFAULT_ATTEMPTS);
  }
}
