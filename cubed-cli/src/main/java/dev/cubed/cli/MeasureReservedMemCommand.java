package dev.cubed.cli;

import dev.cubed.runtime.processes.ProcessesExecutor;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ./cubed measure-reserved-mem [--allowed-mem M]}: starts one worker JVM as the processes
 * executor does (heap bound = allowedMem), runs an empty task in it and reports the idle worker's
 * baseline, like Python Cubed's {@code measure_reserved_mem}: the heap it holds after a GC, its
 * resident set size, and the suggested {@code --reserved-mem}. Prints a human summary on standard
 * error and one JSON line on standard output.
 */
@Command(
    name = "measure-reserved-mem",
    mixinStandardHelpOptions = true,
    description =
        "Measure an idle processes-executor worker (heap after GC, RSS) and suggest "
            + "--reserved-mem.")
final class MeasureReservedMemCommand implements Callable<Integer> {
  @Option(
      names = "--allowed-mem",
      defaultValue = "2GB",
      paramLabel = "SIZE",
      description = "the worker heap bound to measure with (default: ${DEFAULT-VALUE})")
  String allowedMem;

  @Spec CommandSpec cmd;

  /**
   * The suggested reservedMem: the worker's resident set after an empty task (JVM code, metaspace,
   * thread stacks, GC structures and its idle heap), rounded up to 10 MB.
   */
  static long suggested(ProcessesExecutor.WorkerBaseline b) {
    long rss = Math.max(b.idleRss(), b.rssAfterEmptyTask());
    long base = rss > 0 ? rss : b.idleHeap() + (64L << 20);
    long ten = 10_000_000L;
    return (base + ten - 1) / ten * ten;
  }

  @Override
  public Integer call() {
    long allowed = Cli.memOption(cmd, "--allowed-mem", allowedMem);
    if (allowed < 64L << 20) {
      throw Cli.usage(
          cmd,
          "--allowed-mem: " + allowedMem + " is below 64MiB, the smallest" + " worker heap bound");
    }
    ProcessesExecutor.WorkerBaseline b = ProcessesExecutor.measureWorkerBaseline(allowed);
    long s = suggested(b);
    PrintWriter err = cmd.commandLine().getErr();
    err.printf(Locale.ROOT, "worker heap bound (-Xmx)        %,d bytes%n", b.heapBound());
    err.printf(Locale.ROOT, "idle worker heap after GC       %,d bytes%n", b.idleHeap());
    err.printf(Locale.ROOT, "idle worker RSS                 %,d bytes%n", b.idleRss());
    err.printf(Locale.ROOT, "RSS after an empty task         %,d bytes%n", b.rssAfterEmptyTask());
    err.printf(Locale.ROOT, "empty task's measured heap      %,d bytes%n", b.emptyTaskMeasured());
    err.printf(
        Locale.ROOT, "suggested --reserved-mem        %,d bytes (%d MB)%n", s, s / 1_000_000);
    err.flush();
    PrintWriter out = cmd.commandLine().getOut();
    out.printf(
        Locale.ROOT,
        "{\"command\": \"measure-reserved-mem\", \"heap_bound\": %d, "
            + "\"idle_heap_bytes\": %d, \"idle_rss_bytes\": %d, \"rss_after_empty_task_bytes\": %d, "
            + "\"empty_task_measured_bytes\": %d, \"suggested_reserved_mem\": %d}%n",
        b.heapBound(),
        b.idleHeap(),
        b.idleRss(),
        b.rssAfterEmptyTask(),
        b.emptyTaskMeasured(),
        s);
    out.flush();
    return 0;
  }
}
