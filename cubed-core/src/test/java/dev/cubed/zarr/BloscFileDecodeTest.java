package dev.cubed.zarr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.MemoryStore;
import dev.cubed.zarr.store.ZarrFormatException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Chunks of the default codec in a local directory are decoded straight from their files a Blosc
 * block at a time ({@link ZarrArray#readChunk}): the same values as the whole-value decode for
 * every dtype, shuffle on and off, compressed and stored, edge chunks and several blocks; blocks
 * stored out of order (as multithreaded c-blosc may write them); truncated and corrupt files give
 * an error naming the chunk; the memory model counts no read copy for such arrays.
 */
class BloscFileDecodeTest {
  @TempDir Path dir;

  static List<Object[]> cases() {
    List<Object[]> out = new ArrayList<>();
    DType[] types = {
      DType.FLOAT64,
      DType.FLOAT32,
      DType.INT16,
      DType.UINT8,
      DType.COMPLEX128,
      DType.INT64,
      DType.BOOL
    };
    Compression[] codecs = {
      Compression.projectDefault(),
      Compression.blosc(Compression.BloscCodec.LZ4, 5, Compression.Shuffle.NONE),
      Compression.blosc(Compression.BloscCodec.LZ4, 0, Compression.Shuffle.NONE),
      Compression.blosc(Compression.BloscCodec.LZ4, 9, Compression.Shuffle.BYTE)
    };
    int seed = 0;
    for (DType t : types) {
      for (Compression c : codecs) {
        out.add(new Object[] {seed++, t, c});
      }
    }
    return out;
  }

  private static NDArray random(DType t, long[] shape, Random r) {
    NDArray a = NDArray.zeros(t, shape);
    for (int i = 0; i < a.size(); i++) {
      if (t == DType.BOOL) {
        a.setBoolean(i, r.nextBoolean());
      } else if (t.isFloating() || t.isComplex()) {
        // runs of repeats so that LZ4 finds matches, and noise so that some blocks do not
        a.setDouble(i, r.nextInt(4) == 0 ? r.nextGaussian() : (i / 7) * 0.5);
      } else {
        a.setLong(i, r.nextInt(3) == 0 ? r.nextInt(100) : i / 5);
      }
    }
    return a;
  }

  @ParameterizedTest
  @MethodSource("cases")
  void fileDecodeEqualsTheWrittenValues(int seed, DType t, Compression c) {
    Random r = new Random(seed);
    // up to ~1.2 MB chunks: several 256 KiB blocks and a leftover block; edge chunks
    long[] chunks = {1 + r.nextInt(5), 20 + r.nextInt(90), 50 + r.nextInt(300)};
    long[] shape = {
      chunks[0] * 2 - r.nextInt((int) chunks[0]), chunks[1] + r.nextInt(40), chunks[2] * 2 - 1
    };
    FileSystemStore store = new FileSystemStore(dir.resolve("s" + seed));
    ZarrArray z =
        ZarrArray.create(store, "a").shape(shape).chunks(chunks).dtype(t).compression(c).build();
    NDArray a = random(t, shape, r);
    z.write(new long[3], a);
    assertThat(z.readCopies()).as("decoded from the file: no copy of the stored bytes").isZero();
    NDArray back = ZarrArray.open(store, "a").read();
    assertThat(back.equals(a)).as(t + " " + c).isTrue();
    // the whole-value path over the same bytes (an in-memory store) agrees
    MemoryStore mem = new MemoryStore();
    for (String k : store.list("")) {
      mem.put(k, store.get(k));
    }
    ZarrArray m = ZarrArray.open(mem, "a");
    assertThat(m.readCopies()).isPositive();
    assertThat(m.read().equals(a)).isTrue();
  }

  /** The blocks of a Java-written chunk, rewritten in reverse order with offsets to match. */
  private static byte[] reversedBlocks(byte[] in) {
    ByteBuffer h = ByteBuffer.wrap(in).order(ByteOrder.LITTLE_ENDIAN);
    int nbytes = h.getInt(4);
    int bs = h.getInt(8);
    int nblocks = (nbytes + bs - 1) / bs;
    int[] start = new int[nblocks + 1];
    for (int j = 0; j < nblocks; j++) {
      start[j] = h.getInt(16 + 4 * j);
    }
    start[nblocks] = in.length;
    byte[] out = Arrays.copyOf(in, in.length);
    ByteBuffer o = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
    int pos = 16 + 4 * nblocks;
    List<Integer> order = new ArrayList<>();
    for (int j = 0; j < nblocks; j++) {
      order.add(j);
    }
    Collections.reverse(order);
    for (int j : order) {
      int len = start[j + 1] - start[j];
      System.arraycopy(in, start[j], out, pos, len);
      o.putInt(16 + 4 * j, pos);
      pos += len;
    }
    return out;
  }

  @Test
  void blocksStoredOutOfOrderDecodeTheSame() throws Exception {
    long[] shape = {4, 200, 300}; // 1.92 MB: 8 blocks
    FileSystemStore store = new FileSystemStore(dir.resolve("ooo"));
    ZarrArray z =
        ZarrArray.create(store, "a").shape(shape).chunks(shape).dtype(DType.FLOAT64).build();
    NDArray a = random(DType.FLOAT64, shape, new Random(7));
    z.write(new long[3], a);
    String key = z.chunkKey(0, 0, 0);
    byte[] stored = store.get(key);
    byte[] shuffled = reversedBlocks(stored);
    assertThat(shuffled).isNotEqualTo(stored);
    store.put(key, shuffled);
    assertThat(ZarrArray.open(store, "a").readChunk(0, 0, 0).equals(a)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 17, 1000, 100_000})
  void aTruncatedOrCorruptFileNamesTheChunk(int cut) throws Exception {
    long[] shape = {4, 200, 300};
    FileSystemStore store = new FileSystemStore(dir.resolve("t" + cut));
    ZarrArray z =
        ZarrArray.create(store, "a").shape(shape).chunks(shape).dtype(DType.FLOAT64).build();
    z.write(new long[3], random(DType.FLOAT64, shape, new Random(cut)));
    String key = z.chunkKey(0, 0, 0);
    Path file = dir.resolve("t" + cut).resolve(key);
    byte[] stored = Files.readAllBytes(file);
    Files.write(file, Arrays.copyOf(stored, stored.length - cut));
    assertThatThrownBy(() -> ZarrArray.open(store, "a").readChunk(0, 0, 0))
        .isInstanceOf(ZarrFormatException.class)
        .hasMessageContaining("chunk '" + key + "'")
        .hasMessageContaining("truncated");
    // a block offset pointing past the end, with the header's size intact
    byte[] bad = stored.clone();
    ByteBuffer.wrap(bad)
        .order(ByteOrder.LITTLE_ENDIAN)
        .putInt(16 + 4 * (cut % 7), bad.length + cut);
    Files.write(file, bad);
    assertThatThrownBy(() -> ZarrArray.open(store, "a").readChunk(0, 0, 0))
        .isInstanceOf(ZarrFormatException.class)
        .hasMessageContaining("chunk '" + key + "'")
        .hasMessageContaining("corrupt blosc data");
  }

  @Test
  void aMissingChunkReadsAsFillValueAndOtherCodecsKeepTheirCopies() {
    FileSystemStore store = new FileSystemStore(dir.resolve("m"));
    ZarrArray z =
        ZarrArray.create(store, "a")
            .shape(10, 10)
            .chunks(5, 5)
            .dtype(DType.INT32)
            .fillValue(7)
            .build();
    assertThat(z.readChunk(1, 1).getLong(0)).isEqualTo(7);
    // zstd alone is decoded from the file as a stream (StreamedDecode); with a checksum the
    // stored value is read whole
    ZarrArray zs =
        ZarrArray.create(store, "z")
            .shape(10, 10)
            .chunks(5, 5)
            .dtype(DType.INT32)
            .compression(Compression.zstd(3))
            .crc32c()
            .build();
    assertThat(zs.readCopies()).isPositive();
  }
}
