package dev.saferetry;

import dev.saferetry.resilience.RetryBudgetPolicy;
import java.util.concurrent.atomic.AtomicLong;

/** The token bucket behind {@link RetryBudgetPolicy}, in thousandths of a token, lock-free. */
final class RetryBudget {
  private static final double SCALE = 1000.0;

  private final boolean enabled;
  private final long capacity;
  private final long cost;
  private final long credit;
  private final AtomicLong tokens;

  RetryBudget(RetryBudgetPolicy policy) {
    this.enabled = policy.enabled();
    this.capacity = Math.round(policy.capacity() * SCALE);
    this.cost = Math.round(policy.retryCost() * SCALE);
    this.credit = Math.round(policy.successCredit() * SCALE);
    this.tokens = new AtomicLong(capacity);
  }

  /** Whether the bucket holds the cost of one retry now (a look, nothing spent). */
  boolean hasToken() {
    return !enabled || tokens.get() >= cost;
  }

  /** Spends the cost of one retry if the bucket holds it. */
  boolean tryAcquireRetry() {
    if (!enabled) {
      return true;
    }
    long now;
    do {
      now = tokens.get();
      if (now < cost) {
        return false;
      }
    } while (!tokens.compareAndSet(now, now - cost));
    return true;
  }

  /** Earns the credit of one successful call, up to the capacity. */
  void onSuccess() {
    if (enabled && credit > 0) {
      tokens.accumulateAndGet(credit, (t, c) -> Math.min(capacity, t + c));
    }
  }
}
