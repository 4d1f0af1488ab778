package dev.cubed.plan;

import dev.cubed.nd.Shapes;
import dev.cubed.plan.eval.HeldBlocks;
import dev.cubed.plan.node.ArrayNode;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * The result of a plan output that is an in-memory input passed through unchanged ({@link
 * HeldBlocks}): copied whole into the caller's result buffer in one copy, with no block copy nor
 * assembled array in between.
 */
final class HeldCopy {
  private HeldCopy() {}

  /**
   * Copies the whole in-memory input {@code h} (output {@code o} of the plan, or a window of one: a
   * slice, adjacent slices joined) into {@code buf} (little-endian, C order), its long runs through
   * {@code channel} (the file behind {@code buf}, or null); false, copying nothing, when {@code
   * buf} is null (the caller gave no buffer).
   *
   * @throws IllegalArgumentException when {@code buf}'s capacity is not the output's size in bytes
   */
  static boolean into(HeldBlocks h, ArrayNode o, ByteBuffer buf, FileChannel channel) {
    if (buf == null) {
      return false;
    }
    long nbytes = Shapes.size(o.shape()) * o.dtype().itemSize();
    if (buf.capacity() != nbytes) {
      throw new IllegalArgumentException(
          "the result buffer for "
              + o.name()
              + " holds "
              + buf.capacity()
              + " bytes; its result"
              + " takes "
              + nbytes);
    }
    BufferRegions.putBox(
        BufferRegions.littleEndian(buf), channel, o.shape(), h.source(), h.origin());
    return true;
  }
}
