package dev.cubed.zarr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.store.FileSystemStore;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link ZarrArray#readStrided}: every selected element equals the array's, for each dtype, both
 * byte orders, codecs decoded straight into the result (bytes + zstd or gzip in a local directory,
 * strided boxes decoded up to their last element) and codecs read whole (Blosc), on seeded random
 * shapes, chunks, starts, steps and counts, including selections inside one chunk and across many.
 */
class StridedReadTest {
  @TempDir Path dir;

  static Stream<Arguments> cases() {
    String[] kinds = {
      "float64",
      "float64-be",
      "float32",
      "int64",
      "int32-be",
      "int16",
      "uint8",
      "bool",
      "complex128"
    };
    String[] codecs = {"zstd", "gzip", "blosc"};
    Stream.Builder<Arguments> b = Stream.builder();
    int seed = 0;
    for (String k : kinds) {
      for (String c : codecs) {
        b.add(Arguments.of(k, c, seed++));
      }
    }
    return b.build();
  }

  private static DType dtype(String kind) {
    return switch (kind.replace("-be", "")) {
      case "float64" -> DType.FLOAT64;
      case "float32" -> DType.FLOAT32;
      case "int64" -> DType.INT64;
      case "int32" -> DType.INT32;
      case "int16" -> DType.INT16;
      case "uint8" -> DType.UINT8;
      case "bool" -> DType.BOOL;
      default -> DType.COMPLEX128;
    };
  }

  @ParameterizedTest
  @MethodSource("cases")
  void everySelectedElementIsTheArrays(String kind, String codec, int seed) {
    Random r = new Random(1000 + seed);
    DType t = dtype(kind);
    int nd = 1 + r.nextInt(3);
    long[] shape = new long[nd];
    long[] chunks = new long[nd];
    for (int i = 0; i < nd; i++) {
      shape[i] = 1 + r.nextInt(nd == 1 ? 400 : nd == 2 ? 60 : 20);
      chunks[i] = 1 + r.nextInt((int) shape[i]);
    }
    var bld =
        ZarrArray.create(new FileSystemStore(dir), "a")
            .shape(shape)
            .chunks(chunks)
            .dtype(t)
            .compression(
                switch (codec) {
                  case "zstd" -> Compression.zstd(1);
                  case "gzip" -> Compression.gzip(1);
                  default ->
                      Compression.blosc(Compression.BloscCodec.LZ4, 5, Compression.Shuffle.BYTE);
                });
    if (kind.endsWith("-be")) {
      bld = bld.byteOrder(ByteOrder.BIG_ENDIAN);
    }
    ZarrArray z = bld.build();
    NDArray a = NDArray.zeros(t, shape);
    for (int i = 0; i < a.size(); i++) {
      a.setDouble(
          i, t == DType.BOOL ? r.nextInt(2) : r.nextInt(2000) - (t == DType.UINT8 ? 0 : 1000));
      if (t == DType.UINT8) {
        a.setDouble(i, r.nextInt(256));
      }
    }
    z.write(new long[nd], a);
    if (codec.equals("blosc")) {
      assertThat(z.readsBoxes()).isFalse();
    } else {
      assertThat(z.readsBoxes()).as(codec + " in a local directory").isTrue();
    }
    for (int round = 0; round < 25; round++) {
      long[] start = new long[nd];
      long[] step = new long[nd];
      long[] count = new long[nd];
      for (int i = 0; i < nd; i++) {
        start[i] = r.nextInt((int) shape[i]);
        step[i] = 1 + r.nextInt(round % 3 == 0 ? 2 : 9);
        long most = (shape[i] - 1 - start[i]) / step[i] + 1;
        count[i] = round == 0 ? most : r.nextInt((int) most + 1);
      }
      NDArray got = z.readStrided(start, step, count);
      assertThat(got.shape()).containsExactly(count);
      assertThat(got.dtype()).isEqualTo(t);
      long n = Shapes.size(count);
      long[] idx = new long[nd];
      long[] as = Shapes.strides(shape);
      for (long f = 0; f < n; f++) {
        long src = 0;
        for (int i = 0; i < nd; i++) {
          src += (start[i] + idx[i] * step[i]) * as[i];
        }
        String at = kind + "/" + codec + " round " + round + " element " + f;
        assertThat(got.getDouble((int) f)).as(at).isEqualTo(a.getDouble((int) src));
        if (t.isComplex()) {
          assertThat(got.getImag((int) f)).as(at).isEqualTo(a.getImag((int) src));
        }
        for (int i = nd - 1; i >= 0; i--) {
          if (++idx[i] < count[i]) {
            break;
          }
          idx[i] = 0;
        }
      }
    }
  }

  @ParameterizedTest
  @MethodSource("cases")
  void selectionsOutsideTheArrayOrWithStepsBelowOneAreRefused(String kind, String codec, int seed) {
    if (seed % 9 != 0) {
      return; // once per kind is enough
    }
    ZarrArray z =
        ZarrArray.create(new FileSystemStore(dir), "r")
            .shape(10, 10)
            .chunks(4, 4)
            .dtype(dtype(kind))
            .build();
    assertThatThrownBy(() -> z.readStrided(new long[] {0, 0}, new long[] {0, 1}, new long[] {1, 1}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("steps must be at least 1");
    assertThatThrownBy(() -> z.readStrided(new long[] {1, 0}, new long[] {3, 1}, new long[] {4, 1}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not inside dimension 0");
    assertThatThrownBy(() -> z.readStrided(new long[] {0}, new long[] {1}, new long[] {1}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must have 2 dimensions");
    assertThat(z.readStrided(new long[] {9, 0}, new long[] {5, 2}, new long[] {0, 3}).size())
        .isZero();
  }
}
