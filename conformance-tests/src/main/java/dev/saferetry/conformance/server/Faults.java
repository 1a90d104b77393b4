package dev.saferetry.conformance.server;

import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The queue of armed one-shot {@link Fault}s of one {@link ReferenceServer}. Each mutation the
 * server executes takes the fault at the head of the queue, if any.
 *
 * <p>Thread-safe.
 */
public final class Faults {
  private final ConcurrentLinkedQueue<Fault> armed = new ConcurrentLinkedQueue<>();

  Faults() {}

  /**
   * Arms a fault for the next mutation (after any faults already armed).
   *
   * @param fault the fault
   * @return this queue, to arm more
   */
  public Faults next(Fault fault) {
    armed.add(Objects.requireNonNull(fault, "fault"));
    return this;
  }

  /**
   * Arms a fault for each of the next {@code n} mutations (after any faults already armed).
   *
   * @param fault the fault
   * @param n how many mutations it applies to; at least 1
   * @return this queue, to arm more
   * @throws IllegalArgumentException if {@code n} is less than 1
   */
  public Faults nextN(Fault fault, int n) {
    if (n < 1) {
      throw new IllegalArgumentException("n must be positive: " + n);
    }
    for (int i = 0; i < n; i++) {
      next(fault);
    }
    return this;
  }

  /** Disarms every pending fault. */
  public void clear() {
    armed.clear();
  }

  /** The next armed fault without taking it, or null. */
  Fault peek() {
    return armed.peek();
  }

  /** Takes the next armed fault, or null. */
  Fault poll() {
    return armed.poll();
  }
}
