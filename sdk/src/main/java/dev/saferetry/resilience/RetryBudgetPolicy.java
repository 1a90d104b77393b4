package dev.saferetry.resilience;

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
 * @param enabled whether the budget applies; default true
 * @param capacity tokens in a full bucket; default 20
 * @param retryCost tokens one retry spends; default 1
 * @param successCredit tokens one successful call earns back; default 0.1
 *     <p>Instances are immutable and thread-safe.
 */
public record RetryBudgetPolicy(
    boolean enabled, double capacity, double retryCost, double successCredit) {

  /**
   * Validates the policy.
   *
   * @throws IllegalArgumentException naming the first bad parameter
   */
  public RetryBudgetPolicy {
    if (!(capacity >= 0) || Double.isInfinite(capacity)) {
      throw new IllegalArgumentException("capacity must be >= 0, was " + capacity);
    }
    if (!(retryCost > 0) || Double.isInfinite(retryCost)) {
      throw new IllegalArgumentException("retryCost must be > 0, was " + retryCost);
    }
    if (!(successCredit >= 0) || Double.isInfinite(successCredit)) {
      throw new IllegalArgumentException("successCredit must be >= 0, was " + successCredit);
    }
  }

  /** Returns the defaults: capacity 20, retry cost 1, success credit 0.1. */
  public static RetryBudgetPolicy defaults() {
    return new RetryBudgetPolicy(true, 20, 1, 0.1);
  }

  /** Returns a budget that never limits retries. */
  public static RetryBudgetPolicy unlimited() {
    return new RetryBudgetPolicy(false, 20, 1, 0.1);
  }

  /** Returns a copy with another capacity. */
  public RetryBudgetPolicy withCapacity(double tokens) {
    return new RetryBudgetPolicy(enabled, tokens, retryCost, successCredit);
  }
}
