package dev.cubed.zarr.store;

import java.net.URI;

/** A StoreProvider plugin for tests: {@code testmem://name} opens the named memory store. */
public final class TestStoreProvider implements StoreProvider {
  @Override
  public boolean supports(String scheme) {
    return scheme.equals("testmem");
  }

  @Override
  public Store open(URI uri) {
    return Stores.open("memory://plugin-" + uri.getHost());
  }
}
