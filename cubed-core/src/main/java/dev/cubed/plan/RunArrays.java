package dev.cubed.plan;

import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.eval.Evaluator;
import dev.cubed.plan.eval.HeldBlocks;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.ZarrArrayBuilder;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.store.Store;
import java.util.Arrays;
import java.util.Map;

/**
 * The Zarr arrays a run of a plan creates in its compute directory's store: intermediates, outputs
 * without a target, and copies of in-memory inputs for tasks in other JVMs.
 *
 * <p>Intermediate arrays get a crc32c checksum per chunk (Zarr v3's crc32c codec after the
 * compressor) unless the plan's {@code PlanConfig.intermediateChecksums()} is off (for measuring
 * its cost only, docs/performance.md, "Checksums"): a chunk changed between the op that wrote it
 * and the op that reads it then fails the reading task (a ChecksumMismatchException naming the
 * chunk, the array and the store) instead of giving a wrong answer. An array kept by an earlier run
 * of the same plan and reopened on resume keeps the codecs it was created with.
 */
final class RunArrays {
  private final Plan plan;

  RunArrays(Plan plan) {
    this.plan = plan;
  }

  /**
   * Chunks of at most this many bytes are stored uncompressed in a local work directory ({@link
   * #create}).
   */
  static final long SMALL_CHUNK = 256 << 10;

  /** The array of a regular computed array without a target (an output or an intermediate). */
  ZarrArray output(Store store, ArrayNode.Computed c) {
    return create(store, c.name(), c.shape(), c.chunks(), c, outputCompression(c));
  }

  /**
   * The array of {@code c} as a run stores it: {@link #output} if regular, else {@link #padded}.
   */
  ZarrArray regularOrPadded(Store store, ArrayNode.Computed c) {
    return c.isRegular() ? output(store, c) : padded(store, c.name(), c);
  }

  /**
   * Compression of a computed array: none for an output without a target on a local work directory
   * (read back whole by the caller right after the run, so compressing it would only cost time:
   * random float data barely compresses), else the default (null).
   */
  private Compression outputCompression(ArrayNode.Computed c) {
    return plan.isOutput(c) && plan.cfg.localWorkDir() ? Compression.none() : null;
  }

  /** The array at {@code path} of {@code n}'s shape and dtype, chunked {@code chunks}. */
  ZarrArray create(Store store, String path, ArrayNode n, long[] chunks) {
    return create(store, path, n.shape(), chunks, n, null);
  }

  /**
   * The array at {@code path} of {@code shape} and {@code n}'s dtype, chunked {@code chunks} (each
   * clamped to 1..the axis's length), compressed by {@code compression} (null: the default, or none
   * for chunks of at most {@link #SMALL_CHUNK} bytes in a local work directory). An array of the
   * same shape, chunks and dtype already at {@code path} (kept by an earlier run of this plan, for
   * a resume) is reopened with its contents; anything else there is overwritten.
   */
  ZarrArray create(
      Store store, String path, long[] shape, long[] chunks, ArrayNode n, Compression compression) {
    long[] c = chunks.clone();
    for (int i = 0; i < c.length; i++) {
      c[i] = Math.max(1, Math.min(c[i], Math.max(1, shape[i])));
    }
    if (store.exists(path + "/zarr.json")) { // kept by an earlier run of this plan (resume)
      ZarrArray z = ZarrArray.open(store, path);
      if (Arrays.equals(z.shape(), shape)
          && Arrays.equals(z.chunks(), c)
          && z.dtype() == n.dtype()) {
        return z.asIntermediate();
      }
    }
    if (compression == null
        && plan.cfg.localWorkDir()
        && Shapes.size(c) * n.dtype().itemSize() <= SMALL_CHUNK) {
      // small chunks (a reduction's per-block states): compressing them saves a few kilobytes of
      // a local disk and costs a shuffle and an LZ4 pass each way, whose code a short run spends
      // more time compiling than running
      compression = Compression.none();
    }
    ZarrArrayBuilder b =
        ZarrArray.create(store, path)
            .shape(shape)
            .chunks(c)
            .dtype(n.dtype())
            .compression(compression)
            .overwrite();
    if (plan.cfg.intermediateChecksums()) {
      b.crc32c();
    }
    return b.build().asIntermediate();
  }

  /**
   * Storage of an irregular array: block i of an axis in chunk i, chunks = the largest blocks, each
   * block written padded to a chunk ({@link Evaluator#pad}).
   */
  ZarrArray padded(Store store, String path, ArrayNode n) {
    long[] c = n.chunks();
    long[] g = n.numBlocks();
    long[] shape = new long[c.length];
    for (int i = 0; i < c.length; i++) {
      shape[i] = g[i] * c[i];
    }
    return create(store, path, shape, c, n, null);
  }

  /**
   * Writes each in-memory input ({@link HeldBlocks}) of the plan to {@code store}, a block at a
   * time, in this thread, and adds it to {@code arrays}: tasks running in other JVMs read its
   * blocks from there (the evaluator reads a node it finds in {@code arrays}), and the array is not
   * shipped.
   */
  void storeHeldInputs(Store store, Map<String, ZarrArray> arrays) {
    for (ArrayNode n : plan.topo) {
      if (n instanceof ArrayNode.Virtual v && v.generator() instanceof HeldBlocks h) {
        ZarrArray z =
            v.isRegular() ? create(store, v.name(), v, v.chunks()) : padded(store, v.name(), v);
        for (long[] key : PlanRun.allBlocks(v.numBlocks())) {
          NDArray b = h.generate(key.clone(), v.blockShape(key));
          z.writeChunk(key, v.isRegular() ? b : Evaluator.pad(b, v.chunks()));
        }
        arrays.put(v.name(), z);
      }
    }
  }
}
