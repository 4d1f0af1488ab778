package dev.cubed.runtime;

import java.util.List;

/**
 * JVM options that keep the JIT's optimizing compiler off the per-tile drivers of tiled reductions
 * ({@code dev.cubed.plan.eval.TiledEvaluation}, named here as text: the code that cuts a block into
 * tiles, runs the chain's pointwise ops on each and merges the tile states) until they have run
 * twenty times as often as the JVM's default thresholds ask.
 *
 * <p>Those drivers are called once per tile per chain (about 4,400 times for a 1.15 GB float64
 * array in 256 KiB tiles) and do little per call: the element loops they call are separate methods,
 * compiled on their own. With the default thresholds the optimizing compiler takes them up after a
 * few thousand calls, that is in the middle of a typical run, and inlines every kernel they reach
 * into them: 0.3-0.9 s of compiler CPU per fresh JVM (measured with JFR's compilation events),
 * which on a machine whose cores all run tasks comes out of the tasks' time and never pays itself
 * back within the run. Scaled, they stay in the first-tier compiled code (a few microseconds per
 * tile) unless a long run calls them some 100,000 times. Results do not change, only where compiler
 * time goes. {@code quiet} keeps the JVM from echoing the command on standard output (the processes
 * executor's workers talk over it).
 *
 * <p>{@code ./cubed} and the processes executor's workers start with these; {@code ./cubed env}
 * prints them for programs embedding the engine ({@code dev.cubed.JvmOptions}).
 */
public final class TileJitOptions {
  private TileJitOptions() {}

  /**
   * The options, {@code quiet} first. The method pattern names the class by text (a test in its
   * package keeps the two in step).
   */
  public static final List<String> OPTIONS =
      List.of(
          "-XX:CompileCommand=quiet",
          "-XX:CompileCommand=option,dev.cubed.plan.eval.TiledEvaluation*::*,double,"
              + "CompileThresholdScaling,20.0");
}
