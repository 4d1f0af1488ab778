package dev.cubed.plan;

import java.util.concurrent.Callable;

/** Test helper: runs code with plans tiled at a given size and never run inline. */
final class TileSettings {
  private TileSettings() {}

  /** Runs {@code body} with plans tiled at {@code tileBytes} (0: untiled), never inline. */
  static <T> T withTiles(long tileBytes, Callable<T> body) throws Exception {
    String old = System.getProperty("cubed.plan.tileBytes");
    String oldInline = System.getProperty("cubed.inlineMaxBytes");
    System.setProperty("cubed.plan.tileBytes", Long.toString(tileBytes));
    System.setProperty("cubed.inlineMaxBytes", "0");
    try {
      return body.call();
    } finally {
      restore("cubed.plan.tileBytes", old);
      restore("cubed.inlineMaxBytes", oldInline);
    }
  }

  private static void restore(String key, String old) {
    if (old == null) {
      System.clearProperty(key);
    } else {
      System.setProperty(key, old);
    }
  }
}
