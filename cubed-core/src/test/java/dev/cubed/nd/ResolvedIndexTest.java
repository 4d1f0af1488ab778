package dev.cubed.nd;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ResolvedIndexTest {

  @Test
  void resolvesPerAxisProgressionsAndOutputShape() {
    // x[None, 1, ..., ::-2] on (4, 5, 6)
    ResolvedIndex b =
        ResolvedIndex.resolve(
            "__getitem__",
            new Index[] {
              Index.newAxis(), Index.at(1), Index.ellipsis(), Index.slice(null, null, -2)
            },
            new long[] {4, 5, 6});
    assertThat(b.outputShape()).containsExactly(1, 5, 3);
    assertThat(b.selectionShape()).containsExactly(1, 5, 3);
    assertThat(b.isDropped(0)).isTrue();
    assertThat(b.isDropped(1)).isFalse();
    assertThat(new long[] {b.start(0), b.step(0), b.length(0)}).containsExactly(1, 1, 1);
    assertThat(new long[] {b.start(1), b.step(1), b.length(1)}).containsExactly(0, 1, 5);
    assertThat(new long[] {b.start(2), b.step(2), b.length(2)}).containsExactly(5, -2, 3);
    assertThat(b.positions(2)).containsExactly(5, 3, 1);
    assertThat(b.shape()).containsExactly(4, 5, 6);
  }

  @Test
  void missingTrailingIndicesAreFullSlicesAndIntsGiveZeroD() {
    ResolvedIndex b =
        ResolvedIndex.resolve("f", new Index[] {Index.slice(1L, null)}, new long[] {3, 2});
    assertThat(b.outputShape()).containsExactly(2, 2);
    ResolvedIndex c =
        ResolvedIndex.resolve("f", new Index[] {Index.at(-1), Index.at(0)}, new long[] {3, 2});
    assertThat(c.outputShape()).isEmpty();
    assertThat(c.start(0)).isEqualTo(2);
    assertThat(Indexing.get(NDArray.arange(6).reshape(3, 2), Index.at(-1), Index.at(0)).shape())
        .isEmpty();
  }

  @Test
  void emptySelections() {
    ResolvedIndex b = ResolvedIndex.resolve("f", new Index[] {Index.slice(3L, 1L)}, new long[] {5});
    assertThat(b.length(0)).isZero();
    assertThat(b.positions(0)).isEmpty();
    assertThat(Indexing.get(NDArray.zeros(DType.INT8, 0, 3), Index.all(), Index.at(2)).shape())
        .containsExactly(0);
  }

  @Test
  void overlappingAssignmentReadsOldValues() {
    NDArray x = NDArray.arange(6);
    Indexing.set(x, new Index[] {Index.slice(null, null, -1)}, x);
    assertThat(x).isEqualTo(NDArray.of(new long[] {5, 4, 3, 2, 1, 0}));
    NDArray y = NDArray.arange(4);
    Indexing.setMask(
        y, NDArray.of(new boolean[] {true, true, true, true}), Manipulation.reshape(y, 4));
    assertThat(y).isEqualTo(NDArray.arange(4));
    NDArray z = NDArray.arange(5);
    Indexing.set(z, new Index[] {Index.slice(1L, null)}, Indexing.get(z, Index.slice(null, 4L)));
    assertThat(z).isEqualTo(NDArray.of(new long[] {0, 0, 1, 2, 3}));
  }
}
