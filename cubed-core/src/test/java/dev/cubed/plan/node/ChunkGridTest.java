package dev.cubed.plan.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Unit tests of the chunk grid value class. */
class ChunkGridTest {

  @Test
  void regularGridAndItsListFormAreEqual() {
    ChunkGrid g = ChunkGrid.regular(new long[] {12, 8}, new long[] {5, 4});
    ChunkGrid l = ChunkGrid.of(new long[] {12, 8}, new long[][] {{5, 5, 2}, {4, 4}});
    assertThat(g.isRegular()).isTrue();
    assertThat(l.isRegular()).isTrue();
    assertThat(g).isEqualTo(l);
    assertThat(g.hashCode()).isEqualTo(l.hashCode());
    assertThat(g.numBlocks()).containsExactly(3, 2);
    assertThat(g.blockShape(new long[] {2, 1})).containsExactly(2, 4);
    assertThat(g.blockOffset(new long[] {2, 1})).containsExactly(10, 4);
    assertThat(g.blockOf(0, 9)).isEqualTo(1);
    assertThat(g.blockOf(0, 10)).isEqualTo(2);
  }

  @Test
  void irregularGrid() {
    ChunkGrid g = ChunkGrid.of(new long[] {14, 3}, new long[][] {{2, 5, 5, 2}, {3}});
    assertThat(g.isRegular()).isFalse();
    assertThat(g.numBlocks()).containsExactly(4, 1);
    assertThat(g.maxChunks()).containsExactly(5, 3);
    assertThat(g.blockShape(new long[] {3, 0})).containsExactly(2, 3);
    assertThat(g.blockOffset(new long[] {2, 0})).containsExactly(7, 0);
    assertThat(g.toString()).isEqualTo("((2, 5, 5, 2), (3,))");
    assertThat(g).isNotEqualTo(ChunkGrid.regular(new long[] {14, 3}, new long[] {5, 3}));
    assertThat(g.withAxis(0, new long[] {7, 7}).isRegular()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4})
  void blockLookupMatchesOffsets(long seed) {
    Random r = new Random(seed);
    long[] b = new long[1 + r.nextInt(8)];
    long n = 0;
    for (int j = 0; j < b.length; j++) {
      b[j] = 1 + r.nextInt(5);
      n += b[j];
    }
    ChunkGrid g = ChunkGrid.of(new long[] {n}, new long[][] {b});
    long idx = 0;
    for (int j = 0; j < b.length; j++) {
      assertThat(g.blockOffset(new long[] {j})[0]).isEqualTo(idx);
      assertThat(g.blockShape(new long[] {j})[0]).isEqualTo(b[j]);
      for (long k = 0; k < b[j]; k++, idx++) {
        assertThat(g.blockOf(0, idx)).as("element " + idx).isEqualTo(j);
      }
    }
  }

  @Test
  void badListsAreRejectedNamingTheAxis() {
    assertThatThrownBy(() -> ChunkGrid.of(new long[] {5}, new long[][] {{2, 0, 3}}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("axis 0")
        .hasMessageContaining(">= 1");
    assertThatThrownBy(() -> ChunkGrid.of(new long[] {10}, new long[][] {{4, 4}}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("add up to 8")
        .hasMessageContaining("length 10");
    assertThatThrownBy(() -> ChunkGrid.of(new long[] {10, 2}, new long[][] {{10}}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("one list per axis");
    assertThatThrownBy(() -> ChunkGrid.regular(new long[] {10}, new long[] {0}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(">= 1");
  }

  @Test
  void serializableForDistributedExecutors() throws Exception {
    ChunkGrid g = ChunkGrid.of(new long[] {14, 8}, new long[][] {{2, 5, 5, 2}, {4, 4}});
    ByteArrayOutputStream bo = new ByteArrayOutputStream();
    try (ObjectOutputStream o = new ObjectOutputStream(bo)) {
      o.writeObject(g);
    }
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bo.toByteArray()))) {
      ChunkGrid back = (ChunkGrid) in.readObject();
      assertThat(back).isEqualTo(g);
      assertThat(back.blockOf(0, 7)).isEqualTo(2);
    }
  }
}
