package dev.cubed.gcs;

import com.google.cloud.storage.BucketInfo;
import com.google.cloud.storage.StorageException;
import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.StoreContract;
import java.net.URI;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/**
 * {@link GcsStoreCases} (the {@link StoreContract} and the GCS cases) against a GCS-compatible
 * server whose endpoint is given in {@code CUBED_GCS_TEST_ENDPOINT} (or the system property {@code
 * cubed.gcs.testEndpoint}), e.g. {@code http://127.0.0.1:4443} for fake-gcs-server. Without one the
 * tests are skipped (docs/gcs.md, Tests). Each store is a fresh prefix of one bucket created here.
 */
@Tag("gcs")
class GcsStoreContractTest extends GcsStoreCases {
  static final String BUCKET = "cubed-contract";
  static final AtomicInteger RUN = new AtomicInteger();
  static GcsSettings settings;
  static String run;

  @BeforeAll
  static void connect() {
    String ep =
        System.getProperty("cubed.gcs.testEndpoint", System.getenv("CUBED_GCS_TEST_ENDPOINT"));
    Assumptions.assumeTrue(
        ep != null && !ep.isBlank(), "no GCS-compatible test server: set CUBED_GCS_TEST_ENDPOINT");
    // gs:// locations opened by the engine (work directory, Cubed.fromZarr) find it here
    System.setProperty("cubed.gcs.endpoint", ep);
    System.setProperty("cubed.gcs.project", "cubed-test");
    settings = GcsSettings.resolve(URI.create("gs://" + BUCKET));
    try {
      new GcsStore(BUCKET, "", settings).client().create(BucketInfo.of(BUCKET));
    } catch (StorageException e) {
      if (e.getCode() != 409) { // 409: it exists already
        throw e;
      }
    }
    run = "run-" + System.nanoTime() + "/";
  }

  @Override
  protected Store freshStore(String name) {
    return new GcsStore(BUCKET, run + name + "-" + RUN.incrementAndGet(), settings);
  }

  @Override
  protected String uri(String path) {
    return "gs://" + BUCKET + "/" + run + path;
  }
}
