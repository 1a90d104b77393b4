package dev.saferetry.examples.support.stripe;

import java.time.Clock;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** The server's data: one ledger per account, the clock, and counters of side effects. */
final class StripeState {
  private static final String PLATFORM = "";

  final Clock clock;
  final AtomicLong chargesCreated = new AtomicLong();
  final AtomicLong refundsCreated = new AtomicLong();
  final AtomicLong customersCreated = new AtomicLong();
  final AtomicLong customersDeleted = new AtomicLong();
  private final ConcurrentHashMap<String, Ledger> ledgers = new ConcurrentHashMap<>();

  StripeState(Clock clock) {
    this.clock = clock;
  }

  /** Returns the ledger of {@code account}, or the platform's for null. */
  Ledger ledger(String account) {
    return ledgers.computeIfAbsent(account == null ? PLATFORM : account, a -> new Ledger());
  }

  /** Returns now in epoch seconds, as Stripe's {@code created} fields are. */
  long now() {
    return clock.instant().getEpochSecond();
  }
}
