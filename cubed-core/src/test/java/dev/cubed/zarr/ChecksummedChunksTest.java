package dev.cubed.zarr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.codec.ChecksumMismatchException;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.MemoryStore;
import dev.cubed.zarr.store.Store;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The default codec followed by crc32c (what intermediates use, issue 24) keeps the streamed paths
 * of the default codec (one output buffer per write, chunks decoded from the file a block at a
 * time, runs read through {@link ChunkReader}), stores exactly Blosc's bytes then their CRC-32C
 * (little endian, the Zarr v3 codec), and every read path reports a changed byte as a checksum
 * mismatch naming the chunk, never as a wrong value or a bare Blosc error.
 */
class ChecksummedChunksTest {
  @TempDir Path dir;

  private static final long[] SHAPE = {300, 70};
  private static final long[] CHUNKS = {128, 64}; // edge chunks on both axes

  private ZarrArray make(Store store, Compression c) {
    return ZarrArray.create(store, "a")
        .shape(SHAPE)
        .chunks(CHUNKS)
        .dtype(DType.FLOAT64)
        .compression(c)
        .crc32c()
        .build();
  }

  /** Smooth values (LZ4 streams) in the first columns, random bits (raw streams) in the rest. */
  private static NDArray data() {
    NDArray a = NDArray.zeros(DType.FLOAT64, SHAPE);
    Random r = new Random(7);
    double[] d = (double[]) a.data();
    for (int i = 0; i < d.length; i++) {
      d[i] = i % 70 < 40 ? Math.floor(i / 70.0) * 0.5 : Double.longBitsToDouble(r.nextLong() >>> 2);
    }
    return a;
  }

  @Test
  void theDefaultCodecWithCrc32cStillStreams() {
    ZarrArray z = make(new FileSystemStore(dir.resolve("s.zarr")), Compression.projectDefault());
    assertThat(z.streamsWrites()).isTrue();
    assertThat(z.readsRegions()).isTrue();
    assertThat(z.readCopies()).isZero();
    assertThat(z.writeCopies()).isEqualTo(1);
    ZarrArray m = make(new MemoryStore(), Compression.projectDefault());
    assertThat(m.readCopies()).isEqualTo(1);
    assertThat(m.writeCopies()).isEqualTo(1);
  }

  @Test
  void storedBytesAreBloscThenItsCrc32cAndRoundTrip() throws Exception {
    for (Compression c :
        new Compression[] {
          Compression.projectDefault(),
          Compression.blosc(Compression.BloscCodec.LZ4, 0, Compression.Shuffle.NONE)
        }) {
      Path root = dir.resolve("r" + c.hashCode() + ".zarr");
      ZarrArray z = make(new FileSystemStore(root), c);
      NDArray data = data();
      z.write(new long[2], data);
      assertThat(z.read().equals(data)).as(c.toString()).isTrue();
      byte[] stored = Files.readAllBytes(root.resolve("a/c/0/0"));
      int n = stored.length - 4;
      CRC32C crc = new CRC32C();
      crc.update(stored, 0, n);
      assertThat(ByteBuffer.wrap(stored).order(ByteOrder.LITTLE_ENDIAN).getInt(n))
          .isEqualTo((int) crc.getValue());
      byte[] blosc = Arrays.copyOf(stored, n);
      assertThat(ByteBuffer.wrap(blosc).order(ByteOrder.LITTLE_ENDIAN).getInt(12))
          .as("blosc's own size field: the frame without the checksum")
          .isEqualTo(n);
      // the whole-chunk path of a store without files decodes the same value
      MemoryStore ms = new MemoryStore();
      ms.put("zarr.json", Files.readAllBytes(root.resolve("a/zarr.json")));
      ms.put("c/0/0", stored);
      assertThat(ZarrArray.open(ms, "").readChunk(0, 0).equals(z.readChunk(0, 0))).isTrue();
      try (ChunkReader r = z.chunkReader(new long[] {0, 0}, 2)) {
        double[] run = new double[64];
        r.read(64 * 5, 64, run, 0);
        assertThat(run)
            .containsExactly(
                Arrays.copyOfRange(
                    (double[]) data.getRegion(new long[] {5, 0}, new long[] {1, 64}).data(),
                    0,
                    64));
      }
    }
  }

  @Test
  void aChangedByteIsAChecksumMismatchOnEveryReadPath() throws Exception {
    Path root = dir.resolve("f.zarr");
    ZarrArray z = make(new FileSystemStore(root), Compression.projectDefault());
    z.write(new long[2], data());
    Path chunk = root.resolve("a/c/1/1"); // an edge chunk
    byte[] good = Files.readAllBytes(chunk);
    assertThat(z.readsRegions()).isTrue();
    int[] positions = {
      0,
      2,
      5,
      13,
      17,
      40,
      good.length / 3,
      good.length / 2,
      good.length - 9,
      good.length - 5,
      good.length - 4,
      good.length - 1
    };
    for (int at : positions) {
      byte[] bad = good.clone();
      bad[at] ^= 0x10;
      Files.write(chunk, bad);
      String key = "chunk 'a/c/1/1' in " + z.store().describe();
      assertThatThrownBy(() -> z.readChunk(1, 1))
          .as("file read, byte " + at)
          .isInstanceOf(ChecksumMismatchException.class)
          .hasMessageContaining(key)
          .hasMessageContaining("crc32c checksum mismatch")
          .hasMessageEndingWith("(corrupt chunk)");
      assertThatThrownBy(() -> z.chunkReader(new long[] {1, 1}, 2))
          .as("reader, byte " + at)
          .isInstanceOf(ChecksumMismatchException.class)
          .hasMessageContaining(key);
      MemoryStore ms = new MemoryStore();
      ms.put("zarr.json", Files.readAllBytes(root.resolve("a/zarr.json")));
      ms.put("c/1/1", bad);
      assertThatThrownBy(() -> ZarrArray.open(ms, "").readChunk(1, 1))
          .as("memory, byte " + at)
          .isInstanceOf(ChecksumMismatchException.class)
          .hasMessageContaining("chunk 'c/1/1'");
    }
    Files.write(chunk, good);
    assertThat(
            z.readChunk(1, 1).equals(data().getRegion(new long[] {128, 64}, new long[] {128, 6})))
        .isTrue();
  }

  @Test
  void incompressibleChunksKeepRoomForTheChecksum() {
    ZarrArray z =
        ZarrArray.create(new FileSystemStore(dir.resolve("i.zarr")), "a")
            .shape(33, 17)
            .chunks(16, 16)
            .dtype(DType.UINT8)
            .crc32c()
            .build();
    assertThat(z.streamsWrites()).as("written by the streamed encoder").isTrue();
    byte[] b = new byte[33 * 17];
    new Random(3).nextBytes(b);
    NDArray data = new NDArray(DType.UINT8, new long[] {33, 17}, b);
    z.write(new long[2], data);
    assertThat(z.read().equals(data)).isTrue();
  }
}
