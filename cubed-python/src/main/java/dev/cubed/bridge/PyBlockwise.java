package dev.cubed.bridge;

import dev.cubed.CubedArray;
import dev.cubed.Xp;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.KeyFunction;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * The bridge function {@code pyBlockwise(payload, python, [path], [handles], [axes per input],
 * outShape, outChunks, dtype, extraProjectedMem, workerOverhead, label)}: a lazy op of the plan
 * whose tasks run a Python function ({@link PyFunction}) in Python worker processes. Nothing runs
 * now.
 *
 * <p>{@code axes[i][d]} is the output axis that axis d of input i follows (its block index is the
 * output block's index there), or -1 for an axis the output lacks; an axis with one block is read
 * as block 0 whatever the output's index (broadcast). The output's regular grid is {@code outShape}
 * in {@code outChunks}.
 *
 * <p>Projected memory of a task, checked against allowedMem before anything runs (the engine's
 * {@code MemoryBudgetExceededException}): the engine's blockwise rule for the JVM side (reserved
 * memory, each input block read, the output block written) plus, as the op's extra memory, the
 * Python side: each input block and the output block again (the worker's copies), {@code
 * extraProjectedMem} (what the function allocates beyond them), {@code workerOverhead} (the
 * interpreter with NumPy and the function's modules), and the largest block once more for the
 * {@code .npy} bytes the JVM encodes or decodes at a time.
 */
final class PyBlockwise {
  private PyBlockwise() {}

  static Object apply(Calls.Session s, List<Object> a) throws Exception {
    if (a.size() != 11) {
      throw new IllegalArgumentException("pyBlockwise: expected 11 arguments, got " + a.size());
    }
    NDArray payload = (NDArray) a.get(0);
    if (payload == null || payload.dtype() != DType.UINT8 || payload.ndim() != 1) {
      throw new IllegalArgumentException("pyBlockwise: the payload must be a 1-D uint8 array");
    }
    byte[] bytes = (byte[]) payload.data();
    String python = (String) a.get(1);
    List<String> path = new ArrayList<>();
    for (Object p : (List<?>) a.get(2)) {
      path.add((String) p);
    }
    List<?> hs = (List<?>) a.get(3);
    List<?> axesList = (List<?>) a.get(4);
    long[] outShape = (long[]) a.get(5);
    long[] outChunks = (long[]) a.get(6);
    DType dtype = (DType) a.get(7);
    long extra = (Long) a.get(8);
    long overhead = (Long) a.get(9);
    String label = (String) a.get(10);
    if (hs.isEmpty() || hs.size() != axesList.size()) {
      throw new IllegalArgumentException(
          "pyBlockwise: one axes list per input array is needed (" + hs.size() + " arrays)");
    }
    if (outShape.length != outChunks.length || extra < 0 || overhead < 0) {
      throw new IllegalArgumentException(
          "pyBlockwise: outShape and outChunks differ in length, or a negative memory figure");
    }
    long[] outBlocks = new long[outShape.length];
    for (int d = 0; d < outShape.length; d++) {
      outChunks[d] = Math.max(1, Math.min(outChunks[d], Math.max(1, outShape[d])));
      outBlocks[d] = outShape[d] == 0 ? 1 : (outShape[d] + outChunks[d] - 1) / outChunks[d];
    }
    CubedArray[] xs = new CubedArray[hs.size()];
    int[][] axes = new int[xs.length][];
    long[][] inBlocks = new long[xs.length][];
    long inBytes = 0;
    long largest = chunkBytes(outChunks, dtype);
    for (int i = 0; i < xs.length; i++) {
      xs[i] = s.get(hs.get(i), "pyBlockwise");
      long[] ax = (long[]) axesList.get(i);
      inBlocks[i] = xs[i].numBlocks();
      if (ax.length != xs[i].ndim()) {
        throw new IllegalArgumentException(
            "pyBlockwise: input "
                + i
                + " has "
                + xs[i].ndim()
                + " axes, its axes list "
                + ax.length);
      }
      axes[i] = new int[ax.length];
      for (int d = 0; d < ax.length; d++) {
        axes[i][d] = (int) ax[d];
        boolean one = inBlocks[i][d] == 1;
        if (ax[d] < 0
            ? !one
            : ax[d] >= outShape.length || (!one && inBlocks[i][d] != outBlocks[(int) ax[d]])) {
          throw new IllegalArgumentException(
              "pyBlockwise ("
                  + label
                  + "): axis "
                  + d
                  + " of input "
                  + i
                  + " has "
                  + inBlocks[i][d]
                  + " blocks, the output "
                  + (ax[d] < 0
                      ? "lacks that axis (it must be one block: rechunk it)"
                      : "has "
                          + (ax[d] < outShape.length ? outBlocks[(int) ax[d]] : 0)
                          + " blocks along it"));
        }
      }
      long b = chunkBytes(xs[i].chunkShape(), xs[i].dtype());
      inBytes += b;
      largest = Math.max(largest, b);
    }
    long outBytes = chunkBytes(outChunks, dtype);
    // the task's baseline is counted once: the engine's rule counts reservedMem (the baseline of
    // the process running a task); a Python worker's own baseline (the overhead) replaces it where
    // larger. Every copy of a block, in the JVM and in the worker, is counted.
    long pythonSide =
        inBytes + outBytes + extra + Math.max(0, overhead - xs[0].spec().reservedMem());
    int[] ones = new int[xs.length];
    Arrays.fill(ones, 1);
    PyFunction f =
        new PyFunction(
            digest(bytes),
            bytes,
            python,
            List.copyOf(path),
            label,
            dtype,
            outShape.clone(),
            outChunks.clone(),
            xs[0].spec().allowedMem());
    Blockwise op =
        new Blockwise(
            "py_" + label.replaceAll("[^A-Za-z0-9_]", "_"),
            new Keys(axes, inBlocks),
            f,
            ones,
            ones.clone(),
            pythonSide + largest);
    return Xp.blockwise(op, outShape, outChunks, dtype, xs);
  }

  private static long chunkBytes(long[] chunks, DType dtype) {
    long n = dtype.itemSize();
    for (long c : chunks) {
      n = Math.multiplyExact(n, Math.max(1, c));
    }
    return n;
  }

  private static String digest(byte[] b) throws NoSuchAlgorithmException {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
  }

  /** Output block to the input blocks: per input axis, the output's index there or 0. */
  private record Keys(int[][] axes, long[][] inBlocks) implements KeyFunction {
    @Override
    public List<BlockKeys> keys(long[] c) {
      List<BlockKeys> l = new ArrayList<>(axes.length);
      for (int i = 0; i < axes.length; i++) {
        long[] k = new long[axes[i].length];
        for (int d = 0; d < k.length; d++) {
          k[d] = axes[i][d] < 0 || inBlocks[i][d] == 1 ? 0 : c[axes[i][d]];
        }
        l.add(BlockKeys.one(k));
      }
      return l;
    }
  }
}
