package dev.cubed.azure;

import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.StoreProvider;
import java.net.URI;

/**
 * Opens {@code az://container/path} and {@code abfs[s]://container@account.dfs.core.windows.net
 * /path} locations as {@link AzureStore}s for {@link dev.cubed.zarr.store.Stores#open} (registered
 * in {@code META-INF/services}).
 */
public final class AzureStoreProvider implements StoreProvider {
  @Override
  public boolean supports(String scheme) {
    return scheme.equals("az") || scheme.equals("abfs") || scheme.equals("abfss");
  }

  @Override
  public Store open(URI uri) {
    return AzureStore.open(uri);
  }
}
