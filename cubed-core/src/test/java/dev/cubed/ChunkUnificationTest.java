package dev.cubed;

import static dev.cubed.testing.NDAssert.assertExact;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.NDArray;
import dev.cubed.nd.elementwise.Elementwise;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.primitive.BlockKeys;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Elementwise ops over inputs with different grids unify chunks the Dask way. */
class ChunkUnificationTest {
  @TempDir Path dir;

  private Spec spec(boolean fusion) {
    Spec.Builder b = EngineTestSupport.tinySpec(dir, 20_000).toBuilder();
    return fusion ? b.build() : b.maxInputBlocks(0).build();
  }

  @ParameterizedTest(name = "fusion={0}")
  @ValueSource(booleans = {true, false})
  void commonRefinementReadsOneBlockPerInput(boolean fusion) {
    Spec s = spec(fusion);
    NDArray a = EngineTestSupport.randomDoubles(21, 14, 7);
    NDArray b = EngineTestSupport.randomDoubles(22, 14, 7);
    CubedArray x = Cubed.fromArray(a, new long[][] {{2, 5, 5, 2}, {4, 3}}, s);
    CubedArray y = Cubed.fromArray(b, new long[] {4, 4}, s);
    CubedArray z = Xp.add(x, y);
    // boundaries {2, 7, 12} and {4, 8, 12} merge to {2, 4, 7, 8, 12}
    assertThat(z.chunks()).isDeepEqualTo(new long[][] {{2, 2, 3, 1, 4, 2}, {4, 3}});
    assertExact(Elementwise.add(a, b), z.compute(), "x + y");
    // every block of the output lies inside one block of each (regridded) input
    ArrayNode.Computed c = (ArrayNode.Computed) z.node();
    for (ArrayNode in : c.inputs()) {
      if (in instanceof ArrayNode.Computed rg && rg.inputs().size() == 1) {
        long[] nb = rg.numBlocks();
        for (long i = 0; i < nb[0]; i++) {
          for (long j = 0; j < nb[1]; j++) {
            BlockKeys k = rg.op().keys().keys(new long[] {i, j}).get(0);
            long n =
                k instanceof BlockKeys.One
                    ? 1
                    : k instanceof BlockKeys.Many m
                        ? m.keys().size()
                        : ((BlockKeys.Stream) k).keys().size();
            assertThat(n).as("input blocks read for block (" + i + ", " + j + ")").isEqualTo(1);
          }
        }
      }
    }
  }

  @ParameterizedTest(name = "seed={0}")
  @ValueSource(longs = {1, 2})
  void refinementsOfIrregularGridsMatchTheKernel(long seed) {
    Spec s = spec(true);
    NDArray a = EngineTestSupport.randomDoubles(seed, 12);
    NDArray b = EngineTestSupport.randomDoubles(seed + 5, 12);
    CubedArray u = Cubed.fromArray(b, new long[][] {{1, 3, 1, 3, 1, 3}}, s);
    CubedArray w = Xp.subtract(Cubed.fromArray(a, new long[][] {{2, 2, 2, 2, 2, 2}}, s), u);
    // {2, 4, 6, 8, 10} and {1, 4, 5, 8, 9} merge to {1, 2, 4, 5, 6, 8, 9, 10}
    assertThat(w.chunks()[0]).containsExactly(1, 1, 2, 1, 1, 2, 1, 1, 2);
    assertExact(Elementwise.subtract(a, b), w.compute(), "x - u");
    CubedArray p =
        Xp.add(
            Cubed.fromArray(a, new long[][] {{1, 2, 3, 6}}, s),
            Cubed.fromArray(b, new long[][] {{5, 4, 2, 1}}, s));
    // {1, 3, 6} and {5, 9, 11} merge to {1, 3, 5, 6, 9, 11}
    assertThat(p.chunks()[0]).containsExactly(1, 2, 2, 1, 3, 2, 1);
    assertExact(Elementwise.add(a, b), p.compute(), "x + y refined");
  }
}
