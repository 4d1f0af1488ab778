package dev.cubed.nd;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Bad input gets an IllegalArgumentException naming the function, the shapes and the rule. */
class ManipulationErrorsTest {
  private final NDArray x = NDArray.zeros(DType.FLOAT64, 2, 3, 4);

  @Test
  void axisOutOfRange() {
    assertThatThrownBy(() -> Manipulation.concat(new NDArray[] {x, x}, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("concat: axis 3 is out of range for an array of 3 dimension");
    assertThatThrownBy(() -> Manipulation.stack(new NDArray[] {x}, -5))
        .hasMessageContaining("stack: axis -5 is out of range");
    assertThatThrownBy(() -> Manipulation.flip(x, 3)).hasMessageContaining("flip: axis 3");
    assertThatThrownBy(() -> Manipulation.expandDims(x, 0, 5))
        .isInstanceOf(IndexOutOfBoundsException.class) // the standard's IndexError
        .hasMessageContaining("expand_dims: axis 5");
    assertThatThrownBy(() -> Manipulation.unstack(NDArray.scalar(1.0), 0))
        .hasMessageContaining("unstack: axis 0 is out of range for an array of 0 dimension");
    assertThatThrownBy(() -> Manipulation.roll(x, new long[] {1}, new int[] {-4}))
        .hasMessageContaining("roll: axis -4");
    assertThatThrownBy(() -> Manipulation.roll(x, new long[] {1, 2}, new int[] {0, 1, 2}))
        .hasMessageContaining("roll: shift [1, 2] and axis [0, 1, 2] must have the same length");
    assertThatThrownBy(() -> Manipulation.moveaxis(x, new int[] {0, 0}, new int[] {1, 2}))
        .hasMessageContaining("moveaxis: axis 0 is repeated");
    assertThatThrownBy(() -> Indexing.take(x, NDArray.of(new long[] {0}), 3))
        .hasMessageContaining("take: axis 3");
  }

  @Test
  void shapesThatDoNotJoin() {
    NDArray y = NDArray.zeros(DType.FLOAT64, 2, 5, 4);
    assertThatThrownBy(() -> Manipulation.concat(new NDArray[] {x, y}, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("concat: array 0 has shape (2, 3, 4) and array 1 has shape (2, 5, 4)")
        .hasMessageContaining("all dimensions except axis 0 must match");
    assertThatThrownBy(
            () -> Manipulation.concat(new NDArray[] {x, NDArray.zeros(DType.INT8, 2, 3)}, 0))
        .hasMessageContaining("array 1 has shape (2, 3)");
    assertThatThrownBy(() -> Manipulation.concat(new NDArray[] {NDArray.scalar(1.0)}, 0))
        .hasMessageContaining("concat: zero-dimensional arrays cannot be concatenated");
    assertThatThrownBy(() -> Manipulation.stack(new NDArray[] {x, y}, 0))
        .hasMessageContaining("stack: array 0 has shape (2, 3, 4) and array 1 has shape (2, 5, 4)")
        .hasMessageContaining("must have the same shape");
    assertThatThrownBy(() -> Manipulation.concat(new NDArray[0], 0))
        .hasMessageContaining("concat: need at least one array");
  }

  @Test
  void badReshapeSqueezeRepeatTile() {
    assertThatThrownBy(() -> Manipulation.reshape(x, 5, 5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(
            "reshape: cannot reshape array of shape (2, 3, 4) (size 24) into" + " shape (5, 5)");
    assertThatThrownBy(() -> Manipulation.reshape(x, -1, -1))
        .hasMessageContaining("reshape: only one dimension may be -1");
    assertThatThrownBy(() -> Manipulation.squeeze(x, 1))
        .hasMessageContaining("squeeze: cannot remove axis 1 of length 3 from shape (2, 3, 4)");
    assertThatThrownBy(() -> Manipulation.repeat(x, new long[] {1, 2}, 1))
        .hasMessageContaining("repeat: 2 repeats for axis 1 of length 3 (shape (2, 3, 4))");
    assertThatThrownBy(() -> Manipulation.repeat(x, new long[] {-1}, 1))
        .hasMessageContaining("repeat: repeats must be >= 0");
    assertThatThrownBy(() -> Manipulation.tile(x, -1))
        .hasMessageContaining("tile: repetitions must be >= 0");
    assertThatThrownBy(() -> Manipulation.broadcastTo(x, 3, 4))
        .hasMessageContaining("broadcast_to: cannot broadcast shape (2, 3, 4) to (3, 4)");
    assertThatThrownBy(() -> Manipulation.broadcastArrays(x, NDArray.zeros(DType.INT8, 5)))
        .hasMessageContaining("broadcast_arrays: shapes (2, 3, 4) and (5,) do not broadcast");
  }

  @Test
  void indexErrors() {
    assertThatThrownBy(() -> Indexing.get(x, Index.at(0), Index.at(3)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("__getitem__: index 3 is out of bounds for axis 1 with size 3");
    assertThatThrownBy(() -> Indexing.get(x, Index.at(-3)))
        .hasMessageContaining("index -3 is out of bounds for axis 0 with size 2");
    assertThatThrownBy(() -> Indexing.get(x, Index.at(0), Index.all(), Index.all(), Index.at(0)))
        .hasMessageContaining(
            "__getitem__: too many indices for array: array of shape (2, 3, 4)"
                + " is 3-dimensional, but 4 were indexed");
    assertThatThrownBy(() -> Indexing.get(x, Index.ellipsis(), Index.ellipsis()))
        .hasMessageContaining("single ellipsis");
    assertThatThrownBy(
            () -> Indexing.set(x, new Index[] {Index.at(0)}, NDArray.zeros(DType.FLOAT64, 4, 3)))
        .hasMessageContaining("__setitem__: cannot broadcast shape (4, 3) to (3, 4)");
    assertThatThrownBy(() -> Indexing.take(x, NDArray.of(new long[] {0, 5}), 2))
        .hasMessageContaining("take: index 5 is out of bounds for axis 2 with size 4");
    assertThatThrownBy(() -> Indexing.take(x, NDArray.of(new long[] {-5}), 2))
        .hasMessageContaining("take: index -5 is out of bounds for axis 2 with size 4");
    assertThatThrownBy(() -> Indexing.take(x, NDArray.of(new double[] {0}), 2))
        .hasMessageContaining("take: indices must have an integer dtype, got float64");
    assertThatThrownBy(() -> Indexing.take(x, NDArray.of(new long[] {0})))
        .hasMessageContaining("take: axis is required for an array of shape (2, 3, 4)");
    assertThatThrownBy(() -> Indexing.takeAlongAxis(x, NDArray.zeros(DType.INT64, 2, 3), 1))
        .hasMessageContaining(
            "take_along_axis: indices of shape (2, 3) must have as many"
                + " dimensions as x of shape (2, 3, 4)");
    assertThatThrownBy(() -> Indexing.takeAlongAxis(x, NDArray.zeros(DType.INT64, 3, 1, 4), 1))
        .hasMessageContaining("take_along_axis: shapes");
    assertThatThrownBy(() -> Indexing.takeAlongAxis(x, NDArray.full(DType.INT64, 9, 2, 1, 4), 1))
        .hasMessageContaining("take_along_axis: index 9 is out of bounds for axis 1 with size 3");
  }

  @Test
  void maskErrors() {
    assertThatThrownBy(() -> Indexing.getMask(x, NDArray.zeros(DType.BOOL, 2, 4)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(
            "__getitem__: boolean mask of shape (2, 4) does not match the array"
                + " of shape (2, 3, 4) along axis 1: size of axis is 3 but size of the mask axis is 4");
    assertThatThrownBy(() -> Indexing.getMask(x, NDArray.zeros(DType.BOOL, 2, 3, 4, 1)))
        .hasMessageContaining("too many indices for array: boolean mask of shape (2, 3, 4, 1)");
    assertThatThrownBy(() -> Indexing.getMask(x, NDArray.zeros(DType.INT8, 2)))
        .hasMessageContaining("a mask index must be bool, got int8");
    NDArray m = NDArray.ones(DType.BOOL, 2, 3);
    assertThatThrownBy(() -> Indexing.setMask(x, m, NDArray.zeros(DType.FLOAT64, 5, 4)))
        .hasMessageContaining("__setitem__: cannot broadcast shape (5, 4) to (6, 4)");
  }

  @Test
  void creationErrors() {
    assertThatThrownBy(() -> Creation.tril(NDArray.zeros(DType.INT8, 3), 0))
        .hasMessageContaining("tril: x of shape (3,) must have at least 2 dimensions");
    assertThatThrownBy(() -> Creation.meshgrid(Creation.MeshIndexing.XY, x))
        .hasMessageContaining("meshgrid: array 0 has shape (2, 3, 4); every input must be 1-d");
    assertThatThrownBy(() -> Creation.arange(0, 1, 0))
        .hasMessageContaining("arange: step must not be zero");
    assertThatThrownBy(() -> Creation.linspace(0, 1, 3, DType.INT32, Creation.Endpoint.INCLUDE))
        .hasMessageContaining("linspace: dtype must be a floating-point dtype");
    assertThatThrownBy(() -> Creation.asarray("text"))
        .hasMessageContaining("asarray: unsupported object java.lang.String");
  }
}
