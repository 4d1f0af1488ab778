package dev.cubed.plan;

import dev.cubed.nd.DType;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Where a run's results go when the caller does not want them in the JVM's heap: asked once per
 * output the run writes straight into its result (see {@link RunOptions#into}), before any task
 * runs, for a buffer the tasks then copy their blocks into (one copy from task to result, e.g. a
 * memory-mapped file another process reads). An output given a buffer comes back as {@code null} in
 * {@link PlanResult#outputs()}: its elements are in the buffer, C order, in {@code dtype}'s
 * little-endian layout (complex: real and imaginary parts; bool: one byte 0 or 1).
 *
 * <p>Outputs the run does not write straight (a resumed run, an output that another op reads, an
 * executor whose tasks run in other processes, an irregular grid, a tiny plan run inline) are not
 * asked and come back as arrays, as without buffers.
 */
@FunctionalInterface
public interface ResultBuffers {
  /**
   * A buffer for output {@code output} (its position in the plan's outputs) of {@code dtype} and
   * {@code shape}: exactly {@code dtype.itemSize()} times the element count bytes of capacity, or
   * {@code null} to receive that output as an array. The buffer's byte order and position do not
   * matter; it is written at absolute offsets from several threads, in disjoint ranges.
   */
  ByteBuffer buffer(int output, DType dtype, long[] shape);

  /**
   * The file behind output {@code output}'s buffer (asked after {@link #buffer}), or null (the
   * default): when the buffer maps a file, the run writes its long contiguous runs (64 KB and more)
   * into the file with positional writes instead of through the mapping, which spares the page
   * fault that the first write of each page of a fresh mapping takes; shorter runs, and reads, go
   * through the buffer. Written from several threads, in disjoint ranges; never closed by the run.
   */
  default FileChannel channel(int output) {
    return null;
  }
}
