package dev.cubed.gcs;

import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.StoreProvider;
import java.net.URI;

/**
 * Opens {@code gs://bucket/prefix} locations as {@link GcsStore}s for {@link
 * dev.cubed.zarr.store.Stores#open} (registered in {@code META-INF/services}).
 */
public final class GcsStoreProvider implements StoreProvider {
  @Override
  public boolean supports(String scheme) {
    return scheme.equals("gs");
  }

  @Override
  public Store open(URI uri) {
    return GcsStore.open(uri);
  }
}
