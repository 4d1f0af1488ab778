package dev.cubed.diagnostics;

import dev.cubed.plan.Plan;
import dev.cubed.plan.PlanCallback;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Draws the plan of each compute it is passed to ({@link PlanPicture#write}) before the compute
 * runs. The first compute's picture goes to the given file, later ones to {@code name-2.svg},
 * {@code name-3.svg}, ... Each result (and the reason when no SVG could be rendered) is passed to a
 * reporter, by default a line on standard error.
 */
public final class VisualizeCallback implements PlanCallback {
  private final Path file;
  private final Consumer<String> report;
  private int count;
  private volatile PlanPicture.Result last;

  /** Pictures to {@code file}, results reported on standard error. */
  public VisualizeCallback(Path file) {
    this(file, System.err::println);
  }

  /** Pictures to {@code file}, results reported to {@code report}. */
  public VisualizeCallback(Path file, Consumer<String> report) {
    this.file = file;
    this.report = report;
  }

  /** The last picture written, or null before the first compute. */
  public PlanPicture.Result last() {
    return last;
  }

  @Override
  public synchronized void onPlan(Plan plan) {
    count++;
    Path f = file;
    if (count > 1) {
      String n = file.getFileName().toString();
      int dot = n.lastIndexOf('.');
      f =
          file.resolveSibling(
              dot > 0 ? n.substring(0, dot) + "-" + count + n.substring(dot) : n + "-" + count);
    }
    PlanPicture.Result r = PlanPicture.write(plan, f);
    last = r;
    report.accept(
        r.svg()
            ? "plan picture: " + r.file() + " (DOT source: " + r.dotFile() + ")"
            : r.note() != null ? "plan picture: " + r.note() : "plan picture (DOT): " + r.file());
  }
}
