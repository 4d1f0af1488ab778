package dev.cubed.bridge;

import dev.cubed.zarr.store.Stores;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Hides credentials in URLs before text leaves the bridge (error replies, its standard error): the
 * user information of {@code scheme://user:password@host/...} becomes {@code ***}, giving {@code
 * scheme://***@host/...}. A token given as the user name alone ({@code https://TOKEN@host}) is
 * hidden the same way. Text without such URLs is returned unchanged. The bridge's standard error
 * (its own lines and the engine's log) goes through {@link #lines}.
 */
final class Redact {
  private Redact() {}

  /**
   * {@code text} with the user information of every URL in it replaced by {@code ***}: the engine's
   * one rule, {@link dev.cubed.zarr.store.Stores#redact}.
   */
  static String urls(String text) {
    return Stores.redact(text);
  }

  /**
   * A stream that writes {@code out} line by line with {@link #urls} applied to each line (a line
   * is held until its newline, 64 KiB, or close: a URL split over two prints is still caught).
   */
  static OutputStream lines(OutputStream out) {
    return new OutputStream() {
      private final ByteArrayOutputStream line = new ByteArrayOutputStream();

      @Override
      public synchronized void write(int b) throws IOException {
        line.write(b);
        if (b == '\n' || line.size() >= 1 << 16) {
          emit();
        }
      }

      /** Flushes the complete lines only: a PrintStream flushes after every print. */
      @Override
      public synchronized void flush() throws IOException {
        out.flush();
      }

      @Override
      public synchronized void close() throws IOException {
        emit();
        out.close();
      }

      private void emit() throws IOException {
        if (line.size() > 0) {
          out.write(urls(line.toString(StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8));
          line.reset();
        }
      }
    };
  }
}
