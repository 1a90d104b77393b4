package dev.saferetry.resilience;

import java.time.Duration;
import java.util.Objects;

/**
 * How often and how patiently a client retries one operation.
 *
 * <p>Delays grow exponentially with full jitter: before retry {@code n} (n = 1 for the second
 * attempt) the client waits a uniformly random time in {@code [0, min(maxDelay, initialDelay *
 * multiplier^(n-1))]}. A server hint ({@code Retry-After} as seconds or HTTP-date, {@code
 * Retry-After-Ms}) replaces the computed delay; a hint longer than {@link #maxRetryAfter()} is not
 * waited on — the call ends with the hint exposed so the caller can come back later with the same
 * intent. No retry is scheduled whose delay would pass the overall {@link #deadline()}.
 *
 * @param maxAttempts attempts in total, including the first; default 4
 * @param initialDelay the cap of the first retry's delay; default 500 ms
 * @param multiplier the growth factor of the cap per retry; default 2.0
 * @param maxDelay the largest computed delay; default 8 s
 * @param deadline the overall time budget across all attempts and delays; default 60 s
 * @param maxRetryAfter the longest server hint that is waited on; default 60 s
 * @param shouldRetryHeader the response header that overrides the classification ({@code true} or
 *     {@code false}); default {@code X-Should-Retry}; {@code null} to ignore such headers
 *     <p>Instances are immutable and thread-safe.
 */
public record RetryPolicy(
    int maxAttempts,
    Duration initialDelay,
    double multiplier,
    Duration maxDelay,
    Duration deadline,
    Duration maxRetryAfter,
    String shouldRetryHeader) {

  /**
   * Validates the policy.
   *
   * @throws IllegalArgumentException naming the first bad parameter
   */
  public RetryPolicy {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be >= 1, was " + maxAttempts);
    }
    requireNonNegative("initialDelay", initialDelay);
    requireNonNegative("maxDelay", maxDelay);
    requireNonNegative("maxRetryAfter", maxRetryAfter);
    Objects.requireNonNull(deadline, "deadline");
    if (deadline.isNegative() || deadline.isZero()) {
      throw new IllegalArgumentException("deadline must be positive, was " + deadline);
    }
    if (!(multiplier >= 1.0) || Double.isInfinite(multiplier)) {
      throw new IllegalArgumentException("multiplier must be >= 1, was " + multiplier);
    }
  }

  private static void requireNonNegative(String name, Duration d) {
    Objects.requireNonNull(d, name);
    if (d.isNegative()) {
      throw new IllegalArgumentException(name + " must not be negative, was " + d);
    }
  }

  /** Returns the defaults: 4 attempts, 500 ms, ×2, 8 s cap, 60 s deadline, 60 s hint ceiling. */
  public static RetryPolicy defaults() {
    return new RetryPolicy(
        4,
        Duration.ofMillis(500),
        2.0,
        Duration.ofSeconds(8),
        Duration.ofSeconds(60),
        Duration.ofSeconds(60),
        "X-Should-Retry");
  }

  /** Returns a policy that makes exactly one attempt. */
  public static RetryPolicy noRetries() {
    return defaults().withMaxAttempts(1);
  }

  /** Returns a copy with another number of attempts in total. */
  public RetryPolicy withMaxAttempts(int attempts) {
    return new RetryPolicy(
        attempts, initialDelay, multiplier, maxDelay, deadline, maxRetryAfter, shouldRetryHeader);
  }

  /** Returns a copy with another backoff: first cap, growth factor and largest delay. */
  public RetryPolicy withBackoff(Duration initial, double factor, Duration max) {
    return new RetryPolicy(
        maxAttempts, initial, factor, max, deadline, maxRetryAfter, shouldRetryHeader);
  }

  /** Returns a copy with another overall deadline. */
  public RetryPolicy withDeadline(Duration overall) {
    return new RetryPolicy(
        maxAttempts, initialDelay, multiplier, maxDelay, overall, maxRetryAfter, shouldRetryHeader);
  }

  /** Returns a copy with another ceiling for server hints. */
  public RetryPolicy withMaxRetryAfter(Duration ceiling) {
    return new RetryPolicy(
        maxAttempts, initialDelay, multiplier, maxDelay, deadline, ceiling, shouldRetryHeader);
  }

  /** Returns a copy honouring another should-retry header name, or none when {@code null}. */
  public RetryPolicy withShouldRetryHeader(String headerName) {
    return new RetryPolicy(
        maxAttempts, initialDelay, multiplier, maxDelay, deadline, maxRetryAfter, headerName);
  }
}
