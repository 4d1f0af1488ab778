package dev.cubed.diagnostics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.runtime.Events;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The engine's own progress bars: the line format, log mode (a line at start and at completion,
 * repeats skipped) and terminal mode (bars redrawn in place with cursor moves, completed bars left
 * on screen).
 */
class ProgressCallbackTest {
  static Events.TaskEnd task(String op) {
    return new Events.TaskEnd(op, new long[] {0}, 0, 1, 1, 0, 0, false, "w", -1, -1);
  }

  @Test
  void lineFormat() {
    ProgressCallback.Bar b = new ProgressCallback.Bar("op-a", 4, 1_000);
    assertThat(b.render(1_000))
        .isEqualTo(
            String.format("%-28s", "op-a") + "   0% [" + " ".repeat(40) + "] 0/4 (0:00:00 / ?)");
    b.done.set(1);
    assertThat(b.render(4_000))
        .isEqualTo(
            String.format("%-28s", "op-a")
                + "  25% ["
                + "=".repeat(10)
                + " ".repeat(30)
                + "] 1/4 (0:00:03 / 0:00:09)");
    b.done.set(4);
    assertThat(b.render(3_602_000))
        .endsWith("100% [" + "=".repeat(40) + "] 4/4 (1:00:01 / 0:00:00)");
    assertThat(new ProgressCallback.Bar("empty", 0, 0).render(0))
        .contains("100% [")
        .contains("0/0");
  }

  @Test
  void logModePrintsStartAndEndOfEveryOp() {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    ProgressCallback p =
        new ProgressCallback(new PrintStream(buf, true, StandardCharsets.UTF_8), false);
    p.onOpStart(new Events.OpStart("a", 3, 0, 0));
    p.onOpStart(new Events.OpStart("b", 2, 0, 0));
    for (int i = 0; i < 3; i++) {
      p.onTaskEnd(task("a"));
    }
    p.onOpEnd(new Events.OpEnd("a", 3, 0, 1));
    p.onTaskEnd(task("b"));
    p.onComputeEnd(new Events.ComputeEnd("c", 0, 1, new RuntimeException("failed")));
    List<String> lines = buf.toString(StandardCharsets.UTF_8).lines().toList();
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0)).startsWith("a ").contains("0/3");
    assertThat(lines.get(1)).startsWith("b ").contains("0/2");
    assertThat(lines.get(2)).startsWith("a ").contains("100% [").contains("3/3");
    assertThat(buf.toString(StandardCharsets.UTF_8)).doesNotContain("\033[");
  }

  @Test
  void terminalModeRedrawsInPlace() {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    ProgressCallback p =
        new ProgressCallback(new PrintStream(buf, true, StandardCharsets.UTF_8), true);
    p.onOpStart(new Events.OpStart("a", 2, 0, 0));
    p.onOpStart(new Events.OpStart("b", 1, 0, 0));
    p.onTaskEnd(task("a"));
    p.onOpEnd(new Events.OpEnd("a", 2, 0, 1));
    p.onOpEnd(new Events.OpEnd("b", 1, 0, 1));
    p.onComputeEnd(new Events.ComputeEnd("c", 0, 1, null));
    String s = buf.toString(StandardCharsets.UTF_8);
    // the second draw moves up over the one bar drawn first; later draws over both
    assertThat(s).contains("\033[1A").contains("\033[2A").contains("\033[K");
    // a completed bar at the top stays on screen and leaves the redrawn region
    assertThat(s).containsPattern("a +100% \\[=+\\] 2/2");
    String last = s.substring(s.lastIndexOf('\r') + 1);
    assertThat(last).contains("b ").contains("1/1").doesNotContain("2/2");
    int before = s.length();
    p.onComputeEnd(new Events.ComputeEnd("c", 0, 1, null));
    assertThat(buf.size()).isEqualTo(before);
  }
}
