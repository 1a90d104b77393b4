package dev.saferetry.examples;

import dev.saferetry.jdbc.InboxOutcome;
import java.util.concurrent.atomic.LongAdder;

/**
 * Part of the {@link WebhookReceiver} example: what the receiver did with its deliveries, served as
 * {@code GET /effects}: {@code {"applied": n, "duplicates": n, "stale": n, "rejected": n}}.
 * Thread-safe.
 */
final class DeliveryCounts {
  private final LongAdder applied = new LongAdder();
  private final LongAdder duplicates = new LongAdder();
  private final LongAdder stale = new LongAdder();
  private final LongAdder rejected = new LongAdder();

  void count(InboxOutcome outcome) {
    switch (outcome) {
      case APPLIED -> applied.increment();
      case DUPLICATE -> duplicates.increment();
      case STALE -> stale.increment();
    }
  }

  void rejected() {
    rejected.increment();
  }

  String json() {
    return String.format(
        "{\"applied\": %d, \"duplicates\": %d, \"stale\": %d, \"rejected\": %d}",
        applied.sum(), duplicates.sum(), stale.sum(), rejected.sum());
  }
}
