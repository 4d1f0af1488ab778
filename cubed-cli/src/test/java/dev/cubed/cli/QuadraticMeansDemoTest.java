package dev.cubed.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.ComputeOptions;
import dev.cubed.Spec;
import dev.cubed.zarr.ZarrArray;
import java.nio.file.Path;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QuadraticMeansDemoTest {
  @TempDir Path dir;

  @Test
  void checksumsMatchDirectComputationWithTinyMemory() {
    QuadraticMeansDemo.Params p = new QuadraticMeansDemo.Params(23, 7, 9, 5);
    Spec spec =
        Spec.builder().workDir(dir.resolve("work")).allowedMem(40_000).reservedMem(1_000).build();
    ZarrArray[] in = QuadraticMeansDemo.writeInputs(p, dir.resolve("in"), spec);
    QuadraticMeansDemo.Result r =
        QuadraticMeansDemo.run(in[0], in[1], spec, ComputeOptions.defaults(), 2);
    double uu = 0;
    double vv = 0;
    double uv = 0;
    for (int y = 0; y < p.y(); y++) {
      for (int x = 0; x < p.x(); x++) {
        double su = 0;
        double sv = 0;
        double suv = 0;
        for (int t = 0; t < p.t(); t++) {
          double u = 0.5 + 0.5 * Math.sin(QuadraticMeansDemo.G * t + QuadraticMeansDemo.S * y + x);
          double v = 0.5 + 0.5 * Math.cos(QuadraticMeansDemo.G * t - QuadraticMeansDemo.S * y + x);
          su += u * u;
          sv += v * v;
          suv += u * v;
        }
        uu += su / p.t();
        vv += sv / p.t();
        uv += suv / p.t();
      }
    }
    assertThat(r.sumUu()).isCloseTo(uu, Percentage.withPercentage(1e-7));
    assertThat(r.sumVv()).isCloseTo(vv, Percentage.withPercentage(1e-7));
    assertThat(r.sumUv()).isCloseTo(uv, Percentage.withPercentage(1e-7));
    assertThat(r.plan().maxProjectedMem()).isLessThanOrEqualTo(40_000);
    assertThat(r.plan().ops().size()).isGreaterThan(3);
  }

  @Test
  void rechunksInputsWhenStoredChunksDoNotFit() {
    QuadraticMeansDemo.Params p = new QuadraticMeansDemo.Params(10, 40, 30, 10);
    Spec big =
        Spec.builder().workDir(dir.resolve("w1")).allowedMem(10_000_000).reservedMem(1000).build();
    ZarrArray[] in = QuadraticMeansDemo.writeInputs(p, dir.resolve("in"), big);
    QuadraticMeansDemo.Result want =
        QuadraticMeansDemo.run(in[0], in[1], big, ComputeOptions.defaults());
    Spec small =
        Spec.builder().workDir(dir.resolve("w2")).allowedMem(250_000).reservedMem(1000).build();
    QuadraticMeansDemo.Result got =
        QuadraticMeansDemo.run(in[0], in[1], small, ComputeOptions.defaults());
    assertThat(got.plan().ops().stream().anyMatch(o -> o.kind().equals("rechunk"))).isTrue();
    assertThat(got.plan().maxProjectedMem()).isLessThanOrEqualTo(250_000);
    assertThat(got.sumUv()).isCloseTo(want.sumUv(), Percentage.withPercentage(1e-9));
  }
}
