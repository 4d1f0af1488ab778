package dev.cubed.zarr.store;

import java.net.URI;

/**
 * Opens {@code http://} and {@code https://} locations as read-only {@link HttpStore}s for {@link
 * Stores#open} (registered in cubed-core's {@code META-INF/services}), with the {@code HTTP} store
 * settings of the system properties and the environment ({@link HttpStore#open(URI,
 * StoreSettings)}).
 */
public final class HttpStoreProvider implements StoreProvider {
  @Override
  public boolean supports(String scheme) {
    return scheme.equals("http") || scheme.equals("https");
  }

  @Override
  public Store open(URI uri) {
    return HttpStore.open(uri, StoreSettings.global("HTTP", System::getProperty, System::getenv));
  }
}
