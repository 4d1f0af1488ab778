package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.ResultBuffers;
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
 * Results written into a mapped file whose channel the caller also gives ({@link
 * ResultBuffers#channel}): long contiguous runs go through positional writes, short ones through
 * the mapping, and the file holds exactly the computed result either way: whole blocks (runs of 128
 * KB), blocks that do not span the trailing axes (short rows through the mapping), streamed chains
 * written run by run (tiles of a few KB merged into long runs where rows follow each other in the
 * result), for float64, int32 and bool.
 */
class ResultChannelTest {
  @TempDir Path tmp;

  /** Computes {@code x} into a fresh mapped file with its channel; returns the file's elements. */
  private NDArray viaFile(CubedArray x, String name) throws IOException {
    Path f = tmp.resolve(name);
    FileChannel ch =
        FileChannel.open(
            f, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
    MappedByteBuffer[] map = new MappedByteBuffer[1];
    int[] asked = new int[1];
    try (ch) {
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
                  asked[0]++;
                  return ch;
                }
              },
              ComputeOptions.executor(new ThreadsExecutor(2, 1)),
              x);
      assertThat(got.get(0)).as("the result went into the file").isNull();
      assertThat(asked[0]).isEqualTo(1);
      assertThat(ch.size()).isEqualTo(map[0].capacity());
      return NDArray.fromBytes(
          x.dtype(), x.shape(), map[0].duplicate().clear(), ByteOrder.LITTLE_ENDIAN);
    }
  }

  private static Spec spec(Path work, long tileBytes) {
    return Spec.builder()
        .workDir(work)
        .allowedMem(200_000_000)
        .reservedMem(1000)
        .tileBytes(tileBytes)
        .build();
  }

  @Test
  void wholeBlocksAndShortRowsLandWhereTheyBelong() throws IOException {
    Spec spec = spec(tmp.resolve("w1"), 1 << 20);
    NDArray a = EngineTestSupport.randomDoubles(5, 40, 64, 32);
    // blocks of 8 x 64 x 32 doubles: one run of 128 KB each, through the channel
    CubedArray x = Cubed.fromArray(a, new long[] {8, 64, 32}, spec);
    CubedArray y = Xp.subtract(Xp.multiply(x, 3.0), 1.0);
    NDArray want = Cubed.compute(ComputeOptions.executor(new ThreadsExecutor(2, 1)), y).get(0);
    assertThat(viaFile(y, "whole")).isEqualTo(want);
    // blocks of 8 x 16 x 32: rows of 256 bytes, through the mapping
    CubedArray z = Cubed.fromArray(a, new long[] {8, 16, 32}, spec);
    CubedArray w = Xp.add(z, 2.0);
    NDArray wantW = Cubed.compute(ComputeOptions.executor(new ThreadsExecutor(2, 1)), w).get(0);
    assertThat(viaFile(w, "rows")).isEqualTo(wantW);
    // int32 and bool results
    CubedArray i = Xp.astype(Xp.multiply(x, 1000.0), DType.INT32);
    NDArray wantI = Cubed.compute(ComputeOptions.executor(new ThreadsExecutor(2, 1)), i).get(0);
    assertThat(viaFile(i, "ints")).isEqualTo(wantI);
    CubedArray b = Xp.greater(x, 0.5);
    NDArray wantB = Cubed.compute(ComputeOptions.executor(new ThreadsExecutor(2, 1)), b).get(0);
    assertThat(viaFile(b, "bools")).isEqualTo(wantB);
    for (int k = 0; k < a.size(); k += 997) {
      assertThat(want.getDouble(k)).isEqualTo(a.getDouble(k) * 3.0 - 1.0);
    }
  }

  @Test
  void streamedRunsMergeAcrossRowsAndStayRight() throws IOException {
    // tiles of 4 KB: a streamed chain writes each block run by run
    Spec spec = spec(tmp.resolve("w2"), 4096);
    NDArray a = EngineTestSupport.randomDoubles(6, 24, 64, 48);
    NDArray c = EngineTestSupport.randomDoubles(7, 24, 64, 48);
    CubedArray x = Cubed.fromArray(a, new long[] {6, 64, 48}, spec);
    CubedArray y = Cubed.fromArray(c, new long[] {6, 64, 48}, spec);
    CubedArray r = Xp.add(Xp.multiply(x, y), 1.0);
    NDArray got = viaFile(r, "streamed");
    for (int k = 0; k < a.size(); k++) {
      assertThat(got.getDouble(k)).isEqualTo(a.getDouble(k) * c.getDouble(k) + 1.0);
    }
    CubedArray s = Cubed.fromArray(a, new long[] {6, 32, 48}, spec);
    CubedArray t = Cubed.fromArray(c, new long[] {6, 32, 48}, spec);
    NDArray got2 = viaFile(Xp.subtract(Xp.multiply(s, t), 1.0), "streamed-half");
    for (int k = 0; k < a.size(); k++) {
      assertThat(got2.getDouble(k)).isEqualTo(a.getDouble(k) * c.getDouble(k) - 1.0);
    }
  }
}
