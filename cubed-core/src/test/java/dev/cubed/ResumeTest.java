package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.core.Core;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.Plan;
import dev.cubed.plan.PlanResult;
import dev.cubed.plan.RunOptions;
import dev.cubed.plan.durable.ComputeDir;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
import dev.cubed.runtime.TaskFailedException;
import dev.cubed.runtime.ThreadsExecutor;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Resume in one JVM: failure keeps the directory, resume skips finished tasks, locks, clean. */
class ResumeTest {
  /** Block calls so far; the call numbered {@link #failAt} throws (static: not part of names). */
  static final AtomicInteger CALLS = new AtomicInteger();

  static volatile int failAt = -1;

  @TempDir Path tmp;

  @BeforeEach
  void reset() {
    CALLS.set(0);
    failAt = -1;
  }

  private static CubedArray program(Spec spec) {
    NDArray a = EngineTestSupport.randomDoubles(5, 40, 40);
    CubedArray x = Cubed.fromArray(a, new long[] {10, 10}, spec);
    CubedArray y =
        Xp.mapBlocks(
            b -> {
              if (CALLS.incrementAndGet() == failAt) {
                throw new IllegalStateException("injected failure");
              }
              NDArray o = b[0].copy();
              for (int i = 0; i < o.size(); i++) {
                o.setDouble(i, o.getDouble(i) * 2 + 1);
              }
              return o;
            },
            DType.FLOAT64,
            x);
    CubedArray z = Xp.rechunk(y, 40, 5);
    return Xp.sum(z, 0);
  }

  private static final class Counter implements Callback {
    final List<String> tasks = Collections.synchronizedList(new ArrayList<>());

    @Override
    public void onTaskEnd(Events.TaskEnd e) {
      tasks.add(e.opName() + " " + Arrays.toString(e.key()));
    }
  }

  private static ComputeOptions opts(Counter c) {
    return ComputeOptions.executor(new ThreadsExecutor(1, 1)).withCallback(c);
  }

  private static List<Path> computeDirs(Path work) throws Exception {
    if (!Files.isDirectory(work)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(work)) {
      return s.filter(p -> p.getFileName().toString().startsWith("compute-")).toList();
    }
  }

  private static long markers(Path computeDir) throws Exception {
    try (Stream<Path> s = Files.walk(computeDir.resolve(".done"))) {
      return s.filter(Files::isRegularFile).count();
    }
  }

  @Test
  void failureKeepsDirectoryAndResumeRunsOnlyUnfinishedTasks() throws Exception {
    Spec spec = EngineTestSupport.tinySpec(tmp.resolve("fresh"), 10_000_000);
    Counter freshCount = new Counter();
    NDArray expected = Cubed.compute(opts(freshCount), program(spec)).get(0);
    int total = freshCount.tasks.size();
    assertThat(computeDirs(tmp.resolve("fresh"))).as("success deletes the compute dir").isEmpty();

    Path work = tmp.resolve("work");
    Spec s2 = EngineTestSupport.tinySpec(work, 10_000_000);
    CALLS.set(0);
    failAt = 10;
    Counter first = new Counter();
    assertThatThrownBy(() -> Cubed.compute(opts(first), program(s2)))
        .isInstanceOf(TaskFailedException.class)
        .satisfies(
            e ->
                assertThat(Arrays.stream(e.getSuppressed()).map(Throwable::getMessage))
                    .anyMatch(
                        m ->
                            m.contains(work.toString())
                                && m.contains("ComputeOptions.defaults().resume()")
                                && m.contains("./cubed clean")));
    assertThat(first.tasks).hasSize(9);
    List<Path> kept = computeDirs(work);
    assertThat(kept).as("failure keeps the compute dir").hasSize(1);
    assertThat(markers(kept.get(0))).isEqualTo(9);
    assertThat(kept.get(0).resolve(ComputeDir.FINGERPRINT)).exists();

    failAt = -1;
    Counter resumed = new Counter();
    Plan plan = Cubed.plan(List.of(program(s2)));
    assertThat(plan.computeId())
        .isEqualTo(kept.get(0).getFileName().toString().substring("compute-".length()));
    NDArray got = Cubed.compute(opts(resumed).resume(), program(s2)).get(0);
    assertThat(got).isEqualTo(expected);
    assertThat(resumed.tasks).hasSize(total - 9);
    assertThat(computeDirs(work)).as("success deletes the compute dir").isEmpty();
  }

  @Test
  void withoutResumeAStaleDirectoryIsClearedAndEverythingRuns() throws Exception {
    Path work = tmp.resolve("work");
    Spec spec = EngineTestSupport.tinySpec(work, 10_000_000);
    Counter fresh = new Counter();
    NDArray expected = Cubed.compute(opts(fresh), program(spec)).get(0);
    CALLS.set(0);
    failAt = 5;
    assertThatThrownBy(() -> Cubed.compute(opts(new Counter()), program(spec)))
        .isInstanceOf(TaskFailedException.class);
    failAt = -1;
    Counter again = new Counter();
    assertThat(Cubed.compute(opts(again), program(spec)).get(0)).isEqualTo(expected);
    assertThat(again.tasks).hasSize(fresh.tasks.size());
    assertThat(computeDirs(work)).isEmpty();
  }

  @Test
  void resumeRefusesADirectoryWithAnotherFingerprint() throws Exception {
    Path work = tmp.resolve("work");
    Spec spec = EngineTestSupport.tinySpec(work, 10_000_000);
    failAt = 3;
    assertThatThrownBy(() -> Cubed.compute(opts(new Counter()), program(spec)))
        .isInstanceOf(TaskFailedException.class);
    failAt = -1;
    Path dir = computeDirs(work).get(0);
    Path fp = dir.resolve(ComputeDir.FINGERPRINT);
    Files.writeString(fp, Files.readString(fp).replace("tasks=", "tasks=9"));
    assertThatThrownBy(() -> Cubed.compute(opts(new Counter()).resume(), program(spec)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("cannot resume in " + dir)
        .hasMessageContaining("different plan")
        .hasMessageContaining("./cubed clean");
    assertThat(dir).exists();
  }

  @Test
  void sameContentSameNamesDifferentParametersDifferentNames() {
    Spec spec = EngineTestSupport.tinySpec(tmp, 10_000_000);
    Plan a = Cubed.plan(List.of(ResumeChild.program(spec)));
    Plan b = Cubed.plan(List.of(ResumeChild.program(spec)));
    assertThat(a.computeId()).isEqualTo(b.computeId()).hasSize(16);
    assertThat(a.summary().ops())
        .extracting(o -> o.name())
        .isEqualTo(b.summary().ops().stream().map(o -> o.name()).toList());
    assertThat(a.resumable()).isTrue();
    assertThat(a.summary().ops())
        .allMatch(
            o -> o.name().matches("[a-z_]+(-[a-z_]+)*-[0-9a-f]{12}" + "(-stage\\d+)?"),
            "content-derived names");

    CubedArray r1 = Cubed.random(new long[] {20, 20}, new long[] {5, 5}, 1, spec);
    CubedArray r2 = Cubed.random(new long[] {20, 20}, new long[] {5, 5}, 2, spec);
    CubedArray r3 = Cubed.random(new long[] {20, 20}, new long[] {10, 5}, 1, spec);
    assertThat(r1.node().name())
        .isEqualTo(Cubed.random(new long[] {20, 20}, new long[] {5, 5}, 1, spec).node().name())
        .isNotEqualTo(r2.node().name())
        .isNotEqualTo(r3.node().name())
        .startsWith("random-");
    assertThat(Xp.add(r1, r2).node().name())
        .isNotEqualTo(Xp.add(r2, r1).node().name())
        .isNotEqualTo(Xp.multiply(r1, r2).node().name());
    NDArray d = EngineTestSupport.randomDoubles(1, 6, 6);
    NDArray e = d.copy();
    e.setDouble(35, 99);
    assertThat(Cubed.fromArray(d, new long[] {3, 3}, spec).node().name())
        .isEqualTo(Cubed.fromArray(d.copy(), new long[] {3, 3}, spec).node().name())
        .isNotEqualTo(Cubed.fromArray(e, new long[] {3, 3}, spec).node().name());
    Spec tiny = Spec.builder().workDir(tmp).allowedMem(150_000).reservedMem(1000).build();
    Plan small = Cubed.plan(List.of(ResumeChild.program(tiny)));
    assertThat(small.fingerprint())
        .as("a smaller allowedMem plans other rechunk stages")
        .isNotEqualTo(a.fingerprint());
    assertThat(small.computeId())
        .as("other tasks, so another compute id")
        .isNotEqualTo(a.computeId());
  }

  /**
   * The compute id and the fingerprint compared on resume depend on the tasks, not on memory
   * figures: a reserved memory measured a few kB apart (as the CLI measures it on each run), or
   * another allowedMem that plans the same tasks, gives the same id, so a resume finds the
   * directory; the figures are kept as note lines that are never compared.
   */
  @Test
  void memoryFiguresThatPlanTheSameTasksGiveTheSameComputeId() throws Exception {
    Spec s1 =
        Spec.builder()
            .workDir(tmp.resolve("w"))
            .allowedMem(100_000_000)
            .reservedMem(45_672_224)
            .build();
    Spec s2 =
        Spec.builder()
            .workDir(tmp.resolve("w"))
            .allowedMem(100_000_000)
            .reservedMem(45_741_056)
            .build();
    Plan p1 = Cubed.plan(List.of(program(s1)));
    Plan p2 = Cubed.plan(List.of(program(s2)));
    assertThat(p2.fingerprint())
        .isEqualTo(p1.fingerprint())
        .doesNotContain("reservedMem")
        .doesNotContain("allowedMem")
        .contains("chain ")
        .contains(" regions ");
    assertThat(p2.computeId()).isEqualTo(p1.computeId());

    // a run killed with one reserved memory resumes with the other: tasks reused, dir removed
    failAt = 10;
    CALLS.set(0);
    Counter first = new Counter();
    assertThatThrownBy(() -> Cubed.compute(opts(first), program(s1)))
        .isInstanceOf(TaskFailedException.class);
    List<Path> kept = computeDirs(tmp.resolve("w"));
    assertThat(kept).hasSize(1);
    assertThat(Files.readString(kept.get(0).resolve(ComputeDir.FINGERPRINT)))
        .contains("# planned with allowedMem=100000000 reservedMem=45672224");
    failAt = -1;
    Plan again = Cubed.plan(List.of(program(s2)));
    PlanResult r =
        again.run(new ThreadsExecutor(1, 1), List.of(), RunOptions.defaults().resume(true));
    assertThat(r.skippedTasks()).isEqualTo(first.tasks.size()).isPositive();
    assertThat(computeDirs(tmp.resolve("w"))).as("the resumed run removes its directory").isEmpty();
  }

  @Test
  void aNodeThatCannotBeSerializedMakesThePlanNotResumableButStillComputes() {
    Spec spec = EngineTestSupport.tinySpec(tmp, 10_000_000);
    Object notSerializable = new Object();
    CubedArray x =
        Cubed.fromArray(EngineTestSupport.randomDoubles(2, 4, 4), new long[] {2, 2}, spec);
    Core.BlocksFunction f = b -> notSerializable.hashCode() == 0 ? b[0] : b[0].copy();
    CubedArray y1 = Xp.mapBlocks(f, DType.FLOAT64, x);
    CubedArray y2 = Xp.mapBlocks(f, DType.FLOAT64, x);
    assertThat(y1.node().resumable()).isFalse();
    assertThat(y1.node().notResumableReason()).contains("NotSerializableException");
    assertThat(y1.node().name()).isNotEqualTo(y2.node().name());
    assertThat(Xp.add(y1, x).node().resumable()).isFalse();
    assertThat(Cubed.plan(List.of(y1)).resumable()).isFalse();
    assertThat(Cubed.compute(ComputeOptions.defaults().resume(), y1).get(0).shape())
        .containsExactly(4, 4);
  }

  @Test
  void namesAndComputeIdAreTheSameInAnotherJvm() throws Exception {
    Path work = tmp.resolve("w");
    Process p = child("names", work.toString());
    List<String> lines =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))
            .lines()
            .toList();
    assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
    Plan here = Cubed.plan(List.of(ResumeChild.program(ResumeChild.spec(work))));
    List<String> expected = new ArrayList<>();
    expected.add("id " + here.computeId());
    expected.add("resumable true");
    here.summary().ops().forEach(o -> expected.add("op " + o.name()));
    assertThat(lines).isEqualTo(expected);
  }

  private Process child(String... args) throws Exception {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                ResumeChild.class.getName()));
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
  }

  @Test
  void aComputeLockedByAnotherJvmIsNeitherSharedNorCleaned() throws Exception {
    Path work = tmp.resolve("work");
    Spec spec = ResumeChild.spec(work);
    String id = Cubed.plan(List.of(ResumeChild.program(spec))).computeId();
    Process holder = child("hold", work.toString(), id);
    BufferedReader out =
        new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
    String line = out.readLine();
    assertThat(line).startsWith("locked ");
    Path held = work.resolve("compute-" + id);
    Path marker = Files.writeString(held.resolve("keep-me"), "x");
    try {
      // same plan while the other JVM holds its directory: runs separately, leaves it alone
      Counter c = new Counter();
      NDArray got = Cubed.compute(opts(c).resume(), ResumeChild.program(spec)).get(0);
      assertThat(got.shape()).containsExactly(200, 200);
      assertThat(marker).exists();
      assertThat(computeDirs(work)).containsExactly(held);
      // clean keeps the locked directory
      List<ComputeDir.Cleaned> r = ComputeDir.clean(work, false);
      assertThat(r)
          .singleElement()
          .satisfies(
              x -> {
                assertThat(x.removed()).isFalse();
                assertThat(x.note()).contains("in use");
              });
      assertThat(marker).exists();
    } finally {
      holder.getOutputStream().write('\n');
      holder.getOutputStream().flush();
      assertThat(holder.waitFor(5, TimeUnit.MINUTES)).isTrue();
    }
    Files.createDirectories(work.resolve("compute-notours"));
    Files.createDirectories(work.resolve("compute-0123456789abcdef")); // no lock, no fingerprint
    assertThat(ComputeDir.clean(work, true))
        .singleElement()
        .satisfies(x -> assertThat(x.note()).contains("dry run"));
    assertThat(held).exists();
    assertThat(ComputeDir.clean(work, false))
        .singleElement()
        .satisfies(x -> assertThat(x.removed()).isTrue());
    assertThat(held).doesNotExist();
    assertThat(work.resolve("compute-notours")).as("unrecognised dirs are left alone").exists();
    assertThat(work.resolve("compute-0123456789abcdef")).exists();
  }

  @Test
  void twoHoldersOfOnePlanInOneJvmGetSeparateDirectories() {
    Path work = tmp.resolve("work");
    try (ComputeDir a = ComputeDir.open(work, "00000000000000aa", "x\n", true);
        ComputeDir b = ComputeDir.open(work, "00000000000000aa", "x\n", true)) {
      assertThat(a.separate()).isFalse();
      assertThat(b.separate()).isTrue();
      assertThat(b.path()).isNotEqualTo(a.path());
      assertThat(b.path().getFileName().toString())
          .matches("compute-00000000000000aa\\.[0-9a-f]{8}");
    }
  }
}
