package dev.cubed.primitive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.zarr.MissingChunkException;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.store.MemoryStore;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A rechunk copy that writes each target chunk while reading it ({@link CopyOp#streams}): when it
 * applies, the target equals the source for seeded shapes, chunks and dtypes (edge chunks, runs
 * spanning two source chunks); a resumed consuming copy whose sources are gone finds its target
 * written; where it does not apply (other codecs, misaligned chunks) the buffered copy runs.
 */
class CopyStreamedTest {
  @Test
  void streamsOnlyOneTargetChunkPerTaskInsideSourceChunksOnTrailingAxes() {
    long[] t = {10, 3, 4};
    assertTrue(CopyOp.streams(new long[] {3, 6, 8}, t, t, true));
    assertTrue(CopyOp.streams(new long[] {1, 3, 4}, t, t, true));
    assertFalse(CopyOp.streams(new long[] {3, 6, 8}, t, t, false), "codec does not stream");
    assertFalse(CopyOp.streams(new long[] {3, 6, 6}, t, t, true), "4 does not divide 6");
    assertFalse(
        CopyOp.streams(new long[] {3, 6, 8}, t, new long[] {10, 6, 4}, true),
        "two target chunks per task");
    assertFalse(CopyOp.streams(new long[0], new long[0], new long[0], true));
  }

  private static final DType[] DTYPES = {
    DType.FLOAT64, DType.INT32, DType.COMPLEX128, DType.UINT8, DType.FLOAT32
  };

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
  void streamedCopyEqualsTheSource(int seed) throws Exception {
    Random r = new Random(seed);
    DType dt = DTYPES[(seed - 1) % DTYPES.length];
    int nd = 1 + r.nextInt(3);
    long[] shape = new long[nd];
    long[] tc = new long[nd];
    long[] sc = new long[nd];
    for (int d = 0; d < nd; d++) {
      shape[d] = 1 + r.nextInt(d == 0 ? 200 : 9);
      tc[d] = 1 + r.nextInt((int) shape[d]);
      sc[d] = d == 0 ? 1 + r.nextInt((int) shape[d]) : tc[d] * (1 + r.nextInt(2));
    }
    NDArray a = NDArray.zeros(dt, shape);
    for (int i = 0; i < a.size(); i++) {
      if (dt.isComplex() || dt.kind() == DType.Kind.FLOAT) {
        a.setDouble(i, r.nextDouble());
      } else {
        a.setLong(i, r.nextInt(200));
      }
    }
    MemoryStore s = new MemoryStore();
    ZarrArray src = ZarrArray.create(s, "src").shape(shape).chunks(sc).dtype(dt).build();
    src.write(new long[nd], a);
    ZarrArray dst = ZarrArray.create(s, "dst").shape(shape).chunks(tc).dtype(dt).build();
    assertTrue(CopyOp.streams(sc, tc, tc, dst.streamsWrites()));
    long[] grid = dst.chunkGridShape();
    for (long f = 0; f < Shapes.size(grid); f++) {
      CopyOp.copyRegion(src, dst, tc, Shapes.unravel(grid, f), false);
    }
    assertEquals(
        a,
        dst.read(),
        "seed "
            + seed
            + " "
            + dt
            + " "
            + Shapes.format(shape)
            + " "
            + Shapes.format(sc)
            + " -> "
            + Shapes.format(tc));
    // the same through the buffered copy (gzip target: not streamed)
    ZarrArray z =
        ZarrArray.create(s, "z")
            .shape(shape)
            .chunks(tc)
            .dtype(dt)
            .compression(Compression.gzip(1))
            .build();
    assertFalse(CopyOp.streams(sc, tc, tc, z.streamsWrites()));
    for (long f = 0; f < Shapes.size(grid); f++) {
      CopyOp.copyRegion(src, z, tc, Shapes.unravel(grid, f), false);
    }
    assertEquals(a, z.read());
  }

  @Test
  void consumingCopyDeletesItsSourcesAndResumesAfterThem() throws Exception {
    long[] shape = {12, 4};
    long[] sc = {3, 4};
    long[] tc = {6, 4};
    NDArray a = NDArray.zeros(DType.FLOAT64, shape);
    for (int i = 0; i < a.size(); i++) {
      a.setDouble(i, i * 0.5);
    }
    MemoryStore s = new MemoryStore();
    // an intermediate: a missing chunk is an error, not fill values
    ZarrArray src =
        ZarrArray.create(s, "src")
            .shape(shape)
            .chunks(sc)
            .dtype(DType.FLOAT64)
            .build()
            .asIntermediate();
    src.write(new long[2], a);
    ZarrArray dst = ZarrArray.create(s, "dst").shape(shape).chunks(tc).dtype(DType.FLOAT64).build();
    CopyOp.copyRegion(src, dst, tc, new long[] {0, 0}, true);
    assertFalse(src.chunkExists(0, 0));
    assertFalse(src.chunkExists(1, 0));
    assertTrue(src.chunkExists(2, 0), "the other region's sources stay");
    // run again (a retry after the deletion): the target is written, nothing to do
    CopyOp.copyRegion(src, dst, tc, new long[] {0, 0}, true);
    // a missing source with its target missing too is an engine error
    s.delete(src.chunkKey(2, 0));
    assertThrows(
        MissingChunkException.class,
        () -> CopyOp.copyRegion(src, dst, tc, new long[] {1, 0}, true));
    assertFalse(dst.chunkExists(1, 0));
    assertEquals(
        a.getRegion(new long[] {0, 0}, new long[] {6, 4}),
        dst.read().getRegion(new long[] {0, 0}, new long[] {6, 4}));
  }
}
