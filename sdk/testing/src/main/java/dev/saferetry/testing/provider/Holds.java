package dev.saferetry.testing.provider;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Requests held inside the provider by a hang, each on its own server thread, until {@link
 * #releaseAll()} (called by the test, a reset or close) or {@link #MAX_HOLD} at the latest, so that
 * a forgotten hang never outlives a test run. Thread-safe.
 */
final class Holds {
  static final Duration MAX_HOLD = Duration.ofMinutes(10);

  private final Object lock = new Object();
  private int held;
  private long releases;

  /** Holds the calling thread until released; keeps the interrupt. */
  void hold() {
    synchronized (lock) {
      long generation = releases;
      held++;
      lock.notifyAll();
      long deadline = System.nanoTime() + MAX_HOLD.toNanos();
      try {
        while (releases == generation) {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            return;
          }
          TimeUnit.NANOSECONDS.timedWait(lock, left);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        held--;
      }
    }
  }

  /** Waits until at least one request is held; false if none was within {@code timeout}. */
  boolean awaitHeld(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (lock) {
      while (held == 0) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        TimeUnit.NANOSECONDS.timedWait(lock, left);
      }
      return true;
    }
  }

  int held() {
    synchronized (lock) {
      return held;
    }
  }

  void releaseAll() {
    synchronized (lock) {
      releases++;
      lock.notifyAll();
    }
  }
}
