package dev.cubed.bench.userpath;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cubed.ComputeOptions;
import dev.cubed.Spec;
import dev.cubed.bench.PeakRssMonitor;
import dev.cubed.bench.workload.BenchResult;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The user-path benchmark: one expression of {@link Expressions} run through the public API only
 * ({@code Cubed}, {@code Xp}, {@code CubedArray}, {@code Spec}, the Zarr stores) on stored Zarr
 * inputs, in a JVM started the way a user starts their own program ({@code java -cp ...
 * dev.cubed.bench.userpath.UserPath ...}; also {@code ./cubed bench-user ...}). Prints one JSON
 * line with the fields of {@link BenchResult} (tasks counted by a callback; intermediate bytes and
 * projected memory, which only the planner knows, are -1) and {@code "api": "public"}.
 *
 * <pre>
 * UserPath EXPRESSION --inputs DIR [--workers N] [--allowed-mem SIZE] [--work-dir DIR]
 *     [--out DIR] [--size LABEL] [--floor]
 * </pre>
 *
 * <p>With {@code --floor} it runs the expression's read-once floor instead: its inputs read and
 * decoded once each ({@code Expressions.floor}), the same JSON line with {@code "floor": true}.
 */
public final class UserPath {
  private static final ObjectMapper JSON = new ObjectMapper();

  private UserPath() {}

  /** Runs {@link #run} with the standard streams and exits with its code. */
  public static void main(String[] args) {
    System.exit(
        run(
            "userpath",
            args,
            new PrintWriter(System.out, true),
            new PrintWriter(System.err, true)));
  }

  /**
   * Parses {@code args}, runs the expression and prints its JSON line on {@code out}.
   *
   * @param prog the program name used in messages ("cubed bench-user" from the CLI)
   * @return 0 on success, 2 on a usage error, 1 on a failure (one line on {@code err} each)
   */
  public static int run(String prog, String[] args, PrintWriter out, PrintWriter err) {
    Options o;
    try {
      o = Options.parse(args);
    } catch (IllegalArgumentException e) {
      err.println(prog + ": " + e.getMessage());
      err.flush();
      return 2;
    }
    if (o == null) {
      out.println(usage(prog));
      out.flush();
      return 0;
    }
    try {
      out.println(JSON.writeValueAsString(measure(o)));
      out.flush();
      return 0;
    } catch (RuntimeException | IOException e) {
      err.println(prog + ": " + o.expression.name() + ": " + e);
      err.flush();
      return 1;
    }
  }

  static String usage(String prog) {
    StringBuilder b =
        new StringBuilder(
            "Usage: "
                + prog
                + " EXPRESSION --inputs DIR"
                + " [--workers N] [--allowed-mem SIZE] [--work-dir DIR] [--out DIR] [--size LABEL]"
                + " [--floor]\n"
                + "Runs one user-path expression through the public API on the Zarr arrays DIR/U.zarr,"
                + " V.zarr, M.zarr, A.zarr, B.zarr, R.zarr, N.zarr and prints one JSON line"
                + " (docs/performance.md); --floor reads and decodes its inputs once instead.\n"
                + "Expressions:\n");
    for (Expressions.Expression e : Expressions.ALL) {
      b.append(
          String.format(
              "  %-16s %s (inputs %s; default --allowed-mem %s)%n",
              e.name(), e.formula(), String.join(", ", e.inputs()), e.defaultAllowedMem()));
    }
    return b.append("--workers defaults to 2; --out (written arrays) to WORK_DIR/out.").toString();
  }

  /** Runs the expression once, timed, and returns the JSON fields. */
  static Map<String, Object> measure(Options o) throws IOException {
    Spec spec =
        Spec.builder()
            .workers(o.workers)
            .allowedMem(o.allowedMem)
            .workDir(o.workDir)
            .executor("threads")
            .build();
    Files.createDirectories(o.out);
    for (String written : Expressions.WRITTEN) {
      deleteTree(o.out.resolve(written));
    }
    AtomicLong tasks = new AtomicLong();
    ComputeOptions opts =
        ComputeOptions.defaults()
            .withCallback(
                new Callback() {
                  @Override
                  public void onTaskEnd(Events.TaskEnd e) {
                    tasks.incrementAndGet();
                  }
                });
    Map<String, Object> sums;
    double wall;
    long peak;
    try (PeakRssMonitor rss = PeakRssMonitor.selfOnly()) { // threads executor: no children
      long t0 = System.nanoTime();
      sums =
          o.floor
              ? Expressions.floor(o.expression, o.inputs, spec, opts)
              : o.expression.body().run(o.inputs, o.out, spec, opts);
      wall = (System.nanoTime() - t0) / 1e9;
      peak = rss.peakBytes();
    }
    if (!o.floor && o.expression.name().equals("rechunk")) {
      Expressions.rechunkChecksum(o.out, spec, sums);
    }
    if (!o.floor && o.expression.name().equals("cumsum_to_zarr")) {
      Expressions.cumsumChecksum(o.out, spec, sums);
    }
    BenchResult r =
        new BenchResult(
            o.expression.name(),
            o.size,
            Map.of(),
            "threads",
            o.workers,
            o.allowedMem,
            wall,
            peak,
            -1,
            tasks.get(),
            -1,
            sums);
    Map<String, Object> m = r.toMap();
    m.put("api", "public");
    m.put("floor", o.floor);
    return m;
  }

  /** The parsed command line. */
  static final class Options {
    Expressions.Expression expression;
    Path inputs;
    int workers = 2;
    long allowedMem;
    Path workDir;
    Path out;
    String size = "custom";
    boolean floor;

    /** The options, or null for --help. */
    static Options parse(String[] args) {
      Options o = new Options();
      String allowed = null;
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        if (a.equals("-h") || a.equals("--help")) {
          return null;
        }
        if (a.equals("--floor")) {
          o.floor = true;
          continue;
        }
        if (!a.startsWith("--")) {
          if (o.expression != null) {
            throw new IllegalArgumentException("one EXPRESSION only, got '" + a + "' too");
          }
          o.expression = Expressions.byName(a);
          continue;
        }
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException(a + " needs a value");
        }
        String v = args[++i];
        switch (a) {
          case "--inputs" -> o.inputs = Path.of(v);
          case "--workers" -> o.workers = parseWorkers(v);
          case "--allowed-mem" -> allowed = v;
          case "--work-dir" -> o.workDir = Path.of(v);
          case "--out" -> o.out = Path.of(v);
          case "--size" -> o.size = v;
          default ->
              throw new IllegalArgumentException(
                  "unknown option " + a + " (--help lists" + " them)");
        }
      }
      if (o.expression == null) {
        throw new IllegalArgumentException("missing EXPRESSION: one of " + Expressions.names());
      }
      if (o.inputs == null) {
        throw new IllegalArgumentException(
            "missing --inputs DIR (the directory holding "
                + String.join(", ", o.expression.inputs())
                + " as NAME.zarr)");
      }
      for (String name : o.expression.inputs()) {
        if (!Files.isDirectory(o.inputs.resolve(name + ".zarr"))) {
          throw new IllegalArgumentException(
              "--inputs: no "
                  + name
                  + ".zarr in "
                  + o.inputs
                  + "; scripts/perf/userpath_dask.py write writes the inputs");
        }
      }
      try {
        o.allowedMem =
            Spec.parseBytes(allowed != null ? allowed : o.expression.defaultAllowedMem());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--allowed-mem: " + e.getMessage(), e);
      }
      if (o.workDir == null) {
        o.workDir = Path.of(System.getProperty("java.io.tmpdir"), "cubed-userpath");
      }
      if (o.out == null) {
        o.out = o.workDir.resolve("out");
      }
      return o;
    }

    private static int parseWorkers(String v) {
      try {
        int n = Integer.parseInt(v);
        if (n >= 1) {
          return n;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new IllegalArgumentException("--workers: '" + v + "' is not a whole number >= 1");
    }
  }

  private static void deleteTree(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (Stream<Path> s = Files.walk(p)) {
      for (Path q : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(q);
      }
    }
  }
}
