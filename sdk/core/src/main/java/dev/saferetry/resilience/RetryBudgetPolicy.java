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
 * RetryBudgetPolicy generous = RetryBudgetPolicy.defaults().withCapacity(100).withSuccessCredit(0.5);
 * }</pre>
 *
 * <p>Instances are immutable and thread-safe; every {@code with...} method returns a new policy and
 * leaves this one alone.
 */
public final class RetryBudgetPolicy {
  private static final RetryBudgetPolicy DEFAULTS = new RetryBudgetPolicy(true, 20, 1, 0.1);

  private final boolean enabled;
  private final double capacity;
  private final double retryCost;
  private final double successCredit;

  private RetryBudgetPolicy(
      boolean enabled, double capacity, double retryCost, double successCredit) {
    this.enabled = enabled;
    this.capacity = Checks.finiteAtLeast("capacity", capacity, 0, true);
    this.retryCost = Checks.finiteAtLeast("retryCost", retryCost, 0, false);
    this.successCredit = Checks.finiteAtLeast("successCredit", successCredit, 0, true);
  }

  /** {@return the defaults: capacity 20, retry cost 1, success credit 0.1} */
  public static RetryBudgetPolicy defaults() {
    return DEFAULTS;
  }

  /** {@return a budget that never limits retries} */
  public static RetryBudgetPolicy unlimited() {
    return new RetryBudgetPolicy(
        false, DEFAULTS.capacity, DEFAULTS.retryCost, DEFAULTS.successCredit);
  }

  /**
   * {@return this budget with {@code tokens} in a full bucket (the bucket starts full); at least 0}
   * Default: 20.
   *
   * @param tokens the capacity
   * @throws IllegalArgumentException if {@code tokens} is negative, infinite or NaN
   */
  public RetryBudgetPolicy withCapacity(double tokens) {
    return new RetryBudgetPolicy(enabled, tokens, retryCost, successCredit);
  }

  /**
   * {@return this budget with {@code tokens} spent per retry; more than 0} Default: 1.
   *
   * @param tokens the cost
   * @throws IllegalArgumentException if {@code tokens} is not positive, infinite or NaN
   */
  public RetryBudgetPolicy withRetryCost(double tokens) {
    return new RetryBudgetPolicy(enabled, capacity, tokens, successCredit);
  }

  /**
   * {@return this budget with {@code tokens} earned back per successful call, up to the capacity;
   * at least 0} Default: 0.1.
   *
   * @param tokens the credit
   * @throws IllegalArgumentException if {@code tokens} is negative, infinite or NaN
   */
  public RetryBudgetPolicy withSuccessCredit(double tokens) {
    return new RetryBudgetPolicy(enabled, capacity, retryCost, tokens);
  }

  /** {@return whether the budget applies} */
  public boolean enabled() {
    return enabled;
  }

  /** {@return the tokens in a full bucket} */
  public double capacity() {
    return capacity;
  }

  /** {@return the tokens one retry spends} */
  public double retryCost() {
    return retryCost;
  }

  /** {@return the tokens one successful call earns back} */
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
}
