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
 * RetryPolicy patient = RetryPolicy.builder()
 *     .maxAttempts(6)
 *     .deadline(Duration.ofMinutes(2))
 *     .build();
 * RetryPolicy twice = patient.toBuilder().maxAttempts(2).build();
 * }</pre>
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class RetryPolicy {
  private static final RetryPolicy DEFAULTS = builder().build();

  private final int maxAttempts;
  private final Duration initialDelay;
  private final double multiplier;
  private final Duration maxDelay;
  private final Duration deadline;
  private final Duration maxRetryAfter;

  private RetryPolicy(Builder b) {
    this.maxAttempts = Checks.atLeastOne("maxAttempts", b.maxAttempts);
    this.initialDelay = Checks.nonNegative("initialDelay", b.initialDelay);
    this.multiplier = Checks.finiteAtLeast("multiplier", b.multiplier, 1.0, true);
    this.maxDelay = Checks.nonNegative("maxDelay", b.maxDelay);
    this.deadline = Checks.positive("deadline", b.deadline);
    this.maxRetryAfter = Checks.nonNegative("maxRetryAfter", b.maxRetryAfter);
  }

  /**
   * Returns a builder with every setting at its default.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns the defaults: 4 attempts, 500 ms initial delay, ×2, 8 s largest delay, 60 s deadline,
   * 60 s hint ceiling.
   *
   * @return the default policy
   */
  public static RetryPolicy defaults() {
    return DEFAULTS;
  }

  /**
   * Returns a policy that makes exactly one attempt, otherwise the defaults.
   *
   * @return a policy without retries
   */
  public static RetryPolicy noRetries() {
    return builder().maxAttempts(1).build();
  }

  /**
   * Returns a builder holding a copy of this policy's settings. Like every value's {@code
   * toBuilder()}, it shares nothing with this one: a value holds no resources.
   *
   * @return a new builder
   */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /**
   * Returns the attempts in total, including the first.
   *
   * @return at least 1
   */
  public int maxAttempts() {
    return maxAttempts;
  }

  /**
   * Returns the cap of the first retry's delay.
   *
   * @return the initial delay
   */
  public Duration initialDelay() {
    return initialDelay;
  }

  /**
   * Returns the growth factor of the delay cap per retry.
   *
   * @return at least 1
   */
  public double multiplier() {
    return multiplier;
  }

  /**
   * Returns the largest computed delay.
   *
   * @return the largest delay
   */
  public Duration maxDelay() {
    return maxDelay;
  }

  /**
   * Returns the overall time budget across all attempts and delays of one call.
   *
   * @return the deadline, positive
   */
  public Duration deadline() {
    return deadline;
  }

  /**
   * Returns the longest server hint that is waited on.
   *
   * @return the hint ceiling
   */
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

  /** Builds a {@link RetryPolicy}; {@link #build()} validates. Not thread-safe. */
  public static final class Builder {
    private int maxAttempts = 4;
    private Duration initialDelay = Duration.ofMillis(500);
    private double multiplier = 2.0;
    private Duration maxDelay = Duration.ofSeconds(8);
    private Duration deadline = Duration.ofSeconds(60);
    private Duration maxRetryAfter = Duration.ofSeconds(60);

    private Builder() {}

    private Builder(RetryPolicy p) {
      maxAttempts = p.maxAttempts;
      initialDelay = p.initialDelay;
      multiplier = p.multiplier;
      maxDelay = p.maxDelay;
      deadline = p.deadline;
      maxRetryAfter = p.maxRetryAfter;
    }

    /**
     * Attempts in total, including the first; at least 1. Default: 4.
     *
     * @param attempts the number of attempts
     * @return this builder
     */
    public Builder maxAttempts(int attempts) {
      this.maxAttempts = attempts;
      return this;
    }

    /**
     * The cap of the first retry's delay; not negative. Default: 500 ms.
     *
     * @param delay the initial delay
     * @return this builder
     */
    public Builder initialDelay(Duration delay) {
      this.initialDelay = delay;
      return this;
    }

    /**
     * The growth factor of the delay cap per retry; at least 1. Default: 2.0.
     *
     * @param factor the multiplier
     * @return this builder
     */
    public Builder multiplier(double factor) {
      this.multiplier = factor;
      return this;
    }

    /**
     * The largest computed delay; not negative. Default: 8 s.
     *
     * @param delay the largest delay
     * @return this builder
     */
    public Builder maxDelay(Duration delay) {
      this.maxDelay = delay;
      return this;
    }

    /**
     * The overall time budget of one call, across all attempts and delays; positive. Default: 60 s.
     *
     * @param overall the deadline
     * @return this builder
     */
    public Builder deadline(Duration overall) {
      this.deadline = overall;
      return this;
    }

    /**
     * The longest server hint ({@code Retry-After}) that is waited on; a longer one ends the call
     * with the hint exposed. Not negative. Default: 60 s.
     *
     * @param ceiling the hint ceiling
     * @return this builder
     */
    public Builder maxRetryAfter(Duration ceiling) {
      this.maxRetryAfter = ceiling;
      return this;
    }

    /**
     * Returns the policy.
     *
     * @return the policy
     * @throws IllegalArgumentException naming the first bad parameter
     * @throws NullPointerException naming a missing duration
     */
    public RetryPolicy build() {
      return new RetryPolicy(this);
    }
  }
}
