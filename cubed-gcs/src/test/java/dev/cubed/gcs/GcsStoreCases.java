package dev.cubed.gcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cubed.ComputeOptions;
import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.Xp;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
import dev.cubed.runtime.ThreadsExecutor;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.StoreContract;
import dev.cubed.zarr.store.Stores;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Store contract ({@link StoreContract}) and what is particular to GCS, for one GCS-compatible
 * backend given by the subclass: listings that follow pages, prefix deletes in batches, a Zarr
 * array written and read back through {@code Cubed}, and a rechunk and a compute with the work
 * directory on {@code gs://} (equal to the local result, the intermediates gone afterwards). A case
 * the backend cannot serve aborts with the reason ({@link #unsupported}).
 */
abstract class GcsStoreCases extends StoreContract {
  @TempDir Path tmp;

  /** {@code gs://bucket/<path>} on this backend, for {@link Stores#open} and the engine. */
  protected abstract String uri(String path);

  /** Why the backend cannot run a case ({@code "pages"}, {@code "batches"}), or null if it can. */
  protected String unsupported(String feature) {
    return null;
  }

  private void assumeSupported(String feature) {
    String why = unsupported(feature);
    if (why != null) {
      Assumptions.abort(why);
    }
  }

  @Override
  protected int writesPerThread() {
    return 10; // each write is an upload
  }

  @Override
  protected void checkPrefixIsNoValue(Store s) {
    assertThat(s.get("a")).isNull(); // a "directory" is no object
    assertThat(freshStore("other").list("")).isEmpty(); // prefixes isolate stores
  }

  @Test
  void listingFollowsPagesAndBatchDeletes() {
    assumeSupported("pages");
    assumeSupported("batches");
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
  void prefixDeletesOfMoreThanOneBatch() {
    Store s = freshStore("many");
    for (int i = 0; i < 2 * GcsStore.DELETE_BATCH + 30; i++) {
      s.put("c/" + i, new byte[] {(byte) i});
    }
    s.put("keep", new byte[] {1});
    s.deletePrefix("c/");
    assertThat(s.list("")).containsExactly("keep");
  }

  static NDArray random(long seed, long... shape) {
    Random r = new Random(seed);
    NDArray a = NDArray.zeros(DType.FLOAT64, shape);
    for (int i = 0; i < a.size(); i++) {
      a.setDouble(i, r.nextDouble() * 10 - 5);
    }
    return a;
  }

  private Spec spec(String workDir) {
    return Spec.builder().workDir(workDir).allowedMem("100MB").reservedMem("1MB").build();
  }

  @Test
  void zarrArrayWrittenAndReadBackThroughCubed() {
    NDArray a = random(1, 30, 20);
    double sum = 0;
    for (int i = 0; i < a.size(); i++) {
      sum += a.getDouble(i);
    }
    String uri = uri("rt.zarr");
    ZarrArray.create(Stores.open(uri), "")
        .shape(30, 20)
        .chunks(8, 6)
        .dtype(DType.FLOAT64)
        .compression(Compression.zstd(3))
        .build()
        .write(new long[] {0, 0}, a);
    assertThat((double[]) ZarrArray.open(uri).read().data()).containsExactly((double[]) a.data());
    assertThat(Cubed.fromZarr(uri, spec(uri("rt-work"))).sum().compute().getDouble(0))
        .isCloseTo(sum, within(1e-9));
  }

  @Test
  void rechunkWithTheWorkDirectoryOnGcs() {
    NDArray a = random(2, 60, 40);
    ZarrArray.create(Stores.open(uri("rc-in.zarr")), "")
        .shape(60, 40)
        .chunks(60, 1)
        .dtype(DType.FLOAT64)
        .build()
        .write(new long[] {0, 0}, a);
    Spec spec =
        Spec.builder().workDir(uri("rc-work")).allowedMem("40kB").reservedMem("1kB").build();
    CubedArray x = Cubed.fromZarr(uri("rc-in.zarr"), spec);
    Store work = Stores.open(uri("rc-work"));
    List<String> seen = new CopyOnWriteArrayList<>();
    Callback watch =
        new Callback() {
          @Override
          public void onTaskEnd(Events.TaskEnd e) {
            seen.addAll(work.list(""));
          }
        };
    // 60x1 -> 4x40 chunks in 40 kB: more than one stage, so an intermediate array on gs://
    Cubed.toZarr(
        Xp.rechunk(x, 4, 40),
        Stores.open(uri("rc-out.zarr")),
        "",
        ComputeOptions.executor(new ThreadsExecutor(2, 1)).withCallback(watch));
    assertThat(seen).anyMatch(k -> k.matches("compute-[0-9a-f]{16}/.+/zarr.json"));
    ZarrArray out = ZarrArray.open(uri("rc-out.zarr"));
    assertThat(out.chunks()).containsExactly(4, 40);
    assertThat((double[]) out.read().data()).containsExactly((double[]) a.data());
    assertThat(Stores.open(uri("rc-work")).list("")).isEmpty(); // intermediates removed
  }

  @Test
  void computeWithIntermediatesOnGcsEqualsLocal() {
    NDArray expected = program(spec(tmp.resolve("local").toString())).compute();
    Store work = Stores.open(uri("full-work"));
    AtomicReference<List<String>> seen = new AtomicReference<>(List.of());
    Callback watch =
        new Callback() {
          @Override
          public void onTaskEnd(Events.TaskEnd e) {
            List<String> keys = work.list("");
            if (keys.size() > seen.get().size()) {
              seen.set(keys);
            }
          }
        };
    NDArray got =
        Cubed.compute(
                ComputeOptions.executor(new ThreadsExecutor(2, 1)).withCallback(watch),
                program(spec(uri("full-work"))))
            .get(0);
    assertThat((double[]) got.data()).containsExactly((double[]) expected.data(), within(1e-9));
    // intermediates, completion marks and the fingerprint were objects under the work prefix
    assertThat(seen.get())
        .anyMatch(k -> k.matches("compute-[0-9a-f]{16}/fingerprint.txt"))
        .anyMatch(k -> k.matches("compute-[0-9a-f]{16}/.+/zarr.json"));
    assertThat(work.list("")).isEmpty(); // and deleted after success
  }

  private static CubedArray program(Spec spec) {
    CubedArray x = Cubed.fromArray(random(5, 40, 40), new long[] {10, 10}, spec);
    CubedArray y = Xp.add(Xp.multiply(x, 2.0), 1.0);
    return Xp.sum(Xp.rechunk(y, 40, 5), 0);
  }
}
