package dev.cubed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.Index;
import dev.cubed.nd.NDArray;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
import dev.cubed.runtime.ThreadsExecutor;
import dev.cubed.runtime.processes.ProcessesExecutor;
import dev.cubed.testing.NDAssert;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import java.io.BufferedOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Python Cubed's test_mem_utilization for this engine: every operation family runs on the processes
 * executor in strict mode ({@code heapPerOp}: each task runs in a worker JVM whose heap is its op's
 * projection minus reservedMem, plus 8 MiB for the idle worker's own heap and a small young
 * generation), so a task that needs more memory than projected dies with OutOfMemoryError. The
 * assertion: every task of every family completes there (its need is within its projection), and
 * each result equals the threads executor's. The measured peak of each task (peak heap occupancy,
 * an upper bound) is recorded in a table.
 *
 * <p>Every family must complete: there is no list of tolerated under-projections. Ops that read or
 * write stored chunks (to-zarr, from-zarr, rechunk, reshape, getitem of a stored intermediate) pass
 * because the default codec streams between the array and the stored bytes (one buffer copy per
 * chunk, as the model counts; see docs/engine.md, "Memory model").
 *
 * <p>Size: CI by default (1000 x 1000 float64 chunks, 8 MB, so tasks project tens of MB); run with
 * {@code -Dcubed.memtest.chunk=4000} for a larger run (128 MB chunks, tasks of hundreds of MB;
 * allowedMem grows with the chunk). The table is written to {@code
 * target/memory-utilization-CHUNK.md}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MemoryUtilizationTest {
  private static final long CHUNK = Long.getLong("cubed.memtest.chunk", 1000);
  private static final long N = 2 * CHUNK;
  private static final long CHUNK_BYTES = CHUNK * CHUNK * 8;

  @TempDir static Path dir;
  private Spec spec;
  private ProcessesExecutor processes;
  private final Map<String, long[]> table = new TreeMap<>(); // op -> {projected, measured, tasks}
  private final List<ProcessHandle> seen = new CopyOnWriteArrayList<>();

  @BeforeAll
  void setUp() {
    long allowed = 20 * CHUNK_BYTES + (40L << 20);
    spec =
        Spec.builder()
            .workDir(dir.resolve("work"))
            .allowedMem(allowed)
            .reservedMem(20L << 20)
            .build();
    processes =
        ProcessesExecutor.builder()
            .workers(1)
            .attempts(1)
            .allowedMem(allowed)
            .heapPerOp(true)
            .reservedMem(spec.reservedMem())
            .build();
    processes.onWorkerStart(seen::addAll);
  }

  @AfterAll
  void writeTableAndCheckWorkers() throws Exception {
    StringBuilder sb =
        new StringBuilder(
            "| family / op | tasks | projected MiB | measured max MiB"
                + " (upper bound) | measured / projected |\n|---|---|---|---|---|\n");
    for (Map.Entry<String, long[]> e : table.entrySet()) {
      long[] v = e.getValue();
      sb.append(
          String.format(
              "| %s | %d | %.1f | %.1f | %.2f |%n",
              e.getKey(), v[2], v[0] / 1048576.0, v[1] / 1048576.0, (double) v[1] / v[0]));
    }
    Path out = Path.of("target", "memory-utilization-" + CHUNK + ".md");
    Files.createDirectories(out.getParent());
    Files.writeString(
        out,
        "chunk "
            + CHUNK
            + " x "
            + CHUNK
            + " float64, allowedMem "
            + spec.allowedMem()
            + " B, reservedMem "
            + spec.reservedMem()
            + " B\n\n"
            + sb);
    System.out.println(sb);
    for (ProcessHandle h : seen) {
      h.onExit().get(2, TimeUnit.MINUTES);
      assertFalse(h.isAlive(), "worker " + h.pid() + " outlived its compute");
    }
    assertTrue(processes.liveWorkers().isEmpty());
  }

  private CubedArray x() {
    return Cubed.random(new long[] {N, N}, new long[] {CHUNK, CHUNK}, 1, spec);
  }

  private CubedArray y() {
    return Cubed.random(new long[] {N, N}, new long[] {CHUNK, CHUNK}, 2, spec);
  }

  /** Collects task ends. */
  private static final class Ends implements Callback {
    final List<Events.TaskEnd> ends = new CopyOnWriteArrayList<>();

    @Override
    public void onTaskEnd(Events.TaskEnd e) {
      ends.add(e);
    }
  }

  /**
   * Computes on both executors: results equal, every task measured and completed within its op's
   * strict heap bound.
   */
  private void check(String family, Supplier<CubedArray> expr) {
    NDArray want = expr.get().compute(ComputeOptions.executor(new ThreadsExecutor(2, 1)));
    Ends ends = new Ends();
    NDArray got = expr.get().compute(ComputeOptions.executor(processes).withCallback(ends));
    NDAssert.assertClose(want, got, 1e-12, 4, family);
    record(family, ends);
  }

  private void record(String family, Ends ends) {
    assertFalse(ends.ends.isEmpty(), family + ": no task ran");
    for (Events.TaskEnd e : ends.ends) {
      assertTrue(e.measuredPeakMem() > 0, family + ": task not measured: " + e);
      assertTrue(
          e.peakRss() > 0 || !System.getProperty("os.name").startsWith("Linux"),
          family + ": no peak RSS: " + e);
      assertTrue(e.worker().startsWith("worker pid"), e.worker());
      String op = family + " / " + e.opName().replaceAll("-[0-9a-f]{6,}", "");
      long[] v = table.computeIfAbsent(op, k -> new long[3]);
      synchronized (v) {
        v[0] = Math.max(v[0], e.projectedMem());
        v[1] = Math.max(v[1], e.measuredPeakMem());
        v[2]++;
      }
    }
  }

  @Test
  void elementwise() {
    check("elementwise", () -> Xp.add(Xp.multiply(x(), y()), Xp.sin(x())));
    check("random", () -> Xp.add(x(), x()));
  }

  @Test
  void reductions() {
    check("sum", () -> Xp.sum(x(), 0));
    check("sum-all", () -> Xp.sum(x()));
    check(
        "prod",
        () ->
            Xp.prod(
                Xp.add(
                    x(),
                    Xp.full(
                        new long[] {N, N}, 0.5, DType.FLOAT64, new long[] {CHUNK, CHUNK}, spec)),
                1));
    check("min", () -> Xp.min(x(), 1));
    check("max", () -> Xp.max(x(), 0));
    check("mean", () -> Xp.mean(x(), 0));
    check("var", () -> Xp.var(x(), 1));
    check("std", () -> Xp.std(x(), Axes.all(), 0, 4));
    check(
        "all",
        () ->
            Xp.all(
                Xp.greater(
                    x(),
                    Xp.full(
                        new long[] {N, N}, 0.001, DType.FLOAT64, new long[] {CHUNK, CHUNK}, spec)),
                0));
    check(
        "any",
        () ->
            Xp.any(
                Xp.greater(
                    x(),
                    Xp.full(
                        new long[] {N, N}, 0.999, DType.FLOAT64, new long[] {CHUNK, CHUNK}, spec)),
                1));
  }

  @Test
  void argReductions() {
    check("argmax", () -> Xp.argmax(x(), 0));
    check("argmin", () -> Xp.argmin(x(), 1));
  }

  @Test
  void contractions() {
    check("matmul", () -> Xp.matmul(x(), y()));
    check("tensordot", () -> Xp.tensordot(x(), y(), new int[] {0}, new int[] {0}));
  }

  @Test
  void rechunks() {
    check("rechunk-columns", () -> Xp.rechunk(x(), N, CHUNK / 4));
    check("rechunk-smaller", () -> Xp.rechunk(x(), CHUNK / 2, CHUNK / 2));
    check(
        "rechunk-irregular",
        () -> Xp.rechunk(x(), new long[][] {{CHUNK / 2, N - CHUNK / 2}, {N / 4, N / 4, N / 2}}));
  }

  /**
   * The bench's rechunk in small: time planes (1, Y, X) stored in Zarr, rechunked to pencils (T,
   * 100, 100). Stage 1 copies planes into (50, 100, 300) chunks through (50, 300, 300) regions, so
   * a task holds the region buffer, one target chunk and its encoded bytes (all but 1.4 MB of its
   * projection) while the worker also holds the central directories of every jar on its class path.
   * The workers here get a class path extended by generated jars whose directories add 14.7 MiB to
   * the worker's heap, as the CLI's 222 jars (Spark, Beam) do; the strict heap bound used to allow
   * 8 MiB for the whole idle worker, and stage 1 died with OutOfMemoryError (as {@code ./cubed
   * bench rechunk --size medium --executor processes-strict} did).
   */
  @Test
  void rechunkPlanesToPencilsWithTheCliSizedClassPath() throws Exception {
    long t = 100;
    long y = 300;
    FileSystemStore store = new FileSystemStore(dir.resolve("planes"));
    ZarrArray z =
        ZarrArray.create(store, "x").shape(t, y, y).chunks(1, y, y).dtype(DType.FLOAT64).build();
    Random r = new Random(42);
    for (long i = 0; i < t; i++) {
      NDArray plane = NDArray.zeros(DType.FLOAT64, 1, y, y);
      double[] d = (double[]) plane.data();
      for (int k = 0; k < d.length; k++) {
        d[k] = r.nextDouble();
      }
      z.writeChunk(new long[] {i, 0, 0}, plane);
    }
    String cp = System.getProperty("java.class.path");
    String jars = generatedJars(dir.resolve("jars"), 20, 5000);
    System.setProperty("java.class.path", cp + File.pathSeparator + jars);
    try {
      check("rechunk-planes", () -> Xp.rechunk(Cubed.fromZarr(z, spec), t, 100, 100));
    } finally {
      System.setProperty("java.class.path", cp);
    }
    assertTrue(table.containsKey("rechunk-planes / rechunk-stage1"), table.keySet().toString());
  }

  /**
   * {@code n} jars of {@code entries} empty entries with 97-character names (143 bytes of central
   * directory per entry), joined as a class path.
   */
  static String generatedJars(Path dir, int n, int entries) throws IOException {
    Files.createDirectories(dir);
    StringBuilder cp = new StringBuilder();
    for (int j = 0; j < n; j++) {
      Path jar = dir.resolve("filler-" + j + ".jar");
      try (ZipOutputStream out =
          new ZipOutputStream(new BufferedOutputStream(Files.newOutputStream(jar)))) {
        for (int e = 0; e < entries; e++) {
          String name = String.format("filler/j%03d/%s/e%07d.class", j, "x".repeat(70), e);
          out.putNextEntry(new ZipEntry(name));
          out.closeEntry();
        }
      }
      cp.append(j == 0 ? "" : File.pathSeparator).append(jar);
    }
    return cp.toString();
  }

  @Test
  void manipulation() {
    check("concat", () -> Xp.concat(List.of(x(), y()), 0));
    check("stack", () -> Xp.stack(List.of(x(), y()), 0));
    check("reshape", () -> Xp.reshape(x(), N / 2, 2 * N));
    check("getitem", () -> Xp.getItem(x(), Index.slice(1L, N - 1, 2), Index.slice(null, null, -1)));
  }

  @Test
  void scans() {
    check("cumsum", () -> Xp.cumulativeSum(x(), 0));
    check(
        "cumprod",
        () ->
            Xp.cumulativeProd(
                Xp.add(
                    x(),
                    Xp.full(
                        new long[] {N, N}, 0.5, DType.FLOAT64, new long[] {CHUNK, CHUNK}, spec)),
                1));
  }

  @Test
  void zarrRoundTrip() {
    FileSystemStore store = new FileSystemStore(dir.resolve("zarr"));
    Ends write = new Ends();
    ZarrArray z =
        Cubed.toZarr(x(), store, "x", ComputeOptions.executor(processes).withCallback(write));
    record("to-zarr", write);
    Ends read = new Ends();
    NDArray got =
        Xp.sum(Cubed.fromZarr(z, spec), 0)
            .compute(ComputeOptions.executor(processes).withCallback(read));
    record("from-zarr", read);
    NDArray want = Xp.sum(x(), 0).compute(ComputeOptions.executor(new ThreadsExecutor(2, 1)));
    NDAssert.assertClose(want, got, 1e-12, 4, "from-zarr");
    assertEquals(2, z.shape().length);
  }
}
