package dev.cubed.zarr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.store.MemoryStore;
import dev.cubed.zarr.store.ZarrFormatException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Seeded mutations of stored chunks and metadata: every read either succeeds or throws
 * ZarrFormatException (never another exception type or an out-of-memory).
 */
class ZarrFuzzTest {

  static void expectCleanOutcome(Runnable r, String what) {
    try {
      r.run();
    } catch (ZarrFormatException e) {
      assertThat(e.getMessage()).isNotBlank();
    } catch (RuntimeException e) {
      throw new AssertionError(what + ": unexpected " + e, e);
    }
  }

  static List<Consumer<ZarrArrayBuilder>> variants() {
    return List.of(
        b -> b.zarrFormat(3).compression(Compression.zstd(1)),
        b -> b.zarrFormat(3).compression(Compression.gzip(1)).crc32c(),
        b -> b.zarrFormat(3).compression(Compression.none()).chunks(8, 8).innerChunks(4, 4),
        b ->
            b.zarrFormat(3)
                .compression(Compression.zstd(1))
                .chunks(8, 8)
                .innerChunks(2, 4)
                .shardIndexAtStart(),
        b -> b.zarrFormat(2).compression(Compression.lz4()),
        b -> b.zarrFormat(2).compression(Compression.zlib(1)),
        b -> b.zarrFormat(2).compression(Compression.none()).order(MemoryOrder.F));
  }

  @Test
  void mutatedChunks() {
    Random r = new Random(7);
    int v = 0;
    for (Consumer<ZarrArrayBuilder> variant : variants()) {
      MemoryStore s = new MemoryStore();
      ZarrArrayBuilder b = ZarrArray.create(s, "a").shape(8, 8).chunks(4, 4).dtype(DType.FLOAT64);
      variant.accept(b);
      ZarrArray a = b.build();
      a.write(new long[2], ZarrRoundTripTest.randomArray(DType.FLOAT64, new long[] {8, 8}, v));
      String key = a.chunkKey(0, 0);
      byte[] good = s.get(key);
      for (int t = 0; t < 90; t++) {
        byte[] bad =
            switch (t % 3) {
              case 0 -> Arrays.copyOf(good, r.nextInt(good.length));
              case 1 -> {
                byte[] x = good.clone();
                for (int k = 0; k < 1 + r.nextInt(4); k++) {
                  x[r.nextInt(x.length)] = (byte) r.nextInt();
                }
                yield x;
              }
              default -> {
                byte[] x = new byte[r.nextInt(64)];
                r.nextBytes(x);
                yield x;
              }
            };
        s.put(key, bad);
        String what = "variant " + v + " mutation " + t;
        expectCleanOutcome(() -> a.readChunk(0, 0), what);
        expectCleanOutcome(() -> a.read(new long[] {1, 1}, new long[] {2, 2}), what);
      }
      v++;
    }
  }

  @Test
  void mutatedMetadata() {
    Random r = new Random(11);
    String alphabet = "0123456789-[]{}\",:.e truefalsnul\\";
    for (int format : new int[] {2, 3}) {
      MemoryStore s = new MemoryStore();
      ZarrArray a =
          ZarrArray.create(s, "a")
              .zarrFormat(format)
              .shape(8, 8)
              .chunks(4, 4)
              .dtype(DType.INT32)
              .fillValue(3)
              .dimensionNames("y", "x")
              .build();
      a.write(new long[2], ZarrRoundTripTest.randomArray(DType.INT32, new long[] {8, 8}, 1));
      String key = format == 3 ? "a/zarr.json" : "a/.zarray";
      String good = new String(s.get(key), StandardCharsets.UTF_8);
      for (int t = 0; t < 150; t++) {
        StringBuilder sb = new StringBuilder(good);
        for (int k = 0; k < 1 + r.nextInt(3); k++) {
          int p = r.nextInt(sb.length());
          sb.setCharAt(p, alphabet.charAt(r.nextInt(alphabet.length())));
        }
        s.put(key, sb.toString().getBytes(StandardCharsets.UTF_8));
        expectCleanOutcome(
            () -> {
              ZarrArray m = ZarrArray.open(s, "a");
              long[] sh = m.shape();
              if (m.ndim() == 2 && sh[0] <= 64 && sh[1] <= 64 && m.chunkCount() <= 4096) {
                m.read();
              }
            },
            "format " + format + " mutation " + t + ": " + sb);
      }
    }
  }
}
