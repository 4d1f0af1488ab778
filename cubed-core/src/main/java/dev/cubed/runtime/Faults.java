package dev.cubed.runtime;

import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Faults injected into task attempts by {@link ThreadsExecutor} (option {@link
 * ThreadsExecutor.Builder#faults}), to test that computes survive them and to check a setup.
 *
 * <p>For each attempt, before the task function runs: with probability {@code hangRate} the attempt
 * hangs (sleeps until interrupted, so only a task timeout or a backup task rescues it); otherwise a
 * random delay in {@code [minDelay, maxDelay]} is slept, then with probability {@code
 * failBeforeRate} an {@link InjectedFault} (an {@link IOException}, hence transient and retried) is
 * thrown before the function runs. After the function succeeded, with probability {@code
 * failAfterRate} an {@link InjectedFault} is thrown anyway (the task's output is already written:
 * this exercises idempotent retries).
 *
 * <p>Decisions are a pure function of (seed, op name, key, attempt number, backup or not), so a
 * seeded run injects the same faults whatever the thread interleaving. Counters report what was
 * injected. Instances are thread-safe; use one per compute when the counts matter.
 */
public final class Faults {
  private final long seed;
  private final double failBeforeRate;
  private final double failAfterRate;
  private final double hangRate;
  private final long minDelayNanos;
  private final long maxDelayNanos;
  private final AtomicLong failures = new AtomicLong();
  private final AtomicLong hangs = new AtomicLong();
  private final AtomicLong attempts = new AtomicLong();

  /** The exception thrown by an injected failure; an IOException, so it is retried. */
  public static final class InjectedFault extends IOException {
    private static final long serialVersionUID = 1L;

    InjectedFault(String message) {
      super(message);
    }
  }

  private Faults(Builder b) {
    this.seed = b.seed;
    this.failBeforeRate = b.failBeforeRate;
    this.failAfterRate = b.failAfterRate;
    this.hangRate = b.hangRate;
    this.minDelayNanos = b.minDelay.toNanos();
    this.maxDelayNanos = b.maxDelay.toNanos();
  }

  /**
   * Attempts fail with probability {@code failRate}: half of the failures before the task function
   * runs, half after it succeeded.
   */
  public static Faults failing(double failRate, long seed) {
    return builder().seed(seed).failBefore(failRate / 2).failAfter(failRate / 2).build();
  }

  /** A builder: no faults, seed 0. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds {@link Faults}; every rate is a probability in [0, 1]. */
  public static final class Builder {
    private long seed;
    private double failBeforeRate;
    private double failAfterRate;
    private double hangRate;
    private Duration minDelay = Duration.ZERO;
    private Duration maxDelay = Duration.ZERO;

    private Builder() {}

    /** The seed of every decision. */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** Probability that an attempt throws before the task function runs. */
    public Builder failBefore(double rate) {
      this.failBeforeRate = rate("failBefore", rate);
      return this;
    }

    /** Probability that an attempt throws after the task function succeeded. */
    public Builder failAfter(double rate) {
      this.failAfterRate = rate("failAfter", rate);
      return this;
    }

    /** Probability that an attempt hangs until it is interrupted. */
    public Builder hang(double rate) {
      this.hangRate = rate("hang", rate);
      return this;
    }

    /**
     * A random delay, uniform in {@code [min, max]}, slept before every attempt.
     *
     * @throws IllegalArgumentException if min is negative or max is below min
     */
    public Builder delay(Duration min, Duration max) {
      if (min.isNegative() || max.compareTo(min) < 0) {
        throw new IllegalArgumentException(
            "Faults.delay: need 0 <= min <= max, got min " + min + " and max " + max);
      }
      this.minDelay = min;
      this.maxDelay = max;
      return this;
    }

    /**
     * The faults.
     *
     * @throws IllegalArgumentException if failBefore + hang exceeds 1
     */
    public Faults build() {
      if (failBeforeRate + hangRate > 1) {
        throw new IllegalArgumentException(
            "Faults: failBefore ("
                + failBeforeRate
                + ") + hang ("
                + hangRate
                + ") must not exceed 1");
      }
      return new Faults(this);
    }

    private static double rate(String name, double r) {
      if (!(r >= 0 && r <= 1)) {
        throw new IllegalArgumentException(
            "Faults." + name + ": a probability in [0, 1] is" + " needed, got " + r);
      }
      return r;
    }
  }

  /** Failures injected so far (before and after the function). */
  public long injectedFailures() {
    return failures.get();
  }

  /** Hangs injected so far. */
  public long injectedHangs() {
    return hangs.get();
  }

  /** Attempts seen so far. */
  public long attemptsSeen() {
    return attempts.get();
  }

  private SplittableRandom random(String opName, long[] key, int attempt, boolean backup) {
    long h = seed * 0x9E3779B97F4A7C15L;
    h = h * 31 + opName.hashCode();
    h = h * 31 + Arrays.hashCode(key);
    h = h * 31 + attempt;
    h = h * 31 + (backup ? 1 : 0);
    return new SplittableRandom(h);
  }

  /**
   * Runs one attempt of a task function with this attempt's faults.
   *
   * @throws Exception what the function or an injected fault throws; InterruptedException when a
   *     hang is interrupted
   */
  void runAttempt(Operation op, long[] key, int attempt, boolean backup) throws Exception {
    attempts.incrementAndGet();
    SplittableRandom r = random(op.name(), key, attempt, backup);
    double before = r.nextDouble();
    double after = r.nextDouble();
    long delay =
        maxDelayNanos > minDelayNanos
            ? minDelayNanos + r.nextLong(maxDelayNanos - minDelayNanos + 1)
            : minDelayNanos;
    String where =
        "task "
            + Arrays.toString(key)
            + " of "
            + op.name()
            + ", attempt "
            + attempt
            + (backup ? " (backup)" : "");
    if (before < hangRate) {
      hangs.incrementAndGet();
      Thread.sleep(Long.MAX_VALUE); // until interrupted by a timeout, a winning backup or a stop
    }
    if (delay > 0) {
      Thread.sleep(delay / 1_000_000, (int) (delay % 1_000_000));
    }
    if (before < hangRate + failBeforeRate) {
      failures.incrementAndGet();
      throw new InjectedFault("injected failure before running " + where);
    }
    op.function().run(key);
    if (after < failAfterRate) {
      failures.incrementAndGet();
      throw new InjectedFault("injected failure after running " + where);
    }
  }
}
