package dev.cubed.zarr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.codec.ChunkCodec;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.MemoryStore;
import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.Stores;
import dev.cubed.zarr.store.ValueTooLargeException;
import java.io.RandomAccessFile;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stored value far larger than its key may hold (a 1.5 GB file for a 1 MB chunk, a 3 GB {@code
 * .zarray}) is refused in one line naming the key and both sizes, before it is read: the files are
 * sparse ({@link RandomAccessFile#setLength}), so the test costs no disk, and the read is checked
 * to allocate almost nothing (this thread's allocated bytes), where reading the file whole would
 * allocate 1.5 GB.
 */
class ChunkBoundsTest {
  private static final long HUGE = 1536L << 20; // 1.5 GiB
  private static final long CHUNK = 1L << 20; // 1 MiB of float64
  private static final long ALLOWED_ALLOCATION = 16L << 20;

  @TempDir Path dir;

  private static long allocated() {
    return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
        .getCurrentThreadAllocatedBytes();
  }

  /** Runs {@code read}, which must be refused, and checks it allocated almost nothing. */
  private static ValueTooLargeException refusedCheaply(Supplier<Object> read) {
    long before = allocated();
    long t0 = System.nanoTime();
    Throwable[] thrown = new Throwable[1];
    try {
      read.get();
    } catch (Throwable t) {
      thrown[0] = t;
    }
    long used = allocated() - before;
    assertThat(thrown[0]).isInstanceOf(ValueTooLargeException.class);
    assertThat(used).as("bytes allocated by the refused read").isLessThan(ALLOWED_ALLOCATION);
    assertThat(System.nanoTime() - t0).as("nanoseconds").isLessThan(5_000_000_000L);
    return (ValueTooLargeException) thrown[0];
  }

  private static void grow(Path file, long size) throws Exception {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.setLength(size);
    }
  }

  private ZarrArray array(String name, int format, Compression c) {
    FileSystemStore store = new FileSystemStore(dir);
    ZarrArray z =
        ZarrArray.create(store, name)
            .shape(4 * CHUNK / 8)
            .chunks(CHUNK / 8)
            .dtype(DType.FLOAT64)
            .zarrFormat(format)
            .compression(c)
            .build();
    double[] v = new double[(int) (CHUNK / 8)];
    for (int i = 0; i < v.length; i++) {
      v[i] = i;
    }
    z.writeChunk(new long[] {0}, NDArray.of(v, v.length));
    z.writeChunk(new long[] {1}, NDArray.of(v, v.length));
    return z;
  }

  private static void assertNamesKeyAndSizes(ValueTooLargeException e, String key, long bound) {
    assertThat(e.getMessage())
        .doesNotContain("\n")
        .contains("'" + key + "'")
        .contains(Long.toString(HUGE))
        .contains(Long.toString(bound))
        .contains("refused before reading it");
    assertThat(e.size()).isEqualTo(HUGE);
    assertThat(e.limit()).isEqualTo(bound);
  }

  @Test
  void anUncompressedChunkFileFarLargerThanTheChunkIsRefusedBeforeItIsRead() throws Exception {
    ZarrArray z = array("raw", 2, Compression.none());
    assertThat(z.maxStoredChunkBytes()).isEqualTo(CHUNK + ChunkCodec.STORED_SLACK);
    assertThat(((double[]) z.readChunk(1).data())[7]).isEqualTo(7.0); // the control
    grow(dir.resolve("raw/1"), HUGE);
    ValueTooLargeException e = refusedCheaply(() -> z.readChunk(1));
    assertNamesKeyAndSizes(e, "raw/1", z.maxStoredChunkBytes());
    assertThat(e.getMessage()).contains("float64 chunk of shape (131072,)");
    // reopened by path, as `cubed info`/`rechunk` do
    ZarrArray again = ZarrArray.open(dir.resolve("raw").toString());
    refusedCheaply(() -> again.readChunk(1));
  }

  @Test
  void everyCodecPathRefusesAHugeFile() throws Exception {
    for (Compression c :
        new Compression[] {
          Compression.zstd(3), Compression.gzip(5), Compression.projectDefault(), Compression.lz4()
        }) {
      int format = c.equals(Compression.lz4()) ? 2 : 3;
      String name = "c" + Math.abs(c.hashCode());
      ZarrArray z = array(name, format, c);
      long bound = z.maxStoredChunkBytes();
      assertThat(bound).as(c.toString()).isBetween(CHUNK, CHUNK + (CHUNK >> 4) + (128 << 10));
      String key = z.chunkKey(0);
      grow(dir.resolve(key), HUGE);
      ValueTooLargeException e = refusedCheaply(() -> z.readChunk(0));
      assertNamesKeyAndSizes(e, key, bound);
      if (z.readsRegions()) { // the block reader of the default codec
        refusedCheaply(() -> z.chunkReader(new long[] {0}, 2));
      }
      assertThat(((double[]) z.readChunk(1).data())[5]).as(c.toString()).isEqualTo(5.0);
    }
  }

  @Test
  void aHugeMetadataDocumentIsRefusedBeforeItIsRead() throws Exception {
    array("meta", 2, Compression.none());
    grow(dir.resolve("meta/.zarray"), 3L << 30);
    ValueTooLargeException e =
        refusedCheaply(() -> ZarrArray.open(new FileSystemStore(dir), "meta"));
    assertThat(e.getMessage())
        .contains("metadata document 'meta/.zarray'")
        .contains(Long.toString(3L << 30))
        .contains(Long.toString(Stores.DEFAULT_MAX_METADATA_BYTES))
        .contains("CUBED_STORE_MAX_METADATA_BYTES");
  }

  @Test
  void aShardIndexDeclaringAHugeInnerChunkIsRefusedBeforeItIsRead() {
    MemoryStore store = new MemoryStore();
    ZarrArray z =
        ZarrArray.create(store, "s")
            .shape(64)
            .chunks(64)
            .innerChunks(16)
            .dtype(DType.FLOAT64)
            .compression(Compression.none())
            .build();
    double[] v = new double[64];
    java.util.Arrays.fill(v, 2.5);
    z.writeChunk(new long[] {0}, NDArray.of(v, 64));
    String key = z.chunkKey(0);
    byte[] shard = store.get(key);
    // the index at the end: (offset, nbytes) of 4 inner chunks; entry 1 now declares 1.5 GiB
    java.nio.ByteBuffer.wrap(shard)
        .order(java.nio.ByteOrder.LITTLE_ENDIAN)
        .putLong(shard.length - 64 + 16 + 8, HUGE);
    store.put(key, shard);
    ValueTooLargeException whole = refusedCheaply(() -> z.readChunk(0));
    assertThat(whole.getMessage()).contains("shard index entry 1").contains(Long.toString(HUGE));
    assertThatThrownBy(() -> z.read(new long[] {16}, new long[] {16}))
        .isInstanceOf(ValueTooLargeException.class)
        .hasMessageContaining("shard index entry 1");
  }

  /** A store overriding only what it must, so {@link Store#get(String, long)} is the default. */
  private record Plain(MemoryStore m) implements Store {
    @Override
    public byte[] get(String key) {
      return m.get(key);
    }

    @Override
    public byte[] getRange(String key, long offset, int length) {
      return m.getRange(key, offset, length);
    }

    @Override
    public void put(String key, byte[] value) {
      m.put(key, value);
    }

    @Override
    public void delete(String key) {
      m.delete(key);
    }

    @Override
    public boolean exists(String key) {
      return m.exists(key);
    }

    @Override
    public java.util.List<String> list(String prefix) {
      return m.list(prefix);
    }
  }

  @Test
  void aBoundedReadOfEachStoreRefusesWhatIsLarger() {
    MemoryStore m = new MemoryStore();
    m.put("k", new byte[100]);
    assertThat(m.get("k", 100)).hasSize(100);
    assertThatThrownBy(() -> m.get("k", 99))
        .isInstanceOf(ValueTooLargeException.class)
        .hasMessageContaining("key 'k'")
        .hasMessageContaining("100 bytes")
        .hasMessageContaining("99 bytes");
    assertThat(m.get("absent", 10)).isNull();
    // the default (a range read of the bound plus one byte) on a store that overrides nothing
    Store plain = new Plain(m);
    assertThat(plain.get("k", 100)).hasSize(100);
    assertThatThrownBy(() -> plain.get("k", 50)).isInstanceOf(ValueTooLargeException.class);
  }
}
