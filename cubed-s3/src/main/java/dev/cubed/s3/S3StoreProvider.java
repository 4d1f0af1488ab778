package dev.cubed.s3;

import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.StoreProvider;
import java.net.URI;

/**
 * Opens {@code s3://bucket/prefix} locations as {@link S3Store}s for {@link
 * dev.cubed.zarr.store.Stores#open} (registered in {@code META-INF/services}).
 */
public final class S3StoreProvider implements StoreProvider {
  @Override
  public boolean supports(String scheme) {
    return scheme.equals("s3");
  }

  @Override
  public Store open(URI uri) {
    return S3Store.open(uri);
  }
}
