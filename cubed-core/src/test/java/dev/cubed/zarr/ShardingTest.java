package dev.cubed.zarr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.testing.NDAssert;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.store.CountingStore;
import dev.cubed.zarr.store.MemoryStore;
import org.junit.jupiter.api.Test;

/** Sharded arrays: partial reads fetch only the index and the inner chunks they need. */
class ShardingTest {

  @Test
  void partialReadsUseRanges() {
    for (boolean atStart : new boolean[] {false, true}) {
      CountingStore s = new CountingStore();
      var b =
          ZarrArray.create(s, "a")
              .shape(70, 64)
              .chunks(64, 64)
              .innerChunks(8, 8)
              .dtype(DType.FLOAT64)
              .compression(Compression.none())
              .crc32c();
      if (atStart) {
        b.shardIndexAtStart();
      }
      ZarrArray a = b.build();
      NDArray data = ZarrRoundTripTest.randomArray(DType.FLOAT64, new long[] {70, 64}, 4);
      a.write(new long[2], data);
      long shardBytes = s.inner.get(a.chunkKey(0, 0)).length;
      s.bytes.set(0);
      NDArray part = a.read(new long[] {10, 10}, new long[] {4, 4});
      NDAssert.assertExact(data.getRegion(new long[] {10, 10}, new long[] {4, 4}), part, "partial");
      // index (64 entries * 16 + 4) plus one 8x8 float64 inner chunk (+4 crc)
      assertThat(s.bytes.get()).isEqualTo(64 * 16 + 4 + 8 * 8 * 8 + 4).isLessThan(shardBytes / 10);
      NDAssert.assertExact(
          data.getRegion(new long[] {60, 3}, new long[] {10, 50}),
          a.read(new long[] {60, 3}, new long[] {10, 50}),
          "edge shards");
      NDAssert.assertExact(data, a.read(), "whole");
      // a missing shard reads as fill, partially too
      s.inner.delete(a.chunkKey(1, 0));
      assertThat(a.read(new long[] {65, 0}, new long[] {2, 2}).getDouble(0)).isZero();
    }
  }

  @Test
  void emptyInnerChunksAreNotStored() {
    MemoryStore s = new MemoryStore();
    ZarrArray a =
        ZarrArray.create(s, "a")
            .shape(16, 16)
            .chunks(16, 16)
            .innerChunks(4, 4)
            .dtype(DType.INT32)
            .compression(Compression.none())
            .build();
    NDArray data = NDArray.zeros(DType.INT32, 16, 16);
    data.set(5, 0, 0);
    a.write(new long[2], data);
    // one inner chunk of 16 int32 plus the index of 16 entries (bytes, no crc)
    assertThat(s.get("a/c/0/0")).hasSize(16 * 4 + 16 * 16);
    NDAssert.assertExact(data, a.read(), "sparse shard");
  }
}
