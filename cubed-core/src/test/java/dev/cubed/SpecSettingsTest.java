package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.Plan;
import dev.cubed.plan.node.PlanConfig;
import dev.cubed.primitive.RechunkPlanner.ConsumeIntermediates;
import dev.cubed.primitive.RechunkPlanner.IntermediateCompression;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.UnaryOperator;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one parser of settings ({@link Spec.Builder#set}, {@link SpecKeys}): every key, its aliases,
 * the environment, the old system properties, bad values; the plan settings reaching {@link
 * PlanConfig} and the compute id.
 */
class SpecSettingsTest {
  @TempDir Path dir;

  /** For every setting: a value other than its default, and how {@link Spec#settings} shows it. */
  private static Map<String, String[]> samples() {
    Map<String, String[]> m = new LinkedHashMap<>();
    m.put("work_dir", new String[] {"s3://bucket/work", "s3://bucket/work"});
    m.put("allowed_mem", new String[] {"1GiB", Long.toString(1L << 30)});
    m.put("reserved_mem", new String[] {"50MB", "50000000"});
    m.put("executor", new String[] {"processes", "processes"});
    m.put("workers", new String[] {"3", "3"});
    m.put("attempts", new String[] {"1", "1"});
    m.put("checksum", new String[] {"yes", "true"});
    m.put("max_input_blocks", new String[] {"0", "0"});
    m.put("max_source_arrays", new String[] {"2", "2"});
    m.put("scan_chain_max_blocks", new String[] {"64", "64"});
    m.put("fold_groups", new String[] {"off", "false"});
    m.put("tile_bytes", new String[] {"8KiB", "8192"});
    m.put("inline_max_bytes", new String[] {"0", "0"});
    m.put("rechunk_intermediate_compression", new String[] {"LZ4", "lz4"});
    m.put("rechunk_consume_intermediates", new String[] {"false", "false"});
    m.put("intermediate_checksums", new String[] {"false", "false"});
    m.put("disk_check", new String[] {"false", "false"});
    m.put("processes_keep_alive", new String[] {"0", "0"});
    m.put("processes_gc_skip", new String[] {"false", "false"});
    m.put("worker_jvm_options", new String[] {" -Da=1   -Xss4m ", "-Da=1 -Xss4m"});
    m.put("worker_post_task_gc", new String[] {"0", "false"});
    m.put("worker_stats", new String[] {"1", "true"});
    return m;
  }

  @Test
  void everyKeyIsParsedAndShownAsItReadsBack() {
    Map<String, String[]> samples = samples();
    assertThat(SpecKeys.KEYS.stream().map(SpecKeys.Key::name).toList())
        .as("a sample for every setting of the table")
        .containsExactlyElementsOf(samples.keySet());
    Spec defaults = Spec.plainBuilder().build();
    for (Map.Entry<String, String[]> e : samples.entrySet()) {
      Spec s = Spec.plainBuilder().set(e.getKey(), e.getValue()[0]).build();
      assertThat(s.settings().get(e.getKey())).as(e.getKey()).isEqualTo(e.getValue()[1]);
      assertThat(s.settings().get(e.getKey()))
          .as("the sample of %s differs from its default", e.getKey())
          .isNotEqualTo(defaults.settings().get(e.getKey()));
      // what settings() shows, set again, gives the same spec
      assertThat(Spec.plainBuilder().set(s.settings()).build().settings()).isEqualTo(s.settings());
    }
    Spec all = Spec.plainBuilder().set(firstOf(samples)).build();
    assertThat(all.tileBytes()).isEqualTo(8192);
    assertThat(all.foldGroups()).isFalse();
    assertThat(all.rechunkIntermediateCompression()).isEqualTo(IntermediateCompression.LZ4);
    assertThat(all.rechunkConsumeIntermediates()).isEqualTo(ConsumeIntermediates.FALSE);
    assertThat(all.processesKeepAlive()).isEqualTo(Duration.ZERO);
    assertThat(all.workerJvmOptions()).containsExactly("-Da=1", "-Xss4m");
    assertThat(all.workerStats()).isTrue();
    assertThat(all.toString()).contains("fold_groups=false", "tile_bytes=8192");
  }

  private static Map<String, String> firstOf(Map<String, String[]> samples) {
    Map<String, String> m = new LinkedHashMap<>();
    samples.forEach((k, v) -> m.put(k, v[0]));
    m.put("allowed_mem", "1GiB");
    return m;
  }

  @Test
  void toStringShowsTheMainSettingsThenOnlyThoseThatDifferFromTheirDefaults() {
    Spec s =
        Spec.builder()
            .workDir("/tmp/spec-text")
            .set("tile_bytes", "1KiB")
            .set("executor_option.spark.master", "local[2]")
            .build();
    String text = s.toString();
    assertThat(text)
        .startsWith("Spec[workDir=/tmp/spec-text, allowedMem=" + s.allowedMem() + ", reservedMem=")
        .contains(", tile_bytes=" + s.settings().get("tile_bytes"))
        .contains("executorOptions={spark.master=local[2]}")
        .doesNotContain("fold_groups=")
        .endsWith("]");
  }

  @Test
  void namesMayComeInOtherSpellingsAndTheOldPropertyNames() {
    for (String k :
        List.of(
            "fold_groups",
            "foldGroups",
            "FOLD-GROUPS",
            "spec.fold_groups",
            "cubed.plan.foldGroups")) {
      assertThat(Spec.plainBuilder().set(k, "false").build().foldGroups()).as(k).isFalse();
    }
    assertThat(Spec.plainBuilder().set("executor_option.spark.master", "local[2]").build())
        .extracting(Spec::executorOptions)
        .isEqualTo(Map.of("spark.master", "local[2]"));
    assertThat(Spec.plainBuilder().set("rechunk_intermediate_compression", "default").build())
        .extracting(Spec::rechunkIntermediateCompression)
        .isEqualTo(IntermediateCompression.PROJECT);
  }

  @Test
  void badValuesNameTheKeyAndWhatItAllows() {
    Map<String, String> bad = new LinkedHashMap<>();
    bad.put("checksum", "true or false");
    bad.put("fold_groups", "true or false");
    bad.put("intermediate_checksums", "true or false");
    bad.put("disk_check", "true or false");
    bad.put("processes_gc_skip", "true or false");
    bad.put("worker_post_task_gc", "true or false");
    bad.put("worker_stats", "true or false");
    bad.put("workers", "a whole number >= 0");
    bad.put("attempts", "a whole number >= 1");
    bad.put("max_input_blocks", "a whole number >= 0");
    bad.put("max_source_arrays", "a whole number >= 1");
    bad.put("processes_keep_alive", "a whole number >= 0");
    bad.put("allowed_mem", "a size");
    bad.put("reserved_mem", "a size");
    bad.put("tile_bytes", "a size");
    bad.put("inline_max_bytes", "a size");
    bad.put("rechunk_intermediate_compression", "one of auto, none, lz4, project");
    bad.put("rechunk_consume_intermediates", "one of auto, true, false");
    for (Map.Entry<String, String> e : bad.entrySet()) {
      assertThatThrownBy(() -> Spec.plainBuilder().set(e.getKey(), "maybe"))
          .as(e.getKey())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("Spec: " + e.getKey() + ": 'maybe' is not " + e.getValue());
    }
    assertThatThrownBy(() -> Spec.plainBuilder().set("attempts", "0"))
        .hasMessageContaining("attempts: '0' is not a whole number >= 1");
    assertThatThrownBy(() -> Spec.plainBuilder().set("tile_bytes", "-1"))
        .hasMessageContaining("tile_bytes: '-1' is not a size");
    assertThatThrownBy(() -> Spec.plainBuilder().set("colour", "red"))
        .hasMessageContaining("unknown key 'colour'")
        .hasMessageContaining("fold_groups")
        .hasMessageContaining("executor_option.KEY");
  }

  @Test
  void theEnvironmentAndTheOldPropertiesGoThroughTheSameParser() {
    Spec s =
        Spec.plainBuilder()
            .applyEnv(Map.of("CUBED_SPEC_FOLD_GROUPS", "false", "CUBED_SPEC_TILE_BYTES", "1KiB"))
            .build();
    assertThat(s.foldGroups()).isFalse();
    assertThat(s.tileBytes()).isEqualTo(1024);
    assertThatThrownBy(
            () -> Spec.plainBuilder().applyEnv(Map.of("CUBED_SPEC_WORKER_STATS", "perhaps")))
        .hasMessageStartingWith("CUBED_SPEC_WORKER_STATS: Spec: worker_stats: 'perhaps' is not");

    Map<String, String> props =
        Map.of(
            "cubed.plan.foldGroups", "false",
            "cubed.rechunk.intermediateCompression", "none",
            "cubed.processes.keepAliveSeconds", "0",
            "cubed.processes.workerJvmOptions", "-Dx=1");
    Spec.Builder b = Spec.plainBuilder();
    SpecKeys.applyLegacyProperties(b, props::get);
    Spec p = b.build();
    assertThat(p.foldGroups()).isFalse();
    assertThat(p.rechunkIntermediateCompression()).isEqualTo(IntermediateCompression.NONE);
    assertThat(p.processesKeepAlive()).isEqualTo(Duration.ZERO);
    assertThat(p.workerJvmOptions()).containsExactly("-Dx=1");
    assertThatThrownBy(
            () ->
                SpecKeys.applyLegacyProperties(
                    Spec.plainBuilder(), Map.of("cubed.plan.tileBytes", "big")::get))
        .hasMessageStartingWith("-Dcubed.plan.tileBytes: Spec: tile_bytes: 'big' is not a size");
  }

  @Test
  void thePlanSettingsReachThePlanConfig() {
    Spec s =
        Spec.plainBuilder()
            .workDir(dir)
            .set(
                Map.of(
                    "fold_groups", "false",
                    "tile_bytes", "4096",
                    "inline_max_bytes", "0",
                    "rechunk_intermediate_compression", "lz4",
                    "rechunk_consume_intermediates", "true",
                    "intermediate_checksums", "false",
                    "max_input_blocks", "3",
                    "max_source_arrays", "2"))
            .build();
    PlanConfig c = Cubed.config(s);
    assertThat(c.foldGroups()).isFalse();
    assertThat(c.tileBytes()).isEqualTo(4096);
    assertThat(c.inlineMaxBytes()).isZero();
    assertThat(c.diskCheck()).isTrue();
    assertThat(Cubed.config(Spec.builder().set("disk_check", "false").build()).diskCheck())
        .isFalse();
    assertThat(c.rechunkCompression()).isEqualTo(IntermediateCompression.LZ4);
    assertThat(c.rechunkConsume()).isEqualTo(ConsumeIntermediates.TRUE);
    assertThat(c.intermediateChecksums()).isFalse();
    assertThat(c.maxInputBlocks()).isEqualTo(3);
    assertThat(c.maxSourceArrays()).isEqualTo(2);
    assertThat(c.allowedMem()).isEqualTo(s.allowedMem());
  }

  private Spec base() {
    return Spec.plainBuilder().workDir(dir).allowedMem("200MB").reservedMem("1MB").build();
  }

  /** Three means over two arrays of 30 row blocks: a plan with fold groups, tiles and a rechunk. */
  private static List<CubedArray> workload(Spec spec) {
    Random r = new Random(7);
    NDArray a = NDArray.zeros(DType.FLOAT64, 60, 8);
    NDArray b = NDArray.zeros(DType.FLOAT64, 60, 8);
    for (int i = 0; i < a.size(); i++) {
      a.setDouble(i, r.nextDouble());
      b.setDouble(i, r.nextDouble());
    }
    CubedArray u = Cubed.fromArray(a, new long[] {2, 8}, spec);
    CubedArray v = Cubed.fromArray(b, new long[] {2, 8}, spec);
    return List.of(
        Xp.mean(Xp.multiply(u, u), 0),
        Xp.mean(Xp.multiply(v, v), 0),
        Xp.mean(Xp.multiply(u, v), 0),
        Xp.rechunk(Xp.add(u, v), new long[] {60, 1}));
  }

  private Plan plan(UnaryOperator<Spec.Builder> change) {
    return Cubed.plan(workload(change.apply(base().toBuilder()).build()));
  }

  @Test
  void everySettingThatChangesAPlanIsInTheComputeId() {
    String id = plan(b -> b).computeId();
    assertThat(plan(b -> b).computeId()).as("same settings, same id").isEqualTo(id);
    assertThat(
            plan(b ->
                    b.set("attempts", "1")
                        .set("processes_keep_alive", "0")
                        .set("disk_check", "false"))
                .computeId())
        .as("settings of the executor only keep the id")
        .isEqualTo(id);
    Map<String, String> changes = new LinkedHashMap<>();
    changes.put("fold_groups", "false");
    changes.put("tile_bytes", "0");
    changes.put("rechunk_intermediate_compression", "lz4");
    changes.put("rechunk_consume_intermediates", "false");
    changes.put("intermediate_checksums", "false");
    for (Map.Entry<String, String> e : changes.entrySet()) {
      assertThat(plan(b -> b.set(e.getKey(), e.getValue())).computeId())
          .as("%s=%s gives another compute id", e.getKey(), e.getValue())
          .isNotEqualTo(id);
    }
  }

  @Test
  void foldGroupsTurnedOffInTheSpecChangeThePlan() {
    assertThat(plan(b -> b).fingerprint()).containsPattern("(?m)^group \\S+ fold ");
    Plan off = plan(b -> b.set("fold_groups", "false"));
    assertThat(off.fingerprint()).doesNotContainPattern("(?m)^group \\S+ fold ");
    assertThat(off.fingerprint()).contains("settings foldGroups=false");
    List<NDArray> a = Cubed.compute(workload(base()).toArray(new CubedArray[0]));
    List<NDArray> b =
        Cubed.compute(
            workload(base().toBuilder().foldGroups(false).build()).toArray(new CubedArray[0]));
    for (int k = 0; k < 3; k++) {
      double[] x = (double[]) a.get(k).data();
      double[] y = (double[]) b.get(k).data();
      for (int i = 0; i < x.length; i++) {
        assertThat(y[i]).isCloseTo(x[i], Offset.offset(1e-12));
      }
    }
  }
}
