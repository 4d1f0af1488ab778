package dev.cubed.zarr.codec;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.Zstd;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The streamed zstd write path (zarr-python 3's default chain: bytes, zstd, optionally crc32c)
 * stores frames that decode, by the unstreamed codec, to the padded chunk's byte image, declare
 * their content size (numcodecs needs it), from a whole array or from runs; the output buffer is
 * reused from chunk to chunk on a thread, never while an outer encode still uses it, and so is the
 * thread's zstd context, reset for each chunk.
 */
class ZstdStreamsTest {
  static Stream<Arguments> cases() {
    long[][][] shapes = {
      {{}, {}},
      {{1}, {1}},
      {{300}, {123}},
      {{70_000}, {70_000}},
      {{513, 257}, {400, 257}},
      {{3, 20, 30}, {2, 20, 17}}
    };
    Stream.Builder<Arguments> b = Stream.builder();
    for (DType dt : new DType[] {DType.FLOAT64, DType.INT16, DType.BOOL, DType.COMPLEX64}) {
      for (long[][] s : shapes) {
        for (boolean big : new boolean[] {false, true}) {
          b.add(Arguments.of(dt, s[0], s[1], big, (big ? 2 : 1) * 7L + s[0].length));
        }
      }
    }
    return b.build();
  }

  @ParameterizedTest(name = "{0} full={1} clip={2} big={3}")
  @MethodSource("cases")
  void decodesToThePaddedChunkFromArrayAndRuns(
      DType dt, long[] full, long[] clip, boolean big, long seed) {
    NDArray a = BloscStreamsTest.data(dt, clip, (int) (seed % 3), seed);
    Object fill = dt == DType.BOOL ? Boolean.TRUE : dt.isComplex() ? 0.0 : 3;
    ByteOrder order = big ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    NDArray padded = a;
    if (!Arrays.equals(clip, full)) {
      padded = NDArray.full(dt, fill, full);
      padded.setRegion(new long[full.length], a);
    }
    byte[] want = padded.toBytes(order);
    ZstdBytesCodec zstd = new ZstdBytesCodec(3);
    for (boolean crc : new boolean[] {false, true}) {
      byte[] fromArray = stored(ZstdStreams.encode(zstd, a, full, fill, order, crc));
      final NDArray p = padded;
      byte[] fromRuns =
          stored(
              ZstdStreams.encode(
                  zstd,
                  (start, count) ->
                      p.reshape(Shapes.size(full))
                          .getRegion(new long[] {start}, new long[] {count}),
                  dt,
                  full,
                  order,
                  crc));
      for (byte[] s : new byte[][] {fromArray, fromRuns}) {
        int n = crc ? Crc32cBytesCodec.verify(s, s.length, "t") : s.length;
        byte[] frame = Arrays.copyOf(s, n);
        assertThat(Zstd.getFrameContentSize(frame)).isEqualTo(want.length);
        assertThat(zstd.decode(frame, want.length, "t")).isEqualTo(want);
      }
    }
  }

  private static byte[] stored(ByteBuffer b) {
    assertThat(b.position()).isZero();
    return Arrays.copyOf(b.array(), b.remaining());
  }

  @Test
  void outputBufferReusedAcrossChunksButNotByANestedEncode() throws Exception {
    NDArray a = BloscStreamsTest.data(DType.FLOAT64, new long[] {200, 300}, 0, 5);
    ZstdBytesCodec zstd = new ZstdBytesCodec(0);
    ByteBuffer first = ZstdStreams.encode(zstd, a, a.shape(), 0.0, ByteOrder.LITTLE_ENDIAN, false);
    ByteBuffer second = ZstdStreams.encode(zstd, a, a.shape(), 0.0, ByteOrder.LITTLE_ENDIAN, false);
    assertThat(second.array()).isSameAs(first.array());
    byte[][] inner = new byte[1][];
    ByteBuffer outer =
        ZstdStreams.encode(
            zstd,
            (start, count) -> {
              if (inner[0] == null) { // a chunk source that writes a chunk itself
                inner[0] =
                    ZstdStreams.encode(zstd, a, a.shape(), 0.0, ByteOrder.LITTLE_ENDIAN, false)
                        .array();
              }
              return a.reshape(a.size()).getRegion(new long[] {start}, new long[] {count});
            },
            DType.FLOAT64,
            a.shape(),
            ByteOrder.LITTLE_ENDIAN,
            false);
    assertThat(inner[0]).isNotSameAs(outer.array());
    byte[] frame = Arrays.copyOf(outer.array(), outer.remaining());
    assertThat(zstd.decode(frame, (int) a.size() * 8, "t"))
        .isEqualTo(a.toBytes(ByteOrder.LITTLE_ENDIAN));
  }

  /**
   * More threads than cores encode at once, each through its own reused buffers (the output array
   * and the direct buffers zstd reads from and writes into): every frame decodes to its own
   * thread's chunk. Sizes cross the stage size and include incompressible data (a stage's output as
   * large as its input), so the buffers are reused, grown and fully used.
   */
  @Test
  void threadsEncodingAtOnceEachGetTheirOwnChunkBack() throws Exception {
    int threads = Math.max(16, 4 * Runtime.getRuntime().availableProcessors());
    long[][] shapes = {{1}, {40_000}, {70_000}, {300, 250}};
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(threads);
    java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(threads);
    try {
      java.util.List<java.util.concurrent.Future<Integer>> done = new java.util.ArrayList<>();
      for (int t = 0; t < threads; t++) {
        final int id = t;
        done.add(
            pool.submit(
                () -> {
                  start.await();
                  int checked = 0;
                  for (int i = 0; i < 24; i++) {
                    long[] shape = shapes[(id + i) % shapes.length];
                    // mode 0: random doubles (incompressible); others: compressible patterns
                    NDArray a =
                        BloscStreamsTest.data(DType.FLOAT64, shape, (id + i) % 3, 31L * id + i);
                    ZstdBytesCodec zstd = new ZstdBytesCodec(i % 4);
                    boolean crc = i % 2 == 1;
                    ByteBuffer enc =
                        ZstdStreams.encode(zstd, a, shape, 0.0, ByteOrder.LITTLE_ENDIAN, crc);
                    byte[] s = stored(enc);
                    int n = crc ? Crc32cBytesCodec.verify(s, s.length, "t") : s.length;
                    byte[] want = a.toBytes(ByteOrder.LITTLE_ENDIAN);
                    assertThat(zstd.decode(Arrays.copyOf(s, n), want.length, "t"))
                        .as("thread %d chunk %d", id, i)
                        .isEqualTo(want);
                    checked++;
                  }
                  return checked;
                }));
      }
      for (java.util.concurrent.Future<Integer> f : done) {
        assertThat(f.get(5, java.util.concurrent.TimeUnit.MINUTES)).isEqualTo(24);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void compressionContextReusedPerThreadAndResetForEachChunk() {
    NDArray a = BloscStreamsTest.data(DType.FLOAT64, new long[] {300, 400}, 1, 11);
    ByteOrder le = ByteOrder.LITTLE_ENDIAN;
    byte[] want = a.toBytes(le);
    com.github.luben.zstd.ZstdCompressCtx ctx;
    try (EncodeBuffers b = EncodeBuffers.acquire()) {
      ctx = b.zstd();
    }
    byte[] fast = stored(ZstdStreams.encode(new ZstdBytesCodec(1), a, a.shape(), 0.0, le, false));
    byte[] slow = stored(ZstdStreams.encode(new ZstdBytesCodec(19), a, a.shape(), 0.0, le, false));
    // a chunk source failing half way leaves the context inside a frame
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                ZstdStreams.encode(
                    new ZstdBytesCodec(19),
                    (start, count) -> {
                      if (start > 0) {
                        throw new IllegalStateException("source failed");
                      }
                      return a.reshape(a.size()).getRegion(new long[] {start}, new long[] {count});
                    },
                    DType.FLOAT64,
                    a.shape(),
                    le,
                    false))
        .hasMessageContaining("source failed");
    byte[] again = stored(ZstdStreams.encode(new ZstdBytesCodec(1), a, a.shape(), 0.0, le, false));
    try (EncodeBuffers b = EncodeBuffers.acquire()) {
      assertThat(b.zstd()).isSameAs(ctx);
    }
    // each chunk's frame has its own level and none of the failed one's state
    assertThat(again).isEqualTo(fast);
    assertThat(slow).isNotEqualTo(fast);
    for (byte[] f : new byte[][] {fast, slow, again}) {
      assertThat(Zstd.getFrameContentSize(f)).isEqualTo(want.length);
      assertThat(new ZstdBytesCodec(0).decode(f, want.length, "t")).isEqualTo(want);
    }
  }

  @Test
  void zstdArrayWrittenFromRunsReadsBack(@TempDir Path dir) throws Exception {
    FileSystemStore store = new FileSystemStore(dir);
    ZarrArray z =
        ZarrArray.create(store, "z")
            .shape(700, 500)
            .chunks(300, 200)
            .dtype(DType.FLOAT64)
            .compression(Compression.zstd(0))
            .build();
    assertThat(z.streamsWrites()).isTrue();
    assertThat(z.writeCopies()).isEqualTo(1);
    NDArray all = BloscStreamsTest.data(DType.FLOAT64, new long[] {700, 500}, 1, 9);
    for (long i = 0; i < 3; i++) {
      for (long j = 0; j < 3; j++) {
        long[] c = {i, j};
        long[] start = {i * 300, j * 200};
        NDArray chunk = all.getRegion(start, z.chunkShape(c)).copy();
        z.writeChunk(
            c, (s, n) -> chunk.reshape(chunk.size()).getRegion(new long[] {s}, new long[] {n}));
      }
    }
    assertThat(ZarrArray.open(store, "z").read().toBytes(ByteOrder.LITTLE_ENDIAN))
        .isEqualTo(all.toBytes(ByteOrder.LITTLE_ENDIAN));
  }
}
