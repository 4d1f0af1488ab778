package dev.cubed.zarr.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.Cubed;
import dev.cubed.Spec;
import dev.cubed.Xp;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Npy;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.ZarrGroup;
import dev.cubed.zarr.ZarrPythonInteropTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The read-only HTTP store ({@link HttpStore}) under the {@link StoreContract} against a real file
 * server on 127.0.0.1 ({@link HttpTestServer}), and reading zarr-python-written arrays through it:
 * consolidated metadata, range requests for shards, retries of 503, errors for 4xx.
 */
@Tag("http")
class HttpStoreTest extends StoreContract {
  @TempDir static Path served;
  static HttpTestServer server;

  @BeforeAll
  static void start() throws IOException {
    server = HttpTestServer.start(served);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Override
  protected Store freshStore(String name) {
    throw new UnsupportedOperationException("read-only");
  }

  @Override
  protected boolean readOnly() {
    return true;
  }

  @Override
  protected Store storeWith(String name, Map<String, byte[]> values) {
    Path dir = served.resolve("contract").resolve(name);
    try {
      Files.createDirectories(dir);
      for (Map.Entry<String, byte[]> e : values.entrySet()) {
        Path p = dir.resolve(e.getKey());
        Files.createDirectories(p.getParent());
        Files.write(p, e.getValue());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Store s = Stores.open(server.url() + "contract/" + name);
    assertThat(s).isInstanceOf(HttpStore.class);
    return s;
  }

  private static Spec spec(Path dir) {
    return Spec.builder()
        .workDir(dir.resolve("work"))
        .allowedMem(50_000_000)
        .reservedMem(1_000_000)
        .build();
  }

  /** Runs zarr-python: a v2 array with consolidated metadata, a group, one without. */
  private static String writeWithZarrPython(Path dir) throws Exception {
    String py = ZarrPythonInteropTest.pythonWithZarr();
    Assumptions.assumeTrue(py != null, "no python3 with zarr installed");
    String script =
        String.join(
            "\n",
            "import sys, numpy as np, zarr",
            "d = sys.argv[1]",
            "x = (np.arange(20 * 30, dtype='f8').reshape(20, 30) * 0.5) ** 1.5",
            "a = zarr.open(d + '/a.zarr', mode='w', shape=x.shape, chunks=(7, 8), dtype='f8',",
            "              compressor=zarr.Blosc(cname='lz4', shuffle=1))",
            "a[:] = x",
            "a.attrs['units'] = 'K'",
            "zarr.consolidate_metadata(d + '/a.zarr')",
            "np.save(d + '/a.npy', x)",
            "g = zarr.open_group(d + '/g.zarr', mode='w')",
            "y = g.create_dataset('sub/y', shape=(10, 9), chunks=(4, 4), dtype='i4', fill_value=-1)",
            "y[:5, :] = np.arange(45, dtype='i4').reshape(5, 9)",
            "g.create_dataset('x', data=x[:3], chunks=(2, 30))",
            "zarr.consolidate_metadata(d + '/g.zarr')",
            "np.save(d + '/y.npy', y[:])",
            "b = zarr.open(d + '/b.zarr', mode='w', shape=(10, 9), chunks=(4, 4), dtype='i4',",
            "              fill_value=-1)",
            "b[:5, :] = np.arange(45, dtype='i4').reshape(5, 9)",
            "");
    Path f = dir.resolve("write.py");
    Files.writeString(f, script);
    Process p =
        new ProcessBuilder(py, f.toString(), dir.toString()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    return py;
  }

  @Test
  void readsZarrPythonArraysWithConsolidatedMetadata(@TempDir Path tmp) throws Exception {
    Path data = served.resolve("py");
    Files.createDirectories(data);
    writeWithZarrPython(data);
    NDArray x = Npy.read(data.resolve("a.npy"));
    NDArray y = Npy.read(data.resolve("y.npy"));
    int before = server.log().size();
    String url = server.url() + "py/a.zarr";
    NDArray got = Cubed.fromZarr(url, spec(tmp)).compute();
    assertThat(got.equals(x)).isTrue();
    assertThat(ZarrArray.open(url).attributes()).containsEntry("units", "K");
    var requests = server.log().subList(before, server.log().size());
    assertThat(requests)
        .contains("GET /py/a.zarr/.zmetadata", "GET /py/a.zarr/0.0")
        .noneMatch(
            r ->
                r.contains(".zarray")
                    || r.contains(".zattrs")
                    || r.contains("zarr.json")); // every document came from .zmetadata
    // a sum, chunk by chunk, planned and run by the engine on the HTTP input
    NDArray sum = Cubed.compute(Xp.sum(Cubed.fromZarr(url, spec(tmp)), 0)).get(0);
    assertThat(sum.getDouble(29)).isCloseTo(sumColumn(x, 29), Offset.offset(1e-9));

    ZarrGroup g = ZarrGroup.open(server.url() + "py/g.zarr");
    assertThat(g.members()).containsOnlyKeys("sub", "x"); // from the directory listing
    NDArray gy = ZarrArray.open(server.url() + "py/g.zarr/sub/y").read();
    assertThat(gy.equals(y)).isTrue();
    // without consolidated metadata: .zarray read; chunks never written read as the fill value
    NDArray b = Cubed.fromZarr(server.url() + "py/b.zarr", spec(tmp)).compute();
    assertThat(b.equals(y)).isTrue();
  }

  private static double sumColumn(NDArray x, int col) {
    double s = 0;
    for (int i = 0; i < 20; i++) {
      s += x.getDouble(i * 30 + col);
    }
    return s;
  }

  @Test
  void shardsAreReadWithRangeRequests(@TempDir Path tmp) {
    Store fs = new FileSystemStore(served.resolve("sharded.zarr"));
    ZarrArray w =
        ZarrArray.create(fs, "")
            .shape(16, 16)
            .chunks(8, 8)
            .innerChunks(4, 4)
            .dtype(DType.INT32)
            .build();
    NDArray data = NDArray.zeros(DType.INT32, 16, 16);
    for (int i = 0; i < 256; i++) {
      data.setDouble(i, i * 7 - 100);
    }
    w.write(new long[2], data);
    int before = server.log().size();
    ZarrArray r = ZarrArray.open(server.url() + "sharded.zarr");
    assertThat(r.read(new long[] {4, 4}, new long[] {4, 4}).getDouble(0))
        .isEqualTo(data.getDouble(4 * 16 + 4));
    assertThat(Cubed.fromZarr(r, spec(tmp)).compute().equals(data)).isTrue();
    assertThat(server.log().subList(before, server.log().size()))
        .anyMatch(q -> q.startsWith("GET /sharded.zarr/c/0/0 bytes=-")) // the shard index
        .anyMatch(q -> q.matches("GET /sharded.zarr/c/0/0 bytes=\\d+-\\d+")); // an inner chunk
  }

  @Test
  void v3ConsolidatedMetadataAnswersMetadataKeys() throws Exception {
    Store fs = new FileSystemStore(served.resolve("v3.zarr"));
    ZarrGroup g = ZarrGroup.create(fs, "", 3, Map.of("title", "t"));
    g.createArray("z").shape(4).chunks(2).dtype(DType.FLOAT32).build();
    byte[] arrayDoc = fs.get("z/zarr.json");
    String root = new String(fs.get("zarr.json"), StandardCharsets.UTF_8);
    String consolidated =
        root.substring(0, root.lastIndexOf('}'))
            + ",\"consolidated_metadata\":{\"kind\":\"inline\",\"must_understand\":false,"
            + "\"metadata\":{\"z\":"
            + new String(arrayDoc, StandardCharsets.UTF_8)
            + "}}}";
    fs.put("zarr.json", consolidated.getBytes(StandardCharsets.UTF_8));
    fs.delete("z/zarr.json"); // only the consolidated copy remains
    Store http = Stores.open(server.url() + "v3.zarr");
    assertThat(Json.parseObject(http.get("z/zarr.json"), "z"))
        .isEqualTo(Json.parseObject(arrayDoc, "z"));
    assertThat(http.exists("z/zarr.json")).isTrue();
    assertThat(http.get("q/zarr.json")).isNull(); // not in it: absent
    assertThat(ZarrArray.open(http, "z").shape()).containsExactly(4);
  }

  @Test
  void serverErrorsAreRetriedAndClientErrorsReported() throws IOException {
    Path d = served.resolve("retry");
    Files.createDirectories(d);
    Files.write(d.resolve("k"), new byte[] {1, 2, 3});
    Store s = Stores.open(server.url() + "retry");
    int before = server.injected();
    server.failNext(2, 503, p -> p.equals("/retry/k"));
    assertThat(s.get("k")).containsExactly(1, 2, 3); // 503, 503, then 200
    assertThat(server.injected() - before).isEqualTo(2);
    server.failNext(2, 429, p -> p.equals("/retry/k"));
    assertThat(s.getRange("k", 1, 1)).containsExactly(2);
    server.failNext(100, 500, p -> p.equals("/retry/k"));
    try {
      assertThatThrownBy(() -> s.get("k"))
          .isInstanceOf(ZarrStoreException.class)
          .hasMessageContaining("key 'k'")
          .hasMessageContaining(server.url() + "retry/k")
          .hasMessageContaining("failed after 5 attempts: HTTP 500");
      server.failNext(1, 403, p -> p.equals("/retry/k"));
      assertThatThrownBy(() -> s.get("k"))
          .isInstanceOf(ZarrStoreException.class)
          .hasMessageContaining("HTTP 403 (access denied");
    } finally {
      server.failNext(0, 503, p -> false);
    }
    assertThat(server.injected() - before).isEqualTo(2 + 2 + 5 + 1);
  }

  @Test
  void credentialsAreSentButNeverShown() {
    String url = server.url().replace("http://", "http://reader:s3cret@") + "retry";
    Store s = Stores.open(url);
    assertThat(s.describe()).doesNotContain("s3cret").contains("***@127.0.0.1");
    assertThatThrownBy(() -> s.put("k", new byte[1]))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessage(
            Stores.redact(url)
                + "/ is a read-only HTTP store: cannot put key 'k';"
                + " write to a file://, s3:// or az:// location instead");
    assertThatThrownBy(() -> new HttpStore(URI.create("ftp://h/x"), 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("http(s)://");
    assertThatThrownBy(() -> Stores.open("https://h/x?token=1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("without query");
  }
}
