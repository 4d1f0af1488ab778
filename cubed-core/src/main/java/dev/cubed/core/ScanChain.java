package dev.cubed.core;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.eval.ChainFunction;
import java.util.List;

/**
 * The block function of a scan planned as a chain ({@link Scans}): each block is scanned on from
 * the carry of the blocks before it (the last slice of the previous output block), so the blocks
 * along the axis accumulate in NumPy's order and the input is read once.
 *
 * @param axis the scan axis
 * @param out the dtype the scan accumulates in
 * @param prod products (true) or sums (false)
 * @param lanes the threads a task reads and writes its row's blocks on ({@link #lanes()})
 */
record ScanChain(int axis, DType out, boolean prod, int lanes) implements ChainFunction {
  @Override
  public NDArray step(List<Object> args, long[] outCoords, NDArray carry) {
    return ScanKernel.scan((NDArray) args.get(0), axis, out, prod, carry);
  }

  /** {@link #step}, scanning an owned input block of the output's dtype in place. */
  @Override
  public NDArray step(List<Object> args, long[] outCoords, NDArray carry, boolean owned) {
    return ScanKernel.scan((NDArray) args.get(0), axis, out, prod, carry, owned);
  }

  /** The block's last slice along the axis: the block itself when that is its only one. */
  @Override
  public NDArray carry(NDArray block) {
    return block.shape()[axis] == 1 ? block : ScanKernel.lastSlice(block, axis);
  }
}
