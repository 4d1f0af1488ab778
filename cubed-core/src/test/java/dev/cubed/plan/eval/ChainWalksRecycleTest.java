package dev.cubed.plan.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.ZarrArrayBuilder;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.MemoryStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A chain walk over a stored array decodes later blocks into the arrays of blocks already written
 * and no longer the carry: never into a block still being written or still the carry, whatever the
 * order in which reads, steps and writes finish.
 */
class ChainWalksRecycleTest {
  @TempDir Path dir;

  /** A running sum along axis 0 over one-step blocks, in place when its input is owned. */
  private record RunningSum(int lanes) implements ChainFunction {
    @Override
    public int axis() {
      return 0;
    }

    @Override
    public NDArray step(List<Object> args, long[] outCoords, NDArray carry) {
      return step(args, outCoords, carry, false);
    }

    @Override
    public NDArray step(List<Object> args, long[] outCoords, NDArray carry, boolean owned) {
      NDArray in = (NDArray) args.get(0);
      NDArray out = owned ? in : in.copy();
      if (carry != null) {
        double[] o = (double[]) out.data();
        double[] c = (double[]) carry.data();
        for (int i = 0; i < o.length; i++) {
          o[i] += c[i];
        }
      }
      return out;
    }

    @Override
    public NDArray carry(NDArray block) {
      return block; // one step per block: the block is its own carry
    }

    @Override
    public int lanes() {
      return lanes;
    }
  }

  /**
   * Every block handed to the sink holds the running sum while the sink (slowed at random, so
   * writes finish out of step with reads) looks at it; arrays are reused across blocks; the stored
   * input is unchanged.
   */
  @ParameterizedTest
  @CsvSource({"zstd,1", "zstd,2", "zstd,5", "default,1", "default,3", "memory,2"})
  void blocksAreDecodedIntoWrittenArraysOnlyOnceTheyAreFree(String codec, int lanes)
      throws Exception {
    int n = 40;
    long[] shape = {n, 6, 7};
    long[] chunks = {1, 6, 7};
    Random r = new Random(31L * lanes + codec.hashCode());
    NDArray a = NDArray.zeros(DType.FLOAT64, shape);
    double[] d = (double[]) a.data();
    for (int i = 0; i < d.length; i++) {
      d[i] = r.nextInt(1000) - 300;
    }
    ZarrArrayBuilder b =
        ZarrArray.create(
                codec.equals("memory")
                    ? new MemoryStore()
                    : new FileSystemStore(dir.resolve(codec + lanes)),
                "x")
            .shape(shape)
            .chunks(chunks)
            .dtype(DType.FLOAT64);
    if (codec.equals("zstd")) {
      b = b.compression(Compression.zstd(0));
    }
    ZarrArray z = b.build();
    z.write(new long[3], a);
    ArrayNode x = new ArrayNode.Stored(z);
    ArrayNode.Computed c =
        new ArrayNode.Computed(
            new Blockwise(
                "running-sum",
                k -> List.of(BlockKeys.one(k)),
                new RunningSum(lanes),
                new int[] {1},
                new int[] {1},
                0),
            List.of(x),
            shape,
            chunks,
            DType.FLOAT64,
            null);
    Evaluator ev = new Evaluator(Map.of());
    assertThat(ev.freshArgs(c)).isTrue();

    double[] want = d.clone();
    int plane = 6 * 7;
    for (int i = plane; i < want.length; i++) {
      want[i] += want[i - plane];
    }
    Set<NDArray> arrays =
        Collections.newSetFromMap(Collections.synchronizedMap(new IdentityHashMap<>()));
    Map<Long, double[]> seen = new ConcurrentHashMap<>();
    List<String> wrong = Collections.synchronizedList(new ArrayList<>());
    Random slow = new Random(7);
    ChainWalks.walk(
        c,
        ev,
        new long[3],
        (key, block) -> {
          arrays.add(block);
          double[] before = ((double[]) block.data()).clone();
          int pause;
          synchronized (slow) {
            pause = slow.nextInt(4);
          }
          LockSupport.parkNanos(pause * 1_000_000L); // let reads and later steps run meanwhile
          double[] after = (double[]) block.data();
          int at = (int) key[0] * plane;
          for (int i = 0; i < plane; i++) {
            if (before[i] != want[at + i] || after[i] != want[at + i]) {
              wrong.add("block " + key[0] + " element " + i);
              break;
            }
          }
          seen.put(key[0], after.clone());
        });
    assertThat(wrong).isEmpty();
    assertThat(seen).hasSize(n);
    assertThat(z.read()).as("the stored input").isEqualTo(a);
    if (!codec.equals("memory")) {
      assertThat(arrays.size())
          .as("arrays made for %d blocks (%s, %d lanes)", n, codec, lanes)
          .isLessThan(n / 2);
    } else {
      assertThat(arrays).as("a memory store's chunks are read whole").hasSize(n);
    }
  }
}
