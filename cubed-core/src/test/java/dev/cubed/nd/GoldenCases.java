package dev.cubed.nd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.testing.NDAssert;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/** Loads golden npz files and checks a table of named cases against them, exactly (bitwise). */
public final class GoldenCases {
  private GoldenCases() {}

  /** The inputs of one dtype file: x (2, 3, 4), y (2, 3, 4), s (0-d) and e (0, 3). */
  public record In(NDArray x, NDArray y, NDArray s, NDArray e) {}

  public static Map<String, NDArray> load(String area, String file) {
    String res = "/golden/" + area + "/" + file + ".npz";
    try (InputStream in = GoldenCases.class.getResourceAsStream(res)) {
      assertThat(in).as(res).isNotNull();
      return Npy.readNpz(in, res);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static Map<String, Function<In, Object>> table() {
    return new LinkedHashMap<>();
  }

  /**
   * Runs every case on the inputs of a dtype file and compares with the stored outputs; returns the
   * number of arrays compared. Every stored output key must be covered by a case.
   */
  public static int check(String area, DType dt, Map<String, Function<In, Object>> cases) {
    Map<String, NDArray> g = load(area, dt.standardName());
    In in = new In(g.get("x"), g.get("y"), g.get("s"), g.get("e"));
    int compared = 0;
    for (var c : cases.entrySet()) {
      Object r = c.getValue().apply(in);
      NDArray[] outs = r instanceof NDArray a ? new NDArray[] {a} : (NDArray[]) r;
      for (int i = 0; i < outs.length; i++) {
        String key = r instanceof NDArray ? c.getKey() : c.getKey() + "_" + i;
        NDArray want = g.get(key);
        assertThat(want).as(area + "/" + dt + ": golden key " + key).isNotNull();
        same(want, outs[i], area + "/" + dt + "/" + key);
        compared++;
      }
      if (!(r instanceof NDArray)) {
        assertThat(g)
            .as(area + "/" + dt + ": no extra outputs for " + c.getKey())
            .doesNotContainKey(c.getKey() + "_" + outs.length);
      }
    }
    int stored = g.size() - 4;
    assertThat(compared).as(area + "/" + dt + ": every stored case is checked").isEqualTo(stored);
    return compared;
  }

  public static void same(NDArray want, NDArray got, String what) {
    NDAssert.assertExact(want, got, what);
    assertThat(got).as(what + " bitwise").isEqualTo(want);
  }
}
