package dev.cubed.runtime;

import dev.cubed.zarr.MissingChunkException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeoutException;

/**
 * Which task failures are worth another attempt.
 *
 * <p>A failure is <b>deterministic</b> (the same task would fail the same way again, so it is not
 * retried and the compute fails at once) when it is an {@link IllegalArgumentException} (bad
 * arguments, dtype and shape errors, and {@link dev.cubed.zarr.ZarrFormatException}, which extends
 * it), a {@link MissingChunkException} (an engine error: an intermediate chunk that should exist
 * does not), an {@link UnsupportedOperationException}, a {@link ClassCastException} or an
 * {@link ArithmeticException}.
 *
 * <p>A failure is <b>transient</b> (retried) when it is an {@link IOException}, an
 * {@link UncheckedIOException} (including {@link dev.cubed.zarr.ZarrStoreException}), an
 * {@link OutOfMemoryError} (other tasks may have held the heap), a {@link TimeoutException} or a
 * {@link TaskTimeoutException}.
 *
 * <p>The rule walks the cause chain from the outermost exception inwards and the first exception
 * of a listed type decides (so an {@code IllegalStateException} wrapping an {@code IOException} is
 * transient, and a {@code RuntimeException} wrapping an {@code IllegalArgumentException} is
 * deterministic). A chain with no listed type, e.g. a plain {@code RuntimeException} or
 * {@code IllegalStateException} thrown by user code, is treated as transient and retried.
 */
public final class RetryPolicy {
  private static final int MAX_DEPTH = 16;

  private RetryPolicy() {}

  /** True if the failure would recur on another attempt, so retrying it is pointless. */
  public static boolean isDeterministic(Throwable failure) {
    Throwable t = failure;
    for (int depth = 0; t != null && depth < MAX_DEPTH; depth++, t = t.getCause()) {
      if (isTransientType(t)) {
        return false;
      }
      if (isDeterministicType(t)) {
        return true;
      }
    }
    return false;
  }

  /** True if another attempt may succeed (the negation of {@link #isDeterministic}). */
  public static boolean isRetryable(Throwable failure) {
    return !isDeterministic(failure);
  }

  private static boolean isTransientType(Throwable t) {
    return t instanceof IOException || t instanceof UncheckedIOException
        || t instanceof OutOfMemoryError || t instanceof TimeoutException
        || t instanceof TaskTimeoutException;
  }

  private static boolean isDeterministicType(Throwable t) {
    return t instanceof IllegalArgumentException || t instanceof MissingChunkException
        || t instanceof UnsupportedOperationException || t instanceof ClassCastException
        || t instanceof ArithmeticException;
  }
}
