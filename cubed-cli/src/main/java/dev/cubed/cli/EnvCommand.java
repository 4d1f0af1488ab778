package dev.cubed.cli;

import com.sun.management.HotSpotDiagnosticMXBean;
import dev.cubed.JvmOptions;
import dev.cubed.Spec;
import dev.cubed.nd.elementwise.FastTrig;
import dev.cubed.nd.linalg.Linalg;
import dev.cubed.runtime.ExecutorFactory;
import java.io.PrintWriter;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * {@code ./cubed env}: prints the runtime the commands run in, one {@code key: value} line each:
 * the version, the Java runtime, processors, the JVM's maximum heap, collector and page size,
 * whether float64 sin/cos use the Vector API, which BLAS matmul uses, the available executors and
 * the default work directory. What to attach to a bug report, and how to check that the launcher's
 * settings took effect: with {@code --allowed-mem} and {@code --workers} (read by the launcher,
 * which derives the heap from them as for any command) it also prints the heap those options give,
 * and the JVM options a program embedding the engine should start with for that spec ({@link
 * JvmOptions#line}, with {@code --reserved-mem} or the spec default).
 */
@Command(
    name = "env",
    mixinStandardHelpOptions = true,
    description =
        "Print the runtime the commands run in: Java, heap, collector, Vector API, "
            + "BLAS, executors, work directory.")
final class EnvCommand implements Callable<Integer> {

  @Option(
      names = "--allowed-mem",
      description =
          "the memory a task may use, as given to other "
              + "commands (e.g. 500MB): print the heap the launcher derives from it")
  String allowedMem;

  @Option(
      names = "--workers",
      description = "tasks at a time, as given to other commands " + "(default: one per processor)")
  Integer workers;

  @Option(
      names = "--reserved-mem",
      description =
          "the worker's own memory counted in every "
              + "task (default: the spec default, 100MB): used for the JVM options line")
  String reservedMem;

  @picocli.CommandLine.Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    for (String line : lines()) {
      out.println(line);
    }
    if (workers != null && workers < 0) {
      throw Cli.usage(
          spec,
          "--workers: "
              + workers
              + " is negative (e.g. --workers 2; 0 or no"
              + " --workers: one per processor)");
    }
    if (reservedMem != null && allowedMem == null) {
      throw Cli.usage(
          spec,
          "--reserved-mem needs --allowed-mem (e.g. --allowed-mem 500MB"
              + " --reserved-mem 100MB)");
    }
    if (allowedMem != null) {
      long allowed = Cli.memOption(spec, "--allowed-mem", allowedMem);
      long reserved =
          reservedMem == null
              ? Spec.DEFAULT_RESERVED_MEM
              : Cli.memOption(spec, "--reserved-mem", reservedMem);
      if (reservedMem != null) {
        Cli.checkMem(spec, allowed, reserved, true);
      }
      int w = workers != null && workers > 0 ? workers : Runtime.getRuntime().availableProcessors();
      out.println(
          "heap for --allowed-mem "
              + allowedMem
              + " on "
              + w
              + " workers: "
              + (w * allowed / (1024 * 1024) + 192)
              + " MiB (workers x allowed-mem + 192 MiB; "
              + "bench sizes it from its plan instead, CUBED_HEAP overrides both)");
      if (allowed <= reserved) {
        // the CLI measures its workers' reserved memory; a library Spec's default is fixed
        out.println(
            "jvm options: none: a library Spec with allowedMem "
                + Cli.bytes(allowed)
                + " and the default reservedMem "
                + Cli.bytes(reserved)
                + " leaves tasks no room"
                + " (its computes are refused); give --reserved-mem or a larger --allowed-mem");
      } else {
        Spec s = Spec.builder().allowedMem(allowed).reservedMem(reserved).workers(w).build();
        out.println("jvm options: " + JvmOptions.line(s));
        out.println(
            "  (for a program embedding the engine with this spec and the threads"
                + " executor: paste into a java command or JAVA_TOOL_OPTIONS; docs/library.md)");
      }
    }
    out.flush();
    return 0;
  }

  /** Whether the heap uses transparent huge pages (the launcher asks where Linux offers them). */
  private static String hugePages() {
    try {
      HotSpotDiagnosticMXBean hs =
          ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
      return "true".equals(hs.getVMOption("UseTransparentHugePages").getValue())
          ? "transparent huge pages for the heap"
          : "no (regular pages)";
    } catch (RuntimeException e) {
      return "unknown (" + e.getMessage() + ")";
    }
  }

  /** The lines {@link #call()} prints. */
  static List<String> lines() {
    Runtime rt = Runtime.getRuntime();
    List<String> collectors =
        ManagementFactory.getGarbageCollectorMXBeans().stream()
            .map(GarbageCollectorMXBean::getName)
            .toList();
    return List.of(
        "cubed: " + Main.class.getAnnotation(Command.class).version()[0].replace("cubed ", ""),
        "java: "
            + System.getProperty("java.vm.name")
            + " "
            + System.getProperty("java.version")
            + " ("
            + System.getProperty("java.vendor")
            + ") at "
            + System.getProperty("java.home"),
        "processors: " + rt.availableProcessors(),
        "max heap: " + rt.maxMemory() / (1024 * 1024) + " MiB",
        "collector: " + String.join(", ", collectors),
        "huge pages: " + hugePages(),
        "vector api: "
            + (FastTrig.vectorized()
                ? "in use (float64 sin and cos)"
                : "not in use (start the JVM with --add-modules jdk.incubator.vector; the ./cubed "
                    + "launcher does)"),
        "blas: " + Linalg.blasImplementation().replaceFirst("^BLAS implementation ", ""),
        "executors: " + String.join(" ", ExecutorFactory.available()),
        "work dir: " + Spec.defaults().workDir());
  }
}
