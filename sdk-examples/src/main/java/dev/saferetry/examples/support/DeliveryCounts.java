package dev.saferetry.examples.support;

import dev.saferetry.jdbc.inbox.InboxResult;
import java.util.concurrent.atomic.LongAdder;

/**
 * Part of the {@link dev.saferetry.examples.WebhookReceiver} example: what the receiver did with
 * its deliveries, served as {@code GET /effects}: {@code {"applied": n, "duplicates": n, "stale":
 * n, "ignored": n, "rejected": n}}. Each delivery counts once: {@code applied} events changed (or
 * confirmed) their order, {@code stale} ones were older than what their order already saw, {@code
 * ignored} ones were authentic but of no concern to this receiver (another event type, a charge
 * without an order), {@code duplicates} are redeliveries of any event already received, {@code
 * rejected} deliveries were answered 400. Thread-safe.
 */
public final class DeliveryCounts {
  private final LongAdder applied = new LongAdder();
  private final LongAdder duplicates = new LongAdder();
  private final LongAdder stale = new LongAdder();
  private final LongAdder ignored = new LongAdder();
  private final LongAdder rejected = new LongAdder();

  /**
   * Counts a delivery the inbox settled and returns its name for the answer: the inbox's outcome,
   * or {@code IGNORED} for the first receipt of an event the receiver does not handle.
   */
  public String count(InboxResult outcome, boolean handled) {
    if (outcome == InboxResult.APPLIED && !handled) {
      ignored.increment();
      return "IGNORED";
    }
    switch (outcome) {
      case APPLIED -> applied.increment();
      case DUPLICATE -> duplicates.increment();
      case STALE -> stale.increment();
    }
    return outcome.name();
  }

  /** Counts a delivery answered 400. */
  public void rejected() {
    rejected.increment();
  }

  /** {@return the counts as JSON, served as {@code GET /effects}} */
  public String json() {
    return String.format(
        "{\"applied\": %d, \"duplicates\": %d, \"stale\": %d, \"ignored\": %d, \"rejected\": %d}",
        applied.sum(), duplicates.sum(), stale.sum(), ignored.sum(), rejected.sum());
  }
}
