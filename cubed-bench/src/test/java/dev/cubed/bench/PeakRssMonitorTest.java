package dev.cubed.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class PeakRssMonitorTest {
  private static boolean samplerRunning() {
    return Thread.getAllStackTraces().keySet().stream()
        .anyMatch(t -> t.isAlive() && t.getName().equals("peak-rss-monitor"));
  }

  @Test
  void selfOnlyStartsNoSamplerAndReportsThisJvmsHighWaterMark() {
    assumeTrue(Files.isReadable(Path.of("/proc/self/status")), "Linux /proc");
    assertThat(samplerRunning()).isFalse();
    long before;
    try (PeakRssMonitor m = PeakRssMonitor.selfOnly()) {
      assertThat(samplerRunning()).isFalse();
      before = m.peakBytes();
      long[] touched = new long[16 << 20]; // 128 MB, every page written
      for (int i = 0; i < touched.length; i += 512) {
        touched[i] = i;
      }
      long after = m.peakBytes();
      assertThat(touched[512]).isEqualTo(512);
      assertThat(before).isPositive();
      assertThat(after).isGreaterThanOrEqualTo(before);
      assertThat(after).isGreaterThan(100L << 20);
    }
  }

  @Test
  void sampledMonitorRunsItsSamplerUntilClosed() throws InterruptedException {
    assumeTrue(Files.isReadable(Path.of("/proc/self/status")), "Linux /proc");
    try (PeakRssMonitor m = PeakRssMonitor.start(10)) {
      assertThat(samplerRunning()).isTrue();
      assertThat(m.peakBytes()).isPositive();
    }
    for (int i = 0; i < 200 && samplerRunning(); i++) {
      Thread.sleep(10);
    }
    assertThat(samplerRunning()).isFalse();
  }
}
