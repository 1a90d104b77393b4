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

  /** Arms {@code fault} for the next mutation (after any faults already armed). */
  public Faults next(Fault fault) {
    armed.add(Objects.requireNonNull(fault, "fault"));
    return this;
  }

  /** Arms {@code fault} for the next {@code n} mutations. */
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
