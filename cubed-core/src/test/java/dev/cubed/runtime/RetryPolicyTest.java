package dev.cubed.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.zarr.MissingChunkException;
import dev.cubed.zarr.codec.ChecksumMismatchException;
import dev.cubed.zarr.store.ZarrFormatException;
import dev.cubed.zarr.store.ZarrStoreException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
  @Test
  void classifiesFailures() {
    assertThat(RetryPolicy.isDeterministic(new IllegalArgumentException("bad dtype"))).isTrue();
    assertThat(RetryPolicy.isDeterministic(new ZarrFormatException("bad json"))).isTrue();
    assertThat(RetryPolicy.isDeterministic(new UnsupportedOperationException())).isTrue();
    assertThat(RetryPolicy.isDeterministic(new ClassCastException())).isTrue();
    assertThat(RetryPolicy.isDeterministic(new ArithmeticException("/ by zero"))).isTrue();
    assertThat(RetryPolicy.isDeterministic(new NumberFormatException())).isTrue();
    assertThat(RetryPolicy.isDeterministic(new MissingChunkException("chunk c/0/1 missing")))
        .isTrue();
    // wrapped: the first listed type in the cause chain decides
    assertThat(RetryPolicy.isDeterministic(new RuntimeException(new IllegalArgumentException("x"))))
        .isTrue();
    assertThat(RetryPolicy.isDeterministic(new IllegalStateException(new IOException("disk"))))
        .isFalse();

    assertThat(RetryPolicy.isRetryable(new IOException("disk"))).isTrue();
    assertThat(RetryPolicy.isRetryable(new ZarrStoreException("put", new IOException()))).isTrue();
    assertThat(RetryPolicy.isRetryable(new UncheckedIOException(new IOException()))).isTrue();
    assertThat(RetryPolicy.isRetryable(new OutOfMemoryError())).isTrue();
    assertThat(RetryPolicy.isRetryable(new RuntimeException("user code"))).isTrue();
    assertThat(RetryPolicy.isRetryable(new IllegalStateException("user code"))).isTrue();
    assertThat(
            RetryPolicy.isRetryable(
                new TaskTimeoutException("op", new long[] {0}, Duration.ofSeconds(1), null)))
        .isTrue();
  }

  @Test
  void aDeterministicErrorIsNotRetried() {
    AtomicInteger calls = new AtomicInteger();
    Operation op =
        new Operation(
            "shape",
            List.<long[]>of(new long[] {3}),
            k -> {
              calls.incrementAndGet();
              throw new IllegalArgumentException("shapes (2, 3) and (4,) do not broadcast");
            },
            10);
    assertThatThrownBy(() -> new ThreadsExecutor(2, 5).execute("c", List.of(op), List.of()))
        .isInstanceOfSatisfying(
            TaskFailedException.class,
            e -> {
              assertThat(e.deterministic()).isTrue();
              assertThat(e.attempts()).isEqualTo(1);
            })
        .hasMessageContaining(
            "task [3] of operation shape failed on attempt 1, not retried:"
                + " deterministic error (IllegalArgumentException")
        .hasRootCauseMessage("shapes (2, 3) and (4,) do not broadcast");
    assertThat(calls.get()).isEqualTo(1);
  }

  /**
   * Issue 24: a crc32c mismatch is retried (a read damaged in transit succeeds when read again),
   * though it is a format error; a chunk corrupt on disk fails every attempt and the compute's
   * error is the checksum message, naming the chunk.
   */
  @Test
  void aChecksumMismatchIsRetriedThenReportedWithItsChunk() {
    ChecksumMismatchException bad =
        new ChecksumMismatchException(
            "zarr array 'a' chunk 'a/c/0/1'"
                + " in file:///w/: crc32c checksum mismatch: stored 0x1, computed 0x2 (corrupt chunk)");
    assertThat(RetryPolicy.isRetryable(bad)).isTrue();
    assertThat(RetryPolicy.isRetryable(new RuntimeException(bad))).isTrue();
    assertThat(
            RetryPolicy.isDeterministicRemote(
                List.of("dev.cubed.zarr.codec.ChecksumMismatchException")))
        .isFalse();
    assertThat(RetryPolicy.isDeterministic(new ZarrFormatException("bad json"))).isTrue();
    AtomicInteger calls = new AtomicInteger();
    Operation op =
        new Operation(
            "read",
            List.<long[]>of(new long[] {0}),
            k -> {
              if (calls.incrementAndGet() < 3) {
                throw bad;
              }
            },
            10);
    ThreadsExecutor ex =
        ThreadsExecutor.builder().workers(1).attempts(3).retryBackoff(Duration.ofMillis(1)).build();
    ex.execute("c", List.of(op), List.of());
    assertThat(calls.get()).as("two failed reads, then a good one").isEqualTo(3);
    Operation always =
        new Operation(
            "read",
            List.<long[]>of(new long[] {0}),
            k -> {
              throw bad;
            },
            10);
    assertThatThrownBy(() -> ex.execute("c2", List.of(always), List.of()))
        .isInstanceOfSatisfying(
            TaskFailedException.class, e -> assertThat(e.deterministic()).isFalse())
        .hasMessageContaining("failed after 3 attempt(s)")
        .hasMessageContaining("chunk 'a/c/0/1' in file:///w/: crc32c checksum mismatch");
  }

  @Test
  void aTransientErrorIsRetriedWithBackoff() {
    AtomicInteger calls = new AtomicInteger();
    Operation op =
        new Operation(
            "io",
            List.<long[]>of(new long[] {0}),
            k -> {
              calls.incrementAndGet();
              throw new IOException("store unavailable");
            },
            10);
    ThreadsExecutor ex =
        ThreadsExecutor.builder()
            .workers(1)
            .attempts(4)
            .retryBackoff(Duration.ofMillis(20))
            .build();
    long t0 = System.nanoTime();
    assertThatThrownBy(() -> ex.execute("c", List.of(op), List.of()))
        .isInstanceOfSatisfying(
            TaskFailedException.class, e -> assertThat(e.deterministic()).isFalse())
        .hasMessageContaining("failed after 4 attempt(s)")
        .hasRootCauseMessage("store unavailable");
    long ms = (System.nanoTime() - t0) / 1_000_000;
    assertThat(calls.get()).as("3 retries after the first attempt").isEqualTo(4);
    assertThat(ms).as("backoff 20 + 40 + 80 ms").isGreaterThanOrEqualTo(140);
  }
}
