package dev.cubed.cli;

import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.plan.MemoryBudgetExceededException;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.zarr.ZarrArray;
import java.io.PrintWriter;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The dry runs ({@code --dry-run} of {@code demo} and {@code rechunk}): the plan a real run would
 * execute, its totals and whether it fits, then one JSON line. {@code demo} plans Quadratic Means
 * at any size on metadata-only inputs. Nothing is run or written, and nothing is allocated in
 * proportion to the arrays: planning time grows with the number of ops and tasks, not bytes.
 */
final class DryRun {
  private DryRun() {}

  /**
   * Prints a plan summary, its totals and whether every task fits {@code allowedMem}: the part
   * every dry run shares.
   */
  static void printPlan(PrintWriter out, PlanSummary s, long allowedMem, double planMillis) {
    out.print(s);
    PlanSummary.OpInfo heaviest =
        s.ops().stream()
            .max(Comparator.comparingLong(PlanSummary.OpInfo::projectedMem))
            .orElse(null);
    out.printf(
        Locale.ROOT,
        "Totals: %d ops, %,d tasks; reads %s, writes %s, of which %s"
            + " intermediate; largest projected memory per task %s%s against --allowed-mem %s:"
            + " %s%n",
        s.ops().size(),
        s.totalTasks(),
        PlanSummary.bytes(s.totalBytesRead()),
        PlanSummary.bytes(s.totalBytesWritten()),
        PlanSummary.bytes(s.intermediateBytesWritten()),
        PlanSummary.bytes(s.maxProjectedMem()),
        heaviest == null ? "" : " (" + heaviest.name() + ")",
        PlanSummary.bytes(allowedMem),
        s.maxProjectedMem() <= allowedMem ? "every task fits" : "DOES NOT FIT");
    out.printf(Locale.ROOT, "Planned in %.0f ms.%n", planMillis);
  }

  /**
   * Prints the plan of the demo at parameters {@code p} under {@code spec} on {@code out}.
   *
   * @return 0
   * @throws MemoryBudgetExceededException after printing, if an op's projected memory per task
   *     exceeds {@code spec.allowedMem()} (the check a real run makes before it starts)
   */
  static int print(
      PrintWriter out,
      String size,
      QuadraticMeansDemo.Params p,
      Spec spec,
      String executor,
      int splitEvery) {
    long t0 = System.nanoTime();
    ZarrArray[] in = QuadraticMeansDemo.virtualInputs(p);
    CubedArray[] means = QuadraticMeansDemo.means(in[0], in[1], spec, splitEvery);
    var plan = Cubed.plan(List.of(means));
    PlanSummary s = plan.summary();
    double ms = (System.nanoTime() - t0) / 1e6;
    long chunkBytes = (long) p.tchunk() * p.y() * p.x() * Double.BYTES;
    long chunks = 2L * ((p.t() + p.tchunk() - 1) / p.tchunk());
    out.printf(Locale.ROOT, "Dry run of demo --size %s: nothing is run or written.%n", size);
    out.printf(
        Locale.ROOT,
        "Inputs U and V: float64 (%d, 1, %d, %d), chunks (%d, 1, %d, %d):"
            + " %s in %,d chunks of %s%n",
        p.t(),
        p.y(),
        p.x(),
        p.tchunk(),
        p.y(),
        p.x(),
        PlanSummary.bytes(QuadraticMeansDemo.inputBytes(p)),
        chunks,
        PlanSummary.bytes(chunkBytes));
    out.println(
        "Outputs: mean over time of U*U, V*V and U*V, three arrays (1, "
            + p.y()
            + ", "
            + p.x()
            + "), in one compute; tree reductions merge "
            + splitEvery
            + " blocks per task");
    printPlan(out, s, spec.allowedMem(), ms);
    out.println(
        String.format(
            Locale.ROOT,
            "{\"workload\": \"quadratic_means\", \"size\": \"%s\","
                + " \"dry_run\": true, \"params\": {\"T\": %d, \"Y\": %d, \"X\": %d, \"tchunk\": %d},"
                + " \"split_every\": %d, \"executor\": \"%s\", \"allowed_mem\": %d, \"reserved_mem\": %d,"
                + " \"input_bytes\": %d, \"ops\": %d, \"tasks\": %d, \"max_projected_mem\": %d,"
                + " \"bytes_read\": %d, \"bytes_written\": %d, \"intermediate_bytes\": %d,"
                + " \"plan_millis\": %.1f}",
            size,
            p.t(),
            p.y(),
            p.x(),
            p.tchunk(),
            splitEvery,
            executor,
            spec.allowedMem(),
            spec.reservedMem(),
            QuadraticMeansDemo.inputBytes(p),
            s.ops().size(),
            s.totalTasks(),
            s.maxProjectedMem(),
            s.totalBytesRead(),
            s.totalBytesWritten(),
            s.intermediateBytesWritten(),
            ms));
    out.flush();
    plan.checkMemory();
    return 0;
  }
}
