package dev.saferetry;

import dev.saferetry.resilience.RetryPolicy;
import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * Exponential backoff with full jitter: the delay before retry n is uniform in [0, cap(n)], with
 * cap(n) = min(maxDelay, initialDelay * multiplier^(n-1)). Full jitter spreads many clients that
 * failed together, so a recovering server is not hit by synchronised waves.
 */
final class Backoff {
  private final RetryPolicy policy;
  private final DoubleSupplier random;

  /** Creates a backoff; {@code random} returns values in [0, 1). */
  Backoff(RetryPolicy policy, DoubleSupplier random) {
    this.policy = policy;
    this.random = random;
  }

  /** Returns the largest delay before retry {@code n} (n = 1 for the second attempt). */
  Duration cap(int n) {
    double cap = policy.initialDelay().toNanos() * Math.pow(policy.multiplier(), n - 1);
    double max = policy.maxDelay().toNanos();
    return Duration.ofNanos((long) Math.min(cap, max));
  }

  /** Returns the jittered delay before retry {@code n}. */
  Duration delay(int n) {
    return Duration.ofNanos((long) (cap(n).toNanos() * random.getAsDouble()));
  }
}
