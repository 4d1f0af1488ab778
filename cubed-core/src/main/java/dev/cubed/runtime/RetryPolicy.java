package dev.cubed.runtime;

import dev.cubed.zarr.MissingChunkException;
import dev.cubed.zarr.codec.ChecksumMismatchException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * Which task failures are worth another attempt.
 *
 * <p>A failure is <b>deterministic</b> (the same task would fail the same way again, so it is not
 * retried and the compute fails at once) when it is an {@link IllegalArgumentException} (bad
 * arguments, dtype and shape errors, and {@link dev.cubed.zarr.store.ZarrFormatException}, which
 * extends it), a {@link MissingChunkException} (an engine error: an intermediate chunk that should
 * exist does not), an {@link UnsupportedOperationException}, a {@link ClassCastException} or an
 * {@link ArithmeticException}.
 *
 * <p>A failure is <b>transient</b> (retried) when it is an {@link IOException}, an {@link
 * UncheckedIOException} (including {@link dev.cubed.zarr.store.ZarrStoreException}), an {@link
 * OutOfMemoryError} (other tasks may have held the heap), a {@link TimeoutException}, a {@link
 * TaskTimeoutException} or a {@link ChecksumMismatchException} (a crc32c mismatch: the bytes read
 * may have been damaged in transit or replaced while being read, and reading again is cheap; a
 * chunk corrupt where it is stored fails every attempt, and the last attempt's error, naming the
 * chunk, the array and the store, is the compute's). It is a format error, but it is transient, as
 * the transient types are checked first.
 *
 * <p>The rule walks the cause chain from the outermost exception inwards and the first exception of
 * a listed type decides (so an {@code IllegalStateException} wrapping an {@code IOException} is
 * transient, and a {@code RuntimeException} wrapping an {@code IllegalArgumentException} is
 * deterministic). A chain with no listed type, e.g. a plain {@code RuntimeException} or {@code
 * IllegalStateException} thrown by user code, is treated as transient and retried.
 *
 * <p>A failure inside a worker process arrives as a {@link WorkerTaskException}, which carries only
 * class names: it is classified by walking those names ({@link #isDeterministicRemote}) with the
 * same rule, each name resolved to its class in this JVM (the worker runs the same classpath); a
 * name that does not resolve is skipped. A dead worker ({@link
 * dev.cubed.runtime.processes.WorkerDiedException}, an {@link IOException}) is transient.
 */
public final class RetryPolicy {
  private static final int MAX_DEPTH = 16;

  private RetryPolicy() {}

  /** True if the failure would recur on another attempt, so retrying it is pointless. */
  public static boolean isDeterministic(Throwable failure) {
    Throwable t = failure;
    for (int depth = 0; t != null && depth < MAX_DEPTH; depth++, t = t.getCause()) {
      if (t instanceof WorkerTaskException w) {
        return isDeterministicRemote(w.remoteClassChain());
      }
      if (isTransientType(t)) {
        return false;
      }
      if (isDeterministicType(t)) {
        return true;
      }
    }
    return false;
  }

  /** The longest sleep between two attempts, nanoseconds (1 s). */
  static final long MAX_BACKOFF_NANOS = 1_000_000_000L;

  /**
   * The sleep before attempt {@code failed + 1}, nanoseconds: {@code base} before the 2nd attempt,
   * doubled before each later one, at most 1 s; 0 if {@code base} is 0. Every executor's retries
   * wait this long (the threads and processes executors' task runs, the beam executor's attempts
   * inside its DoFn).
   */
  public static long backoffNanos(long baseNanos, int failed) {
    if (baseNanos <= 0) {
      return 0;
    }
    return Math.min(MAX_BACKOFF_NANOS, baseNanos << Math.min(20, Math.max(0, failed - 1)));
  }

  /** True if another attempt may succeed (the negation of {@link #isDeterministic}). */
  public static boolean isRetryable(Throwable failure) {
    return !isDeterministic(failure);
  }

  /**
   * The rule applied to a remote failure's cause chain given as class names, outermost first. Names
   * that do not resolve to a class here are skipped; a chain with no listed type is transient.
   */
  public static boolean isDeterministicRemote(List<String> classChain) {
    int depth = 0;
    for (String name : classChain) {
      if (depth++ >= MAX_DEPTH) {
        break;
      }
      Class<?> c;
      try {
        c = Class.forName(name, false, RetryPolicy.class.getClassLoader());
      } catch (ClassNotFoundException | LinkageError e) {
        continue;
      }
      if (isTransientClass(c)) {
        return false;
      }
      if (isDeterministicClass(c)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isTransientType(Throwable t) {
    return isTransientClass(t.getClass());
  }

  private static boolean isDeterministicType(Throwable t) {
    return isDeterministicClass(t.getClass());
  }

  private static boolean isTransientClass(Class<?> c) {
    return IOException.class.isAssignableFrom(c)
        || UncheckedIOException.class.isAssignableFrom(c)
        || OutOfMemoryError.class.isAssignableFrom(c)
        || TimeoutException.class.isAssignableFrom(c)
        || TaskTimeoutException.class.isAssignableFrom(c)
        || ChecksumMismatchException.class.isAssignableFrom(c);
  }

  private static boolean isDeterministicClass(Class<?> c) {
    return IllegalArgumentException.class.isAssignableFrom(c)
        || MissingChunkException.class.isAssignableFrom(c)
        || UnsupportedOperationException.class.isAssignableFrom(c)
        || ClassCastException.class.isAssignableFrom(c)
        || ArithmeticException.class.isAssignableFrom(c);
  }
}
