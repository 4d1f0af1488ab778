package dev.cubed.plan;

import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.PlanConfig;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.Stores;
import java.util.List;

/**
 * The memory model's buffer copies of a plan: the largest {@link ZarrArray#readCopies()} over the
 * arrays the plan reads (stored inputs, targets) and {@link ZarrArray#writeCopies()} over those it
 * writes (targets, and the intermediates in the work directory, which use the default codec). A
 * plan on local files with the default codec (Blosc-LZ4, streamed) keeps no read copy (chunks are
 * decoded from their files a block at a time) and 1 write copy; a plan touching an object store
 * counts its transport buffer both ways (2 each), which also shrinks the rechunk budget from /5 to
 * /7 (see {@link PlanConfig#rechunkBudget()}); an array with another codec counts that codec's
 * buffers (e.g. zstd: 2 read, 4 write).
 */
final class StoreCopies {
  private StoreCopies() {}

  /** {@code cfg} with its copies raised to the largest buffer copies of the plan's arrays. */
  static PlanConfig apply(PlanConfig cfg, List<ArrayNode> topo) {
    // a store's transport buffers count both ways for the whole plan (as before codecs were
    // counted); intermediates use the default codec in the work directory's store
    int store = cfg.localWorkDir() ? 1 : Stores.open(cfg.workDir()).bufferCopies();
    for (ArrayNode n : topo) {
      ZarrArray a = stored(n);
      if (a != null) {
        store = Math.max(store, a.store().bufferCopies());
      }
    }
    // all local: intermediates (the default codec in a local directory) are decoded from their
    // files a block at a time, with no copy of their stored bytes, and written from one buffer
    int read = store > 1 ? store : cfg.localWorkDir() ? 0 : 1;
    int write = store;
    for (ArrayNode n : topo) {
      if (n instanceof ArrayNode.Stored s) {
        read = Math.max(read, s.array().readCopies());
      } else if (stored(n) != null) { // a target: written, and read by a resumed region write
        write = Math.max(write, stored(n).writeCopies());
        read = Math.max(read, stored(n).readCopies());
      }
    }
    return cfg.withMinCopies(read, write);
  }

  /** The stored input or target array of a node, or null. */
  private static ZarrArray stored(ArrayNode n) {
    return n instanceof ArrayNode.Stored s
        ? s.array()
        : n instanceof ArrayNode.Computed c
            ? c.target()
            : n instanceof ArrayNode.Rechunked r ? r.target() : null;
  }
}
