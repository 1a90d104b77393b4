package dev.saferetry.resilience;

import java.time.Duration;

/**
 * Waits between attempts. The client sleeps only through this interface, so tests inject a fake
 * that records the requested delays and returns at once.
 *
 * <p>Implementations must be thread-safe: one sleeper serves every call of a client.
 */
@FunctionalInterface
public interface Sleeper {
  /**
   * Blocks the calling thread for {@code delay}.
   *
   * @throws InterruptedException if the thread is interrupted while waiting
   */
  void sleep(Duration delay) throws InterruptedException;

  /** Returns the sleeper that really waits, with {@link Thread#sleep(long, int)}. */
  static Sleeper system() {
    return delay -> {
      if (!delay.isNegative() && !delay.isZero()) {
        Thread.sleep(delay.toMillis(), delay.toNanosPart() % 1_000_000);
      }
    };
  }
}
