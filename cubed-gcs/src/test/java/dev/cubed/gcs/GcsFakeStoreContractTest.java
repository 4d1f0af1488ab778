package dev.cubed.gcs;

import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.StoreContract;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@link GcsStoreCases} (the {@link StoreContract} and the GCS cases) against Google's in-memory
 * Cloud Storage ({@link FakeGcs}, {@code google-cloud-nio}'s {@code LocalStorageHelper}), in every
 * build: stores built on the fake's client directly, and {@code gs://} URIs (inputs, targets, the
 * work directory) reaching it through the {@code client_factory} setting. What the fake lacks is
 * checked on the wire by {@link GcsWireTest}: listing pages, batch deletes, generations.
 */
class GcsFakeStoreContractTest extends GcsStoreCases {
  static final AtomicInteger RUN = new AtomicInteger();
  static final String BUCKET = "fake-contract";
  static final String RUN_PREFIX = "run-" + System.nanoTime() + "/";

  @Override
  protected Store freshStore(String name) {
    return new GcsStore(BUCKET, RUN_PREFIX + name + "-" + RUN.incrementAndGet(), FakeGcs.STORAGE);
  }

  @Override
  protected String uri(String path) {
    return FakeGcs.uri(BUCKET + "/" + RUN_PREFIX + path);
  }

  @Override
  protected String unsupported(String feature) {
    return switch (feature) {
      case "pages" ->
          "Google's in-memory fake returns a listing's first page only, with no token for the next"
              + " (GcsWireTest follows pages on the wire)";
      case "batches" ->
          "Google's in-memory fake has no batch requests (GcsWireTest sends batch deletes on the"
              + " wire)";
      default -> null;
    };
  }
}
