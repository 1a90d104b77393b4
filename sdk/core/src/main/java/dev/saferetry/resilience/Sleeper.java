package dev.saferetry.resilience;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Waits between attempts. The client waits only through this interface — {@link #sleep} on the
 * synchronous path, {@link #after} on the asynchronous one — so tests inject a fake that records
 * the requested delays and returns at once.
 *
 * <pre>{@code
 * // A fake for tests: nothing waits, every delay is recorded.
 * List<Duration> delays = new CopyOnWriteArrayList<>();
 * Sleeper fake = new Sleeper() {
 *   public void sleep(Duration d) { delays.add(d); }
 *   public CompletableFuture<Void> after(Duration d) {
 *     delays.add(d);
 *     return CompletableFuture.completedFuture(null);
 *   }
 * };
 * }</pre>
 *
 * <p>Implementations must be thread-safe: one sleeper serves every call of a client.
 */
@FunctionalInterface
public interface Sleeper {
  /**
   * Blocks the calling thread for {@code delay}.
   *
   * @param delay how long to wait; zero or negative returns at once
   * @throws InterruptedException if the thread is interrupted while waiting
   */
  void sleep(Duration delay) throws InterruptedException;

  /**
   * {@return a future that completes after {@code delay}, holding no thread while it waits}
   * Whatever depends on it must not run on the completing thread for long: the client hands the
   * next attempt to its I/O executor at once. Default: one JVM-wide timer thread ({@link
   * CompletableFuture#delayedExecutor}) completes the future.
   *
   * @param delay how long to wait; zero or negative completes at once
   */
  default CompletableFuture<Void> after(Duration delay) {
    if (delay.isNegative() || delay.isZero()) {
      return CompletableFuture.completedFuture(null);
    }
    return CompletableFuture.runAsync(
        () -> {},
        CompletableFuture.delayedExecutor(delay.toNanos(), TimeUnit.NANOSECONDS, Runnable::run));
  }

  /**
   * {@return the sleeper that really waits: {@link Thread#sleep(long, int)}, and the JVM-wide timer
   * for {@link #after}}
   */
  static Sleeper system() {
    return delay -> {
      if (!delay.isNegative() && !delay.isZero()) {
        Thread.sleep(delay.toMillis(), delay.toNanosPart() % 1_000_000);
      }
    };
  }
}
