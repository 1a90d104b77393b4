package dev.saferetry.resilience;

import java.time.Duration;
import java.util.Objects;

/**
 * How often and how patiently a client retries one call.
 *
 * <p>Delays grow exponentially with full jitter: before retry {@code n} (n = 1 for the second
 * attempt) the client waits a uniformly random time in {@code [0, min(maxDelay, initialDelay *
 * multiplier^(n-1))]}. A server hint ({@code Retry-After} as seconds or HTTP-date, {@code
 * Retry-After-Ms}) replaces the computed delay; a hint longer than {@link #maxRetryAfter()} is not
 * waited on — the call ends with the hint exposed so the caller can come back later with the same
 * intent. No retry is scheduled whose delay would pass the overall {@link #deadline()}.
 *
 * <pre>{@code
 * RetryPolicy patient = RetryPolicy.defaults()
 *     .withMaxAttempts(6)
 *     .withDeadline(Duration.ofMinutes(2));
 * RetryPolicy twice = patient.withMaxAttempts(2);
 * }</pre>
 *
 * <p>Instances are immutable and thread-safe; every {@code with...} method returns a new policy and
 * leaves this one alone.
 */
public final class RetryPolicy {
  private static final RetryPolicy DEFAULTS =
      new RetryPolicy(
          4,
          Duration.ofMillis(500),
          2.0,
          Duration.ofSeconds(8),
          Duration.ofSeconds(60),
          Duration.ofSeconds(60));

  private final int maxAttempts;
  private final Duration initialDelay;
  private final double multiplier;
  private final Duration maxDelay;
  private final Duration deadline;
  private final Duration maxRetryAfter;

  private RetryPolicy(
      int maxAttempts,
      Duration initialDelay,
      double multiplier,
      Duration maxDelay,
      Duration deadline,
      Duration maxRetryAfter) {
    this.maxAttempts = Checks.atLeastOne("maxAttempts", maxAttempts);
    this.initialDelay = Checks.nonNegative("initialDelay", initialDelay);
    this.multiplier = Checks.finiteAtLeast("multiplier", multiplier, 1.0, true);
    this.maxDelay = Checks.nonNegative("maxDelay", maxDelay);
    this.deadline = Checks.positive("deadline", deadline);
    this.maxRetryAfter = Checks.nonNegative("maxRetryAfter", maxRetryAfter);
  }

  /**
   * {@return the defaults: 4 attempts, 500 ms initial delay, ×2, 8 s largest delay, 60 s deadline,
   * 60 s hint ceiling}
   */
  public static RetryPolicy defaults() {
    return DEFAULTS;
  }

  /** {@return a policy that makes exactly one attempt, otherwise the defaults} */
  public static RetryPolicy noRetries() {
    return DEFAULTS.withMaxAttempts(1);
  }

  /**
   * {@return this policy with {@code attempts} in total, including the first; at least 1} Default:
   * 4.
   *
   * @param attempts the number of attempts
   * @throws IllegalArgumentException if {@code attempts} is less than 1
   */
  public RetryPolicy withMaxAttempts(int attempts) {
    return new RetryPolicy(attempts, initialDelay, multiplier, maxDelay, deadline, maxRetryAfter);
  }

  /**
   * {@return this policy with {@code delay} as the cap of the first retry's delay; not negative}
   * Default: 500 ms.
   *
   * @param delay the initial delay
   * @throws IllegalArgumentException if {@code delay} is negative
   * @throws NullPointerException if {@code delay} is null
   */
  public RetryPolicy withInitialDelay(Duration delay) {
    return new RetryPolicy(maxAttempts, delay, multiplier, maxDelay, deadline, maxRetryAfter);
  }

  /**
   * {@return this policy with {@code factor} as the growth factor of the delay cap per retry; at
   * least 1} Default: 2.0.
   *
   * @param factor the multiplier
   * @throws IllegalArgumentException if {@code factor} is less than 1, infinite or NaN
   */
  public RetryPolicy withMultiplier(double factor) {
    return new RetryPolicy(maxAttempts, initialDelay, factor, maxDelay, deadline, maxRetryAfter);
  }

  /**
   * {@return this policy with {@code delay} as the largest computed delay; not negative} Default: 8
   * s.
   *
   * @param delay the largest delay
   * @throws IllegalArgumentException if {@code delay} is negative
   * @throws NullPointerException if {@code delay} is null
   */
  public RetryPolicy withMaxDelay(Duration delay) {
    return new RetryPolicy(maxAttempts, initialDelay, multiplier, delay, deadline, maxRetryAfter);
  }

  /**
   * {@return this policy with {@code overall} as the time budget of one call, across all attempts
   * and delays; positive} Default: 60 s.
   *
   * @param overall the deadline
   * @throws IllegalArgumentException if {@code overall} is zero or negative
   * @throws NullPointerException if {@code overall} is null
   */
  public RetryPolicy withDeadline(Duration overall) {
    return new RetryPolicy(maxAttempts, initialDelay, multiplier, maxDelay, overall, maxRetryAfter);
  }

  /**
   * {@return this policy with {@code ceiling} as the longest server hint ({@code Retry-After}) that
   * is waited on; a longer one ends the call with the hint exposed} Not negative. Default: 60 s.
   *
   * @param ceiling the hint ceiling
   * @throws IllegalArgumentException if {@code ceiling} is negative
   * @throws NullPointerException if {@code ceiling} is null
   */
  public RetryPolicy withMaxRetryAfter(Duration ceiling) {
    return new RetryPolicy(maxAttempts, initialDelay, multiplier, maxDelay, deadline, ceiling);
  }

  /** {@return the attempts in total, including the first} */
  public int maxAttempts() {
    return maxAttempts;
  }

  /** {@return the cap of the first retry's delay} */
  public Duration initialDelay() {
    return initialDelay;
  }

  /** {@return the growth factor of the delay cap per retry} */
  public double multiplier() {
    return multiplier;
  }

  /** {@return the largest computed delay} */
  public Duration maxDelay() {
    return maxDelay;
  }

  /** {@return the overall time budget across all attempts and delays of one call} */
  public Duration deadline() {
    return deadline;
  }

  /** {@return the longest server hint that is waited on} */
  public Duration maxRetryAfter() {
    return maxRetryAfter;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RetryPolicy p
        && maxAttempts == p.maxAttempts
        && initialDelay.equals(p.initialDelay)
        && Double.compare(multiplier, p.multiplier) == 0
        && maxDelay.equals(p.maxDelay)
        && deadline.equals(p.deadline)
        && maxRetryAfter.equals(p.maxRetryAfter);
  }

  @Override
  public int hashCode() {
    return Objects.hash(maxAttempts, initialDelay, multiplier, maxDelay, deadline, maxRetryAfter);
  }

  @Override
  public String toString() {
    return "RetryPolicy[maxAttempts="
        + maxAttempts
        + ", initialDelay="
        + initialDelay
        + ", multiplier="
        + multiplier
        + ", maxDelay="
        + maxDelay
        + ", deadline="
        + deadline
        + ", maxRetryAfter="
        + maxRetryAfter
        + "]";
  }
}
