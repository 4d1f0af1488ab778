package dev.cubed.plan;

import dev.cubed.zarr.Store;
import dev.cubed.zarr.Stores;
import dev.cubed.zarr.ZarrArray;
import java.util.List;

/**
 * The memory model's buffer copies of a plan: the largest {@link Store#bufferCopies()} over the
 * stores the plan reads (stored inputs) and writes (targets and the work directory of
 * intermediates). A plan on local files keeps 1 read and 1 write copy; a plan touching an object
 * store counts 2 of each, which also shrinks the rechunk budget from /5 to /7 (see {@link
 * PlanConfig#rechunkBudget()}).
 */
final class StoreCopies {
  private StoreCopies() {}

  /** {@code cfg} with its copies raised to the largest buffer copies of the plan's stores. */
  static PlanConfig apply(PlanConfig cfg, List<ArrayNode> topo) {
    int copies = cfg.localWorkDir() ? 1 : Stores.open(cfg.workDir()).bufferCopies();
    for (ArrayNode n : topo) {
      copies = Math.max(copies, copies(n instanceof ArrayNode.Stored s ? s.array() : null));
      copies = Math.max(copies, copies(n instanceof ArrayNode.Computed c ? c.target() : null));
      copies = Math.max(copies, copies(n instanceof ArrayNode.Rechunked r ? r.target() : null));
    }
    return cfg.withMinCopies(copies, copies);
  }

  private static int copies(ZarrArray a) {
    return a == null ? 1 : a.store().bufferCopies();
  }
}
