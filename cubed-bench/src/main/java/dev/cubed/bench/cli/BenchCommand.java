package dev.cubed.bench.cli;

import dev.cubed.bench.workload.BenchContext;
import dev.cubed.bench.workload.BenchResult;
import dev.cubed.bench.workload.InputSet;
import dev.cubed.bench.workload.Workload;
import dev.cubed.bench.workload.Workloads;
import dev.cubed.cli.Cli;
import dev.cubed.cli.DiagnosticsOptions;
import dev.cubed.cli.ExecutorOptions;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ./cubed bench WORKLOAD --size small|medium [--executor NAME] [--workers N] [--allowed-mem
 * M] [--work-dir D] [--no-fusion] [--set KEY=VALUE...] [--warmup N] [--inputs engine|zarr-python
 * --inputs-dir DIR]}: runs one workload of docs/benchmarks.md (quadratic_means, add, matmul,
 * rechunk, reduce; also quadratic_means_read, the read-once floor of quadratic_means) and prints
 * its one JSON line on standard output. Stored inputs are written once and cached under the work
 * directory, outside the timed phase.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = {
      "Run one end-to-end benchmark workload and print its JSON line.",
      "The workloads (inputs, formulas, sizes, checksums) are described in docs/benchmarks.md"
          + " of the repository; scripts/perf/side-by-side.sh sets them beside NumPy, Dask and"
          + " Python Cubed."
    })
public final class BenchCommand implements Callable<Integer> {

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "WORKLOAD",
      description =
          "quadratic_means, add, matmul, rechunk or reduce (or quadratic_means_read:"
              + " read and sum U and V of quadratic_means once, its floor)")
  String workload;

  @Option(
      names = "--size",
      defaultValue = "small",
      description = "small or medium " + "(default: ${DEFAULT-VALUE})")
  String size;

  @picocli.CommandLine.Mixin ExecutorOptions exec = new ExecutorOptions();

  @Option(
      names = "--allowed-mem",
      defaultValue = "2GB",
      description = "memory a task may use, e.g. 2GB, 500MB (default: ${DEFAULT-VALUE})")
  String allowedMem;

  @Option(
      names = "--work-dir",
      description = "work directory (default: java.io.tmpdir/cubed-bench)")
  Path workDir;

  @Option(
      names = "--set",
      paramLabel = "KEY=VALUE",
      description =
          "override a size parameter, "
              + "e.g. --set T=400 (the size is then reported as e.g. small+T=400)")
  Map<String, Long> overrides = new LinkedHashMap<>();

  @Option(
      names = "--no-fusion",
      description =
          "write every intermediate array (the engine's "
              + "fusion limit set to 0 input blocks); the executor is then reported as NAME+nofusion")
  boolean noFusion;

  @Option(
      names = "--warmup",
      defaultValue = "0",
      description =
          "untimed runs in the same JVM "
              + "before the measured one, to separate JIT warm-up (default: ${DEFAULT-VALUE})")
  int warmup;

  @Option(
      names = "--plan-heap",
      description =
          "write the inputs, plan the workload without "
              + "running it and print the JVM heap its run needs on the threads executor "
              + "(plan-heap-bytes N); ./cubed uses it to size the heap of a bench run from its plan")
  boolean planHeap;

  @Option(
      names = "--inputs",
      defaultValue = "engine",
      paramLabel = "SET",
      description =
          "where the inputs come from: engine (the bench's own: stored inputs written by"
              + " the engine and cached under the work directory, generated ones made in the tasks) or"
              + " zarr-python (every input read from the arrays scripts/perf/"
              + "write_inputs_zarr_python.py wrote under --inputs-dir); reported in the JSON line's"
              + " inputs field (default: ${DEFAULT-VALUE})")
  String inputs;

  @Option(
      names = "--inputs-dir",
      paramLabel = "DIR",
      description =
          "the directory of"
              + " --inputs zarr-python: DIR/WORKLOAD-SIZE/NAME, e.g. DIR/add-medium/A")
  Path inputsDir;

  @Option(names = "--list-executors", description = "print the available executor names and exit")
  boolean listExecutors;

  @Mixin DiagnosticsOptions diagnostics;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    if (listExecutors) {
      out.println(String.join(" ", Workloads.executors()));
      out.flush();
      return 0;
    }
    if (workload == null) {
      throw Cli.usage(spec, "missing WORKLOAD: one of " + String.join(", ", Workloads.names()));
    }
    Workload w;
    try {
      w = Workloads.byName(workload);
    } catch (IllegalArgumentException e) {
      throw Cli.usage(
          spec,
          "WORKLOAD: unknown workload '"
              + workload
              + "'; known: "
              + String.join(", ", Workloads.names()));
    }
    if (!size.equals("small") && !size.equals("medium")) {
      throw Cli.usage(spec, "--size: '" + size + "' is not small or medium");
    }
    exec.validate(spec);
    if (warmup < 0) {
      throw Cli.usage(spec, "--warmup: " + warmup + " must be 0 or more");
    }
    long allowed = Cli.memOption(spec, "--allowed-mem", allowedMem);
    Path dir = workDir != null ? workDir : BenchContext.defaults().workDir();
    BenchContext ctx =
        new BenchContext(
            exec.executor(),
            exec.effectiveWorkers(),
            allowed,
            dir,
            noFusion ? BenchContext.Fusion.OFF : BenchContext.Fusion.ON,
            exec.attempts(),
            exec.executorOptions());
    if (!InputSet.NAMES.contains(inputs)) {
      throw Cli.usage(
          spec, "--inputs: '" + inputs + "' is not " + String.join(" or ", InputSet.NAMES));
    }
    if (inputs.equals("zarr-python") != (inputsDir != null)) {
      throw Cli.usage(
          spec,
          inputsDir == null
              ? "--inputs zarr-python needs --inputs-dir DIR (where scripts/perf/"
                  + "write_inputs_zarr_python.py wrote the inputs)"
              : "--inputs-dir is read with --inputs zarr-python only");
    }
    if (inputsDir != null && !overrides.isEmpty()) {
      throw Cli.usage(
          spec,
          "--set: the zarr-python inputs have the named sizes only; drop --set"
              + " or use --inputs engine");
    }
    ctx = ctx.withInputSet(InputSet.parse(inputs, inputsDir));
    Map<String, Long> params = new LinkedHashMap<>(w.params(size));
    StringBuilder label = new StringBuilder(size);
    for (Map.Entry<String, Long> e : overrides.entrySet()) {
      if (!params.containsKey(e.getKey())) {
        throw Cli.usage(
            spec,
            "--set "
                + e.getKey()
                + " is not a parameter of "
                + workload
                + " (parameters: "
                + String.join(", ", params.keySet())
                + ")");
      }
      params.put(e.getKey(), e.getValue());
      label.append('+').append(e.getKey()).append('=').append(e.getValue());
    }
    if (planHeap) {
      out.println("plan-heap-bytes " + Workloads.planHeap(w, params, ctx));
      out.flush();
      return 0;
    }
    for (int i = 0; i < warmup; i++) {
      Workloads.run(w, label.toString(), params, ctx);
    }
    BenchResult r = Workloads.run(w, label.toString(), params, ctx, diagnostics.callbacks(false));
    diagnostics.reportWritten();
    out.println(r.toJson());
    out.flush();
    return 0;
  }

  /**
   * A memory size as {@link dev.cubed.Spec#parseBytes} reads it, with the option named on error.
   */
  static long parseBytes(String text) {
    try {
      return dev.cubed.Spec.parseBytes(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("bench: --allowed-mem: " + e.getMessage(), e);
    }
  }
}
