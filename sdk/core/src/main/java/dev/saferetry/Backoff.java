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

  /**
   * Returns the largest delay before retry {@code n} (n = 1 for the second attempt). Saturates: a
   * growth or a {@code maxDelay} beyond what nanoseconds in a {@code long} hold (about 292 years)
   * gives {@code maxDelay}, never an overflow.
   */
  Duration cap(int n) {
    double grown = nanos(policy.initialDelay()) * Math.pow(policy.multiplier(), n - 1);
    Duration max = policy.maxDelay();
    if (!(grown < nanos(max))) {
      return max; // also when the growth is infinite or not a number
    }
    return ofNanos(grown);
  }

  /** Returns the jittered delay before retry {@code n}. */
  Duration delay(int n) {
    return ofNanos(nanos(cap(n)) * random.getAsDouble());
  }

  /** A duration's nanoseconds as a double: never overflows, unlike {@link Duration#toNanos}. */
  private static double nanos(Duration d) {
    return d.getSeconds() * 1e9 + d.getNano();
  }

  /** A duration from non-negative nanoseconds, going through seconds when a long cannot hold it. */
  private static Duration ofNanos(double nanos) {
    if (nanos < 0x1p62) {
      return Duration.ofNanos((long) nanos);
    }
    return Duration.ofSeconds((long) Math.min(nanos / 1e9, 0x1p62));
  }
}
