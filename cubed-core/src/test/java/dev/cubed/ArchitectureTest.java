package dev.cubed;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package rules of cubed-core's main classes (docs/architecture.md), from their byte code: the
 * layers point down, and no two packages, at any depth, depend on each other in a cycle.
 *
 * <p>The layers, bottom to top: {@code nd} (arrays in memory and their kernels, with every
 * subpackage) &lt; {@code zarr} (storage) &lt; {@code runtime} (executors, tasks) &lt; {@code
 * primitive} (blockwise description, rechunk planner) &lt; {@code plan} (the DAG, fusion, memory
 * check) &lt; {@code core} (the chunked operations) and {@code diagnostics} (callbacks over plans
 * and runs; beside core, neither uses the other) &lt; the API {@code dev.cubed}. A class may use
 * its own layer and the layers below it.
 *
 * <p>Two layers have sub-layers of their own: in {@code zarr}, {@code zarr.store} (the stores) &lt;
 * {@code zarr.codec} (codecs, their pipeline) &lt; {@code zarr.metadata} (v2/v3 metadata) &lt; the
 * base {@code dev.cubed.zarr} (arrays, groups, chunk I/O); in {@code runtime}, the base {@code
 * dev.cubed.runtime} (scheduler, executors, tasks, events) &lt; {@code runtime.processes} (the
 * processes executor and its worker protocol).
 */
class ArchitectureTest {
  static JavaClasses classes;

  @BeforeAll
  static void importMainClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("dev.cubed");
  }

  /** The layers of cubed-core, each package (and its subpackages) in one. */
  static final ArchRule LAYERS =
      layeredArchitecture()
          .consideringOnlyDependenciesInLayers()
          .layer("nd")
          .definedBy("dev.cubed.nd..")
          .layer("zarr")
          .definedBy("dev.cubed.zarr..")
          .layer("runtime")
          .definedBy("dev.cubed.runtime..")
          .layer("primitive")
          .definedBy("dev.cubed.primitive..")
          .layer("plan")
          .definedBy("dev.cubed.plan..")
          .layer("core")
          .definedBy("dev.cubed.core..")
          .layer("diagnostics")
          .definedBy("dev.cubed.diagnostics..")
          .layer("api")
          .definedBy("dev.cubed")
          .whereLayer("api")
          .mayNotBeAccessedByAnyLayer()
          .whereLayer("core")
          .mayOnlyBeAccessedByLayers("api")
          .whereLayer("diagnostics")
          .mayOnlyBeAccessedByLayers("api")
          .whereLayer("plan")
          .mayOnlyBeAccessedByLayers("core", "diagnostics", "api")
          .whereLayer("primitive")
          .mayOnlyBeAccessedByLayers("plan", "core", "diagnostics", "api")
          .whereLayer("runtime")
          .mayOnlyBeAccessedByLayers("primitive", "plan", "core", "diagnostics", "api")
          .whereLayer("zarr")
          .mayOnlyBeAccessedByLayers("runtime", "primitive", "plan", "core", "diagnostics", "api")
          .whereLayer("nd")
          .mayOnlyBeAccessedByLayers(
              "zarr", "runtime", "primitive", "plan", "core", "diagnostics", "api");

  /** The sub-layers of zarr: store &lt; codec &lt; metadata &lt; the base package. */
  static final ArchRule ZARR_SUB_LAYERS =
      layeredArchitecture()
          .consideringOnlyDependenciesInLayers()
          .layer("store")
          .definedBy("dev.cubed.zarr.store..")
          .layer("codec")
          .definedBy("dev.cubed.zarr.codec..")
          .layer("metadata")
          .definedBy("dev.cubed.zarr.metadata..")
          .layer("zarr base")
          .definedBy("dev.cubed.zarr")
          .whereLayer("zarr base")
          .mayNotBeAccessedByAnyLayer()
          .whereLayer("metadata")
          .mayOnlyBeAccessedByLayers("zarr base")
          .whereLayer("codec")
          .mayOnlyBeAccessedByLayers("metadata", "zarr base")
          .whereLayer("store")
          .mayOnlyBeAccessedByLayers("codec", "metadata", "zarr base");

  /** The sub-layers of runtime: the base package &lt; processes. */
  static final ArchRule RUNTIME_SUB_LAYERS =
      layeredArchitecture()
          .consideringOnlyDependenciesInLayers()
          .layer("runtime base")
          .definedBy("dev.cubed.runtime")
          .layer("processes")
          .definedBy("dev.cubed.runtime.processes..")
          .whereLayer("processes")
          .mayNotBeAccessedByAnyLayer();

  /**
   * The sub-layers of plan: node &lt; eval, durable &lt; the base package (Plan, PlanRun). The
   * evaluation of blocks and the durable-run machinery know nothing of each other.
   */
  static final ArchRule PLAN_SUB_LAYERS =
      layeredArchitecture()
          .consideringOnlyDependenciesInLayers()
          .layer("node")
          .definedBy("dev.cubed.plan.node..")
          .layer("eval")
          .definedBy("dev.cubed.plan.eval..")
          .layer("durable")
          .definedBy("dev.cubed.plan.durable..")
          .layer("plan base")
          .definedBy("dev.cubed.plan")
          .whereLayer("plan base")
          .mayNotBeAccessedByAnyLayer()
          .whereLayer("eval")
          .mayOnlyBeAccessedByLayers("plan base")
          .whereLayer("durable")
          .mayOnlyBeAccessedByLayers("plan base")
          .whereLayer("node")
          .mayOnlyBeAccessedByLayers("eval", "durable", "plan base");

  /**
   * No cycle between the top-level packages ({@code nd}, {@code zarr}, ... with their subpackages).
   */
  static final ArchRule NO_CYCLES_TOP =
      slices().matching("dev.cubed.(*)..").should().beFreeOfCycles();

  /**
   * No cycle between any two packages at any depth: each package is its own slice, so a subpackage
   * of nd ({@code nd.fft}, {@code nd.linalg}, ...) may use nd's base package and other subpackages,
   * but never one that uses it back.
   */
  static final ArchRule NO_CYCLES_ANY_DEPTH =
      slices().matching("dev.(**)").should().beFreeOfCycles();

  /**
   * nd's base package (the array, dtypes, shapes) is the floor of its subpackages: it uses none of
   * them (they use it).
   */
  static final ArchRule ND_BASE_BELOW_ITS_SUBPACKAGES =
      ArchRuleDefinition.noClasses()
          .that()
          .resideInAPackage("dev.cubed.nd")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("dev.cubed.nd.*..")
          .allowEmptyShould(true);

  @Test
  void layersPointDown() {
    LAYERS.check(classes);
  }

  @Test
  void zarrSubLayersPointDown() {
    ZARR_SUB_LAYERS.check(classes);
  }

  @Test
  void runtimeSubLayersPointDown() {
    RUNTIME_SUB_LAYERS.check(classes);
  }

  @Test
  void planSubLayersPointDown() {
    PLAN_SUB_LAYERS.check(classes);
  }

  @Test
  void noCycleBetweenTopLevelPackages() {
    NO_CYCLES_TOP.check(classes);
  }

  @Test
  void noCycleBetweenPackagesAtAnyDepth() {
    NO_CYCLES_ANY_DEPTH.check(classes);
  }

  @Test
  void ndBasePackageUsesNoneOfItsSubpackages() {
    ND_BASE_BELOW_ITS_SUBPACKAGES.check(classes);
  }

  @Test
  void theRulesSeeTheMainClasses() {
    // a rule over no classes would pass vacuously: the import found every layer
    for (String p :
        new String[] {
          "dev.cubed",
          "dev.cubed.nd",
          "dev.cubed.zarr",
          "dev.cubed.zarr.store",
          "dev.cubed.zarr.codec",
          "dev.cubed.zarr.metadata",
          "dev.cubed.runtime",
          "dev.cubed.runtime.processes",
          "dev.cubed.primitive",
          "dev.cubed.plan",
          "dev.cubed.plan.node",
          "dev.cubed.plan.eval",
          "dev.cubed.plan.durable",
          "dev.cubed.core",
          "dev.cubed.diagnostics"
        }) {
      assertThat(classes.containPackage(p)).as(p).isTrue();
    }
    assertThat(classes.contain(ArchitectureTest.class)).isFalse();
  }
}
