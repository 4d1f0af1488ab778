package dev.cubed.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.cubed.ComputeOptions;
import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.Xp;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.Plan;
import dev.cubed.plan.PlanResult;
import dev.cubed.plan.RunOptions;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
import dev.cubed.runtime.ThreadsExecutor;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.Stores;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Zarr v2/v3 round trips through S3, a full compute with its intermediates on S3 (equal to the
 * local result), resume of a failed compute from an S3 work directory, and the memory model's 2
 * buffer copies for plans touching S3. A real S3-compatible server (s3proxy) on 127.0.0.1.
 */
@Tag("s3")
class S3ComputeTest {
  static S3TestServer server;

  /** Block calls so far; the call numbered {@link #failAt} throws (static: not in node names). */
  static final AtomicInteger CALLS = new AtomicInteger();

  static volatile int failAt = -1;

  @TempDir Path tmp;

  @BeforeAll
  static void start() throws Exception {
    server = S3TestServer.start().useAsDefault().createBucket("data").createBucket("work");
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  @BeforeEach
  void reset() {
    CALLS.set(0);
    failAt = -1;
  }

  static NDArray random(long seed, long... shape) {
    Random r = new Random(seed);
    NDArray a = NDArray.zeros(DType.FLOAT64, shape);
    double[] d = (double[]) a.data();
    for (int i = 0; i < d.length; i++) {
      d[i] = r.nextDouble() * 10 - 5;
    }
    return a;
  }

  static double[] values(NDArray a) {
    return (double[]) a.data();
  }

  @Test
  void zarrV2AndV3RoundTripThroughS3() {
    NDArray a = random(1, 30, 20);
    for (String kind : List.of("v2", "v3", "v3-sharded")) {
      Store s = Stores.open("s3://data/rt/" + kind + ".zarr");
      var b =
          ZarrArray.create(s, "")
              .shape(30, 20)
              .chunks(8, 6)
              .dtype(DType.FLOAT64)
              .compression(Compression.zstd(3))
              .zarrFormat(kind.equals("v2") ? 2 : 3);
      if (kind.equals("v3-sharded")) {
        b.innerChunks(4, 3);
      }
      b.build().write(new long[] {0, 0}, a);
      ZarrArray back = ZarrArray.open("s3://data/rt/" + kind + ".zarr");
      assertThat(back.zarrFormat()).isEqualTo(kind.equals("v2") ? 2 : 3);
      assertThat(values(back.read())).as(kind).containsExactly(values(a));
      assertThat(s.list("")).as(kind).contains(kind.equals("v2") ? ".zarray" : "zarr.json");
      double sum = 0;
      for (double v : values(a)) {
        sum += v;
      }
      Spec spec =
          Spec.builder().workDir(tmp.resolve("w")).allowedMem("100MB").reservedMem("1MB").build();
      NDArray total = Cubed.fromZarr("s3://data/rt/" + kind + ".zarr", spec).sum().compute();
      assertThat(total.getDouble(0)).as(kind).isCloseTo(sum, within(1e-9));
    }
  }

  private static CubedArray program(Spec spec) {
    CubedArray x = Cubed.fromArray(random(5, 40, 40), new long[] {10, 10}, spec);
    CubedArray y =
        Xp.mapBlocks(
            blocks -> {
              if (CALLS.incrementAndGet() == failAt) {
                throw new IllegalArgumentException("injected failure");
              }
              NDArray o = blocks[0].copy();
              for (int i = 0; i < o.size(); i++) {
                o.setDouble(i, o.getDouble(i) * 2 + 1);
              }
              return o;
            },
            DType.FLOAT64,
            x);
    return Xp.sum(Xp.rechunk(y, 40, 5), 0);
  }

  private static CubedArray twice(CubedArray x) {
    return Xp.mapBlocks(
        b -> {
          NDArray o = b[0].copy();
          for (int i = 0; i < o.size(); i++) {
            o.setDouble(i, o.getDouble(i) * 2);
          }
          return o;
        },
        DType.FLOAT64,
        x);
  }

  private static Spec s3Spec(String work) {
    return Spec.builder().workDir(work).allowedMem("100MB").reservedMem("1MB").build();
  }

  @Test
  void computeWithIntermediatesOnS3EqualsLocal() {
    Spec local =
        Spec.builder().workDir(tmp.resolve("local")).allowedMem("100MB").reservedMem("1MB").build();
    NDArray expected = program(local).compute();
    Store work = Stores.open("s3://work/full");
    AtomicReference<List<String>> seen = new AtomicReference<>(List.of());
    Callback watch =
        new Callback() {
          @Override
          public void onTaskEnd(Events.TaskEnd e) {
            List<String> keys = work.list("");
            if (keys.size() > seen.get().size()) {
              seen.set(keys);
            }
          }
        };
    NDArray got =
        Cubed.compute(
                ComputeOptions.executor(new ThreadsExecutor(2, 1)).withCallback(watch),
                program(s3Spec("s3://work/full")))
            .get(0);
    assertThat(values(got)).containsExactly(values(expected), within(1e-9));
    // intermediates, completion markers and the fingerprint were objects under the work prefix
    assertThat(seen.get())
        .anyMatch(k -> k.matches("compute-[0-9a-f]{16}/fingerprint.txt"))
        .anyMatch(k -> k.matches("compute-[0-9a-f]{16}/\\.done/.+/\\d+\\.\\d+"))
        .anyMatch(k -> k.matches("compute-[0-9a-f]{16}/.+/zarr.json"));
    // and are deleted after success
    assertThat(work.list("")).isEmpty();
  }

  @Test
  void aWorkDirUriWithQueryParametersKeepsThemForItsComputeDirectory() {
    Spec spec = s3Spec("s3://work/q/?max_attempts=5&region=us-east-1");
    Store q = Stores.open("s3://work/q");
    List<String> seen = new CopyOnWriteArrayList<>();
    Callback watch =
        new Callback() {
          @Override
          public void onTaskEnd(Events.TaskEnd e) {
            seen.addAll(q.list(""));
          }
        };
    NDArray got =
        Cubed.compute(
                ComputeOptions.executor(new ThreadsExecutor(1, 1)).withCallback(watch),
                program(spec))
            .get(0);
    assertThat(values(got)).hasSize(40);
    assertThat(seen).isNotEmpty().allMatch(k -> k.matches("compute-[0-9a-f]{16}/.+"));
    assertThat(Stores.open("s3://work/q").list("")).isEmpty(); // created and removed under q/
    assertThat(Stores.open("s3://work/").listChildren("")).doesNotContain("q?max_attempts=5");
  }

  @Test
  void aFailedComputeOnS3ResumesSkippingFinishedTasks() {
    Spec spec = s3Spec("s3://work/resume");
    Store work = Stores.open("s3://work/resume");
    NDArray expected =
        program(
                Spec.builder()
                    .workDir(tmp.resolve("l"))
                    .allowedMem("100MB")
                    .reservedMem("1MB")
                    .build())
            .compute();
    CALLS.set(0);
    failAt = 9; // 16 blocks: 8 done (one worker), the 9th fails
    Plan p1 = Cubed.plan(List.of(program(spec)));
    assertThatThrownBy(
            () -> p1.run(new ThreadsExecutor(1, 1), List.of(), RunOptions.defaults().resume(true)))
        .hasMessageContaining("injected failure")
        .satisfies(
            e ->
                assertThat(e.getSuppressed())
                    .anyMatch(
                        s ->
                            s.getMessage()
                                .contains("kept in s3://work/resume/compute-" + p1.computeId())));
    List<String> kept = work.list("");
    assertThat(kept).contains("compute-" + p1.computeId() + "/fingerprint.txt");
    assertThat(kept.stream().filter(k -> k.contains("/.done/"))).hasSize(8);
    failAt = -1;
    Plan p2 = Cubed.plan(List.of(program(spec)));
    assertThat(p2.computeId()).isEqualTo(p1.computeId());
    PlanResult r2 =
        p2.run(new ThreadsExecutor(1, 1), List.of(), RunOptions.defaults().resume(true));
    NDArray got = r2.outputs().get(0);
    assertThat(r2.skippedTasks()).isEqualTo(8);
    assertThat(values(got)).containsExactly(values(expected), within(1e-9));
    assertThat(work.list("")).isEmpty();
  }

  @Test
  void memoryModelCountsTwoBufferCopiesOnS3() {
    Spec local =
        Spec.builder().workDir(tmp.resolve("m")).allowedMem("100MB").reservedMem("1MB").build();
    Plan lp = Cubed.plan(List.of(program(local)));
    Plan sp = Cubed.plan(List.of(program(s3Spec("s3://work/mem"))));
    // locally the default codec's chunks are decoded from their files: no read copy
    assertThat(lp.fingerprint()).contains("readCopies=0 writeCopies=1");
    assertThat(sp.fingerprint()).contains("readCopies=2 writeCopies=2");
    PlanSummary.OpInfo l = lp.summary().ops().get(0);
    PlanSummary.OpInfo s = sp.summary().ops().get(0);
    assertThat(l.kind()).isEqualTo("blockwise");
    assertThat(s.name()).isEqualTo(l.name());
    // the input is in memory (no store read): one more copy of the 10x10 float64 output chunk
    assertThat(s.projectedMem() - l.projectedMem()).isEqualTo(800);
    // a stored input on S3 alone (local work directory) counts 2 copies of reads and writes:
    // reserved + extra + in x (1 + read copies) + out x (1 + write copies), so two more copies of
    // the input chunk (local disk: decoded from the file, none) and one more of the output chunk
    // than the same input on local disk
    ZarrArray s3in =
        ZarrArray.create(Stores.open("s3://data/mem-in"), "")
            .shape(40, 40)
            .chunks(10, 10)
            .dtype(DType.FLOAT64)
            .build();
    ZarrArray localIn =
        ZarrArray.create(Stores.open(tmp.resolve("mem-in").toString()), "")
            .shape(40, 40)
            .chunks(10, 10)
            .dtype(DType.FLOAT64)
            .build();
    Plan fromS3 = Cubed.plan(List.of(twice(Cubed.fromZarr(s3in, local))));
    Plan fromDisk = Cubed.plan(List.of(twice(Cubed.fromZarr(localIn, local))));
    assertThat(fromS3.fingerprint()).contains("readCopies=2 writeCopies=2");
    assertThat(fromDisk.fingerprint()).contains("readCopies=0 writeCopies=1");
    assertThat(
            fromS3.summary().ops().get(0).projectedMem()
                - fromDisk.summary().ops().get(0).projectedMem())
        .isEqualTo(2 * 800 + 800);
    // the rechunk budget is (allowed - reserved)/7 on S3 instead of /5: with allowedMem just
    // above what a local rechunk needs, the S3 plan splits the copy into smaller regions (more
    // tasks or an extra stage) and still stays within allowedMem
    ZarrArray wideS3 =
        ZarrArray.create(Stores.open("s3://data/mem-wide"), "")
            .shape(400, 400)
            .chunks(400, 1)
            .dtype(DType.FLOAT64)
            .build();
    ZarrArray wideLocal =
        ZarrArray.create(Stores.open(tmp.resolve("mem-wide").toString()), "")
            .shape(400, 400)
            .chunks(400, 1)
            .dtype(DType.FLOAT64)
            .build();
    Spec tight =
        Spec.builder().workDir(tmp.resolve("m")).allowedMem("3MB").reservedMem("1MB").build();
    PlanSummary rs = Cubed.plan(List.of(Cubed.fromZarr(wideS3, tight).rechunk(1, 400))).summary();
    PlanSummary rl =
        Cubed.plan(List.of(Cubed.fromZarr(wideLocal, tight).rechunk(1, 400))).summary();
    assertThat(rs.totalTasks()).isGreaterThan(rl.totalTasks());
    assertThat(rs.maxProjectedMem()).isLessThanOrEqualTo(3_000_000L);
    assertThat(rl.maxProjectedMem()).isLessThanOrEqualTo(3_000_000L);
  }
}
