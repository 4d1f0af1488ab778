package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.Index;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.ZarrFormatException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A unit-step slice of a stored array that covers at most half of the stored blocks it touches
 * (e.g. the first row {@code B[0, :]}) is a window of the array: its tasks read their blocks' boxes
 * straight from the chunk files, decoding each chunk only up to the box's last byte, where the
 * codec allows it (a local {@code bytes} + zstd array, zarr-python 3's default). Larger slices, and
 * arrays whose chunks are read whole (Blosc, other stores), keep reading whole blocks.
 */
class StoredWindowTest {
  @TempDir Path dir;

  private static final int N = 600;
  private static final int C = 200;

  private ZarrArray stored(String name, Compression c, NDArray a) {
    ZarrArray z =
        ZarrArray.create(new FileSystemStore(dir.resolve("in")), name)
            .shape(a.shape())
            .chunks(C, C)
            .dtype(DType.FLOAT64)
            .compression(c)
            .build();
    z.write(new long[2], a);
    return z;
  }

  private Spec spec() {
    return EngineTestSupport.tinySpec(dir.resolve("work"), 200_000_000);
  }

  private static boolean isWindow(CubedArray y) {
    ArrayNode n = y.node();
    while (!(n instanceof ArrayNode.Virtual) && n.inputs().size() == 1) {
      n = n.inputs().get(0); // the squeeze of Index.at
    }
    return n instanceof ArrayNode.Virtual && n.name().startsWith("zarr-window");
  }

  private static boolean isStrided(CubedArray y) {
    return y.node() instanceof ArrayNode.Virtual && y.node().name().startsWith("zarr-strided");
  }

  /** Overwrites the last 64 bytes of every chunk file of {@code name} with garbage. */
  private void corruptTails(String name) throws IOException {
    List<Path> files;
    try (Stream<Path> s = Files.walk(dir.resolve("in").resolve(name).resolve("c"))) {
      files = s.filter(Files::isRegularFile).toList();
    }
    assertThat(files).hasSize((N / C) * (N / C));
    for (Path f : files) {
      try (RandomAccessFile r = new RandomAccessFile(f.toFile(), "rw")) {
        r.seek(r.length() - 64);
        r.write(new byte[64]);
      }
    }
  }

  @Test
  void theFirstRowIsReadWithoutDecodingTheRestOfEachChunk() throws IOException {
    NDArray a = EngineTestSupport.randomDoubles(7, N, N);
    CubedArray x = Cubed.fromZarr(stored("a", Compression.zstd(1), a), spec());
    CubedArray row = Xp.getItem(x, Index.at(0), Index.all());
    assertThat(isWindow(row)).isTrue();
    PlanSummary s = Xp.sum(row).plan();
    assertThat(s.ops().get(0).bytesRead()).as("the row's bytes, not its chunks'").isEqualTo(8L * N);

    corruptTails("a");
    // the row's boxes end in the first 256 KiB of each chunk's stream: the tails are not decoded
    NDArray r = row.compute();
    for (int j = 0; j < N; j++) {
      assertThat(r.getDouble(j)).isEqualTo(a.getDouble(j));
    }
    // a whole read decodes the tails, and says the chunks are corrupt
    assertThatThrownBy(() -> Xp.sum(x).compute())
        .satisfies(
            e -> {
              Throwable c = e;
              while (c != null && !(c instanceof ZarrFormatException)) {
                c = c.getCause();
              }
              assertThat(c).as("a ZarrFormatException in the causes of " + e).isNotNull();
            });
  }

  @Test
  void aBoxInsideChunksIsReadStraightIntoItsBlocks() {
    NDArray a = EngineTestSupport.randomDoubles(8, N, N);
    CubedArray x = Cubed.fromZarr(stored("a", Compression.zstd(1), a), spec());
    // rows 150..249 and columns 390..409: blocks of every size around the chunk boundaries
    CubedArray box = Xp.getItem(x, Index.slice(150L, 250L, 1), Index.slice(390L, 410L, 1));
    assertThat(isWindow(box)).isTrue();
    CubedArray y = Xp.multiply(box, 2.0);
    NDArray r = y.compute();
    assertThat(r.shape()).containsExactly(100, 20);
    for (int i = 0; i < 100; i++) {
      for (int j = 0; j < 20; j++) {
        assertThat(r.getDouble(i * 20 + j)).isEqualTo(2.0 * a.getDouble((150 + i) * N + 390 + j));
      }
    }
    assertThat(y.node().chunkGrid().sizes(0)).containsExactly(50, 50);
    assertThat(y.node().chunkGrid().sizes(1)).containsExactly(10, 10);
  }

  @Test
  void largerSlicesAndChunksReadWholeKeepReadingWholeBlocks() {
    NDArray a = EngineTestSupport.randomDoubles(9, N, N);
    CubedArray z = Cubed.fromZarr(stored("a", Compression.zstd(1), a), spec());
    // x[1:] covers almost all of the blocks it touches: whole blocks are read (and shared with
    // other uses of x in the same task)
    CubedArray tail = Xp.getItem(z, Index.slice(1L, null, 1), Index.all());
    assertThat(isWindow(tail)).isFalse();
    CubedArray b =
        Cubed.fromZarr(
            stored(
                "b", Compression.blosc(Compression.BloscCodec.LZ4, 5, Compression.Shuffle.NONE), a),
            spec());
    CubedArray bRow = Xp.getItem(b, Index.at(0), Index.all());
    assertThat(isWindow(bRow)).as("Blosc chunks are decoded whole").isFalse();
    NDArray r = bRow.compute();
    for (int j = 0; j < N; j++) {
      assertThat(r.getDouble(j)).isEqualTo(a.getDouble(j));
    }
    NDArray t = Xp.sum(tail).compute();
    double want = 0;
    for (int i = N; i < N * N; i++) {
      want += a.getDouble(i);
    }
    assertThat(t.getDouble(0)).isCloseTo(want, org.assertj.core.data.Offset.offset(1e-6));
  }

  @Test
  void windowsAreNamedByTheArrayAndTheBox() {
    NDArray a = EngineTestSupport.randomDoubles(10, N, N);
    ZarrArray s = stored("a", Compression.zstd(1), a);
    CubedArray x = Cubed.fromZarr(s, spec());
    CubedArray r0 = Xp.getItem(x, Index.at(0), Index.all());
    CubedArray r0again = Xp.getItem(Cubed.fromZarr(s, spec()), Index.at(0), Index.all());
    CubedArray r1 = Xp.getItem(x, Index.at(1), Index.all());
    assertThat(r0.node().digest()).isEqualTo(r0again.node().digest());
    assertThat(r0.node().digest()).isNotEqualTo(r1.node().digest());
    NDArray v1 = r1.compute();
    for (int j = 0; j < N; j++) {
      assertThat(v1.getDouble(j)).isEqualTo(a.getDouble(N + j));
    }
  }

  @Test
  void aBoxThatIsOneStoredChunkIsThatChunk() {
    NDArray a = EngineTestSupport.randomDoubles(11, 500, 500);
    ZarrArray z =
        ZarrArray.create(new FileSystemStore(dir.resolve("in")), "e")
            .shape(500, 500)
            .chunks(C, C)
            .dtype(DType.FLOAT64)
            .compression(Compression.zstd(1))
            .build();
    z.write(new long[2], a);
    // an inner chunk, an edge chunk (clipped to 100 x 100) and an empty box
    for (long[][] box :
        new long[][][] {
          {{200, 200}, {200, 200}}, {{400, 400}, {100, 100}}, {{400, 0}, {100, 200}}
        }) {
      NDArray r = z.read(box[0], box[1]);
      assertThat(r.shape()).containsExactly(box[1]);
      NDArray c = z.readChunk(box[0][0] / C, box[0][1] / C);
      assertThat((double[]) r.data()).containsExactly((double[]) c.data());
    }
    assertThat(z.read(new long[] {500, 0}, new long[] {0, 10}).size()).isZero();
  }

  @Test
  void smallStepSlicesDecodeOnlyTheirElements() throws IOException {
    NDArray a = EngineTestSupport.randomDoubles(12, N, N);
    CubedArray x = Cubed.fromZarr(stored("a", Compression.zstd(1), a), spec());
    // every other row from 1 and every third column from 2, and the first rows of each chunk
    CubedArray s = Xp.getItem(x, Index.slice(1L, null, 2), Index.slice(2L, null, 3));
    CubedArray head = Xp.getItem(x, Index.slice(0L, 9L, 2), Index.slice(0L, null, 2));
    assertThat(isStrided(s)).isTrue();
    assertThat(isStrided(head)).isTrue();
    NDArray r = Xp.multiply(s, 1.0).compute();
    assertThat(r.shape()).containsExactly(N / 2, (N - 2 + 2) / 3);
    for (int i = 0; i < N / 2; i++) {
      for (int j = 0; j < (N - 2 + 2) / 3; j++) {
        assertThat(r.getDouble(i * ((N - 2 + 2) / 3) + j))
            .isEqualTo(a.getDouble((1 + 2 * i) * N + 2 + 3 * j));
      }
    }
    corruptTails("a");
    // rows 0..8 of the chunks of the first chunk row end in the first slice of their streams
    NDArray h = head.compute();
    for (int i = 0; i < 5; i++) {
      for (int j = 0; j < N / 2; j++) {
        assertThat(h.getDouble(i * (N / 2) + j)).isEqualTo(a.getDouble(2 * i * N + 2 * j));
      }
    }
    // negative steps keep reading whole blocks
    assertThat(isStrided(Xp.getItem(x, Index.slice(null, null, -2L), Index.all()))).isFalse();
  }
}
