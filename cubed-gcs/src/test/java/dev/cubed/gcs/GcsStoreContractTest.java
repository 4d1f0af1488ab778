package dev.cubed.gcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.google.cloud.storage.BucketInfo;
import com.google.cloud.storage.StorageException;
import dev.cubed.Cubed;
import dev.cubed.Spec;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.Compression;
import dev.cubed.zarr.Store;
import dev.cubed.zarr.StoreContract;
import dev.cubed.zarr.Stores;
import dev.cubed.zarr.ZarrArray;
import java.net.URI;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The Store contract ({@link StoreContract}) and a Zarr round trip through {@code Cubed} against a
 * GCS-compatible server whose endpoint is given in {@code CUBED_GCS_TEST_ENDPOINT} (or the system
 * property {@code cubed.gcs.testEndpoint}), e.g. {@code http://127.0.0.1:4443}. Without one the
 * tests are skipped: no GCS-compatible server could be installed on the build machines yet
 * (docs/gcs.md, Tests). Each store is a fresh prefix of one bucket created here.
 */
@Tag("gcs")
class GcsStoreContractTest extends StoreContract {
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
  protected int writesPerThread() {
    return 10; // each write is an upload to the server
  }

  @Override
  protected void checkPrefixIsNoValue(Store s) {
    assertThat(s.get("a")).isNull(); // a "directory" is no object
    assertThat(freshStore("other").list("")).isEmpty(); // prefixes isolate stores
  }

  @Test
  void listingFollowsPagesAndBatchDeletes() {
    Store s = freshStore("pages");
    for (int i = 0; i < 23; i++) {
      s.put(String.format("d%02d/x", i), new byte[] {(byte) i});
    }
    int before = GcsStore.listPageSize;
    GcsStore.listPageSize = 5;
    try {
      assertThat(s.list("")).hasSize(23).startsWith("d00/x").endsWith("d22/x");
      assertThat(s.listChildren("")).hasSize(23).startsWith("d00").endsWith("d22");
      s.deletePrefix("d1");
      assertThat(s.list("")).hasSize(13).noneMatch(k -> k.startsWith("d1"));
      s.deletePrefix("");
      assertThat(s.list("")).isEmpty();
    } finally {
      GcsStore.listPageSize = before;
    }
  }

  @Test
  void zarrArrayWrittenAndReadBackThroughCubed(@org.junit.jupiter.api.io.TempDir Path tmp) {
    Random r = new Random(1);
    NDArray a = NDArray.zeros(DType.FLOAT64, 30, 20);
    double sum = 0;
    for (int i = 0; i < a.size(); i++) {
      double v = r.nextDouble() * 10 - 5;
      a.setDouble(i, v);
      sum += v;
    }
    String uri = "gs://" + BUCKET + "/" + run + "rt.zarr";
    ZarrArray.create(Stores.open(uri), "")
        .shape(30, 20)
        .chunks(8, 6)
        .dtype(DType.FLOAT64)
        .compression(Compression.zstd(3))
        .build()
        .write(new long[] {0, 0}, a);
    assertThat((double[]) ZarrArray.open(uri).read().data()).containsExactly((double[]) a.data());
    Spec spec =
        Spec.builder()
            .workDir("gs://" + BUCKET + "/" + run + "work")
            .allowedMem("100MB")
            .reservedMem("1MB")
            .build();
    assertThat(Cubed.fromZarr(uri, spec).sum().compute().getDouble(0)).isCloseTo(sum, within(1e-9));
  }
}
