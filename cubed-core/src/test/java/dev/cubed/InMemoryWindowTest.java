package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.Index;
import dev.cubed.nd.Manipulation;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.ResultBuffers;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.runtime.ThreadsExecutor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A unit-step slice of an in-memory input is a window of it (an in-memory input itself: no op whose
 * tasks copy whole input blocks to slice them), and adjacent such slices concatenated back
 * (xarray's {@code concat([t.isel(time=slice(0, 10)), t.isel(time=slice(10, None))])}) are one
 * window whose compute copies the held array's box straight into the result, in one copy; other
 * concatenations stay an op. Values equal the kernels' in every case, in the heap and through a
 * result file.
 */
class InMemoryWindowTest {
  @TempDir Path tmp;

  private Spec spec() {
    return EngineTestSupport.tinySpec(tmp, 100_000_000);
  }

  private static Index.Slice s(Long start, Long stop) {
    return new Index.Slice(start, stop, 1);
  }

  /** Computes {@code x} into a mapped file through its channel (as the Python bridge does). */
  private NDArray viaFile(CubedArray x, String name) throws IOException {
    Path f = tmp.resolve(name);
    MappedByteBuffer[] map = new MappedByteBuffer[1];
    try (FileChannel ch =
        FileChannel.open(
            f, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      List<NDArray> got =
          Cubed.computeInto(
              new ResultBuffers() {
                @Override
                public ByteBuffer buffer(int output, DType dtype, long[] shape) {
                  long n = dtype.itemSize();
                  for (long d : shape) {
                    n *= d;
                  }
                  try {
                    map[0] = ch.map(FileChannel.MapMode.READ_WRITE, 0, n);
                  } catch (IOException e) {
                    throw new UncheckedIOException(e);
                  }
                  return map[0];
                }

                @Override
                public FileChannel channel(int output) {
                  return ch;
                }
              },
              ComputeOptions.executor(new ThreadsExecutor(2, 1)),
              x);
      assertThat(got.get(0)).as("the result went into the file").isNull();
      return NDArray.fromBytes(
          x.dtype(), x.shape(), map[0].duplicate().clear(), ByteOrder.LITTLE_ENDIAN);
    }
  }

  @Test
  void adjacentSlicesConcatenatedBackAreOneWindowOfTheHeldArray() throws IOException {
    NDArray a = EngineTestSupport.randomDoubles(7, 30, 20, 40); // 192 KB: runs through the channel
    CubedArray x = Cubed.fromArray(a, new long[] {10, 20, 40}, spec());
    CubedArray head = Xp.getItem(x, s(0L, 3L));
    CubedArray tail = Xp.getItem(x, s(3L, null));
    assertThat(head.node()).as("a slice is a window").isInstanceOf(ArrayNode.Virtual.class);
    assertThat(tail.node()).isInstanceOf(ArrayNode.Virtual.class);
    assertThat(tail.chunks()[0]).containsExactly(7, 10, 10);
    CubedArray y = Xp.concat(List.of(head, tail), 0);
    assertThat(y.node()).as("joined back: one window").isInstanceOf(ArrayNode.Virtual.class);
    assertThat(y.chunks()[0]).containsExactly(3, 7, 10, 10);
    assertThat(y.compute()).isEqualTo(a);
    assertThat(viaFile(y, "joined")).isEqualTo(a);
    // a window of the middle, joined from three slices, and computed on
    CubedArray mid =
        Xp.concat(
            List.of(
                Xp.getItem(x, s(5L, 9L)), Xp.getItem(x, s(9L, 12L)), Xp.getItem(x, s(12L, 25L))),
            0);
    assertThat(mid.node()).isInstanceOf(ArrayNode.Virtual.class);
    NDArray want = a.getRegion(new long[] {5, 0, 0}, new long[] {20, 20, 40});
    assertThat(mid.compute()).isEqualTo(want);
    assertThat(viaFile(mid, "mid")).isEqualTo(want);
    assertThat(Xp.add(mid, 1.0).compute())
        .isEqualTo(Xp.add(Cubed.fromArray(want, new long[] {20, 20, 40}, spec()), 1.0).compute());
  }

  @Test
  void slicesOnTrailingAxesAndOtherConcatenationsHaveTheKernelsValues() throws IOException {
    NDArray a = EngineTestSupport.randomDoubles(8, 30, 20, 40);
    CubedArray x = Cubed.fromArray(a, new long[] {10, 20, 40}, spec());
    // a box on a trailing axis: short runs of the held array
    CubedArray box = Xp.getItem(x, s(4L, 21L), s(2L, 15L), s(5L, 33L));
    assertThat(box.node()).isInstanceOf(ArrayNode.Virtual.class);
    NDArray want = a.getRegion(new long[] {4, 2, 5}, new long[] {17, 13, 28});
    assertThat(box.compute()).isEqualTo(want);
    assertThat(viaFile(box, "box")).isEqualTo(want);
    // slices joined along a trailing axis (a window too), then with a gap (an op)
    CubedArray alongY =
        Xp.concat(
            List.of(
                Xp.getItem(x, s(null, null), s(0L, 5L)), Xp.getItem(x, s(null, null), s(5L, 20L))),
            1);
    assertThat(alongY.node()).isInstanceOf(ArrayNode.Virtual.class);
    assertThat(viaFile(alongY, "alongY")).isEqualTo(a);
    CubedArray gap = Xp.concat(List.of(Xp.getItem(x, s(0L, 3L)), Xp.getItem(x, s(5L, null))), 0);
    assertThat(gap.node()).isInstanceOf(ArrayNode.Computed.class);
    NDArray wantGap =
        Manipulation.concat(
            new NDArray[] {
              a.getRegion(new long[] {0, 0, 0}, new long[] {3, 20, 40}),
              a.getRegion(new long[] {5, 0, 0}, new long[] {25, 20, 40})
            },
            0);
    assertThat(gap.compute()).isEqualTo(wantGap);
    assertThat(viaFile(gap, "gap")).isEqualTo(wantGap);
    // slices of two different in-memory arrays stay an op as well
    NDArray copy = a.getRegion(new long[3], a.shape());
    CubedArray other = Cubed.fromArray(copy, new long[] {10, 20, 40}, spec());
    CubedArray two =
        Xp.concat(List.of(Xp.getItem(x, s(0L, 3L)), Xp.getItem(other, s(3L, null))), 0);
    assertThat(two.node()).isInstanceOf(ArrayNode.Computed.class);
    assertThat(two.compute()).isEqualTo(a);
  }
}
