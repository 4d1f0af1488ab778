package dev.cubed.primitive;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * The general blockwise primitive: every output block is computed by {@code function} from the
 * input blocks named by {@code keys}. {@code heldPerInput[i]} is the most blocks of input i held at
 * once by one task and {@code readsPerInput[i]} the most it reads in total (both known when the op
 * is built, for the memory model and the fusion limits); {@code extraMem} is op-specific buffer
 * memory (e.g. a reduction's accumulator).
 *
 * @param name a short op name ("multiply", "partial_reduce"...)
 * @param keys the key function
 * @param function the block function
 * @param heldPerInput max blocks of each input held at once
 * @param readsPerInput max blocks of each input read by one task
 * @param extraMem extra projected memory per task, bytes
 */
public record Blockwise(
    String name,
    KeyFunction keys,
    BlockwiseFunction function,
    int[] heldPerInput,
    int[] readsPerInput,
    long extraMem)
    implements Serializable {
  /** Validates the fields. */
  public Blockwise {
    Objects.requireNonNull(name);
    Objects.requireNonNull(keys);
    Objects.requireNonNull(function);
    if (heldPerInput.length != readsPerInput.length) {
      throw new IllegalArgumentException(
          "blockwise " + name + ": heldPerInput and readsPerInput must have one entry per input");
    }
  }

  /**
   * The memory model of one task of an unfused blockwise op: {@code reserved + sum_i held_i *
   * inChunk_i * (1 + readCopies) + extra + outChunk * (1 + writeCopies)}.
   */
  public long projectedMem(
      long reservedMem,
      List<Long> inputChunkBytes,
      long outChunkBytes,
      int readCopies,
      int writeCopies) {
    long m = reservedMem + extraMem + outChunkBytes * (1 + writeCopies);
    for (int i = 0; i < heldPerInput.length; i++) {
      m += heldPerInput[i] * inputChunkBytes.get(i) * (1 + readCopies);
    }
    return m;
  }
}
