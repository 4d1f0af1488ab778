package dev.cubed.gcs;

import com.google.cloud.storage.Storage;
import com.google.cloud.storage.contrib.nio.testing.LocalStorageHelper;

/**
 * Google's in-memory Cloud Storage ({@code LocalStorageHelper} of {@code google-cloud-nio}) for
 * tests, one per JVM, reached two ways: directly ({@link #STORAGE}, for {@link
 * GcsStore#GcsStore(String, String, Storage)}) and as the {@link GcsClientFactory} of {@code gs://}
 * URIs that name it ({@link #uri}), for the work directory, {@code Cubed.fromZarr} and the CLI.
 *
 * <p>The fake keeps objects of any bucket without creating buckets; it has no generations (objects
 * written with {@code create} carry none), no batch requests and no list pages (a listing returns
 * the first page only, with no token for the next).
 */
public final class FakeGcs implements GcsClientFactory {
  /**
   * The in-memory client ({@code getOptions()} empties the fake's shared state: called once, here).
   */
  public static final Storage STORAGE = LocalStorageHelper.getOptions().getService();

  /** For {@link GcsStore}'s client_factory setting. */
  public FakeGcs() {}

  @Override
  public Storage create(GcsSettings settings) {
    return STORAGE;
  }

  /** {@code gs://<path>} on the fake: {@code uri("bkt/a.zarr")}. */
  public static String uri(String bucketAndPath) {
    return "gs://" + bucketAndPath + "?client_factory=" + FakeGcs.class.getName();
  }
}
