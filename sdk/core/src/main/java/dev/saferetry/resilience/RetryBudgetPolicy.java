package dev.saferetry.resilience;

import java.util.Objects;

/**
 * A client-wide retry budget: a token bucket shared by every call of one client, so that when a
 * server is down, many concurrent callers cannot multiply the load on it.
 *
 * <p>The bucket starts full with {@link #capacity()} tokens. Every retry (not the first attempt)
 * spends {@link #retryCost()}; every successful call earns {@link #successCredit()} back, up to the
 * capacity. A retry that finds too few tokens is not made: the call ends as it would after its last
 * attempt — {@code UNKNOWN} with the key kept, or {@code FAILED} if nothing was ever sent.
 *
 * <p><b>The bound.</b> While every answer is a failure, no tokens are earned, so over any period
 * the requests sent are at most {@code intents + capacity / retryCost} (plus {@code successCredit /
 * retryCost} per success in between). With the defaults — capacity 20, cost 1, credit 0.1 — a fleet
 * of callers facing a dead server sends each intent once, plus at most 20 retries in total, instead
 * of four attempts per intent.
 *
 * <pre>{@code
 * RetryBudgetPolicy generous = RetryBudgetPolicy.builder().capacity(100).successCredit(0.5).build();
 * }</pre>
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class RetryBudgetPolicy {
  private static final RetryBudgetPolicy DEFAULTS = builder().build();

  private final boolean enabled;
  private final double capacity;
  private final double retryCost;
  private final double successCredit;

  private RetryBudgetPolicy(Builder b) {
    this.enabled = b.enabled;
    this.capacity = Checks.finiteAtLeast("capacity", b.capacity, 0, true);
    this.retryCost = Checks.finiteAtLeast("retryCost", b.retryCost, 0, false);
    this.successCredit = Checks.finiteAtLeast("successCredit", b.successCredit, 0, true);
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
   * Returns the defaults: capacity 20, retry cost 1, success credit 0.1.
   *
   * @return the default budget
   */
  public static RetryBudgetPolicy defaults() {
    return DEFAULTS;
  }

  /**
   * Returns a budget that never limits retries.
   *
   * @return a disabled budget
   */
  public static RetryBudgetPolicy unlimited() {
    return builder().enabled(false).build();
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
   * Returns whether the budget applies.
   *
   * @return whether it is enabled
   */
  public boolean enabled() {
    return enabled;
  }

  /**
   * Returns the tokens in a full bucket.
   *
   * @return the capacity
   */
  public double capacity() {
    return capacity;
  }

  /**
   * Returns the tokens one retry spends.
   *
   * @return the cost, positive
   */
  public double retryCost() {
    return retryCost;
  }

  /**
   * Returns the tokens one successful call earns back.
   *
   * @return the credit
   */
  public double successCredit() {
    return successCredit;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RetryBudgetPolicy p
        && enabled == p.enabled
        && Double.compare(capacity, p.capacity) == 0
        && Double.compare(retryCost, p.retryCost) == 0
        && Double.compare(successCredit, p.successCredit) == 0;
  }

  @Override
  public int hashCode() {
    return Objects.hash(enabled, capacity, retryCost, successCredit);
  }

  @Override
  public String toString() {
    return "RetryBudgetPolicy[enabled="
        + enabled
        + ", capacity="
        + capacity
        + ", retryCost="
        + retryCost
        + ", successCredit="
        + successCredit
        + "]";
  }

  /** Builds a {@link RetryBudgetPolicy}; {@link #build()} validates. Not thread-safe. */
  public static final class Builder {
    private boolean enabled = true;
    private double capacity = 20;
    private double retryCost = 1;
    private double successCredit = 0.1;

    private Builder() {}

    private Builder(RetryBudgetPolicy p) {
      enabled = p.enabled;
      capacity = p.capacity;
      retryCost = p.retryCost;
      successCredit = p.successCredit;
    }

    /**
     * Whether the budget applies. Default: true.
     *
     * @param on whether the budget is enabled
     * @return this builder
     */
    public Builder enabled(boolean on) {
      this.enabled = on;
      return this;
    }

    /**
     * The tokens in a full bucket (the bucket starts full); at least 0. Default: 20.
     *
     * @param tokens the capacity
     * @return this builder
     */
    public Builder capacity(double tokens) {
      this.capacity = tokens;
      return this;
    }

    /**
     * The tokens one retry spends; more than 0. Default: 1.
     *
     * @param tokens the cost
     * @return this builder
     */
    public Builder retryCost(double tokens) {
      this.retryCost = tokens;
      return this;
    }

    /**
     * The tokens one successful call earns back, up to the capacity; at least 0. Default: 0.1.
     *
     * @param tokens the credit
     * @return this builder
     */
    public Builder successCredit(double tokens) {
      this.successCredit = tokens;
      return this;
    }

    /**
     * Returns the policy.
     *
     * @return the policy
     * @throws IllegalArgumentException naming the first bad parameter
     */
    public RetryBudgetPolicy build() {
      return new RetryBudgetPolicy(this);
    }
  }
}
