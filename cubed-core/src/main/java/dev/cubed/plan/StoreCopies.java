package dev.cubed.plan;

import dev.cubed.zarr.Stores;
import dev.cubed.zarr.ZarrArray;
import java.util.List;

/**
 * The memory model's buffer copies of a plan: the largest {@link ZarrArray#readCopies()} over the
 * arrays the plan reads (stored inputs, targets) and {@link ZarrArray#writeCopies()} over those
 * it writes (targets, and the intermediates in the work directory, which use the default codec).
 * A plan on local files with the default codec (Blosc-LZ4, streamed) keeps 1 read and 1 write
 * copy; an object store adds its transport buffer (2 each), which also shrinks the rechunk budget
 * from /5 to /7 (see {@link PlanConfig#rechunkBudget()}); an array with another codec counts that
 * codec's buffers (e.g. zstd: 2 read, 4 write).
 */
final class StoreCopies {
  private StoreCopies() {}

  /** {@code cfg} with its copies raised to the largest buffer copies of the plan's arrays. */
  static PlanConfig apply(PlanConfig cfg, List<ArrayNode> topo) {
    // intermediates use the default codec (1 copy each way) in the work directory's store
    int work = cfg.localWorkDir() ? 1 : Stores.open(cfg.workDir()).bufferCopies();
    int read = work;
    int write = work;
    for (ArrayNode n : topo) {
      if (n instanceof ArrayNode.Stored s) {
        read = Math.max(read, s.array().readCopies());
      }
      ZarrArray t = n instanceof ArrayNode.Computed c ? c.target()
          : n instanceof ArrayNode.Rechunked r ? r.target() : null;
      if (t != null) {
        write = Math.max(write, t.writeCopies());
        // a resumed or region write reads the target too
        read = Math.max(read, t.readCopies());
      }
    }
    return cfg.withMinCopies(read, write);
  }
}
