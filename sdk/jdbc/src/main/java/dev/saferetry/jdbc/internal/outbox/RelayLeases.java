package dev.saferetry.jdbc.internal.outbox;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.jdbc.internal.Deadline;
import dev.saferetry.jdbc.internal.keystore.KeyStoreDatabase;
import dev.saferetry.jdbc.internal.keystore.RelayCodes;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The relay's operations on the outbox under leases: claims, renewals, and the fenced writes that
 * end a lease (complete, retry later, hold). Every lease decision is made at the database's clock,
 * read in the transaction that makes it; the variants taking an {@code Instant} judge at the
 * caller's time instead (tools, tests), and every claimer of the table must then share that clock.
 * The rules are in docs/fleet-and-outbox.md.
 *
 * <p>Thread-safe.
 */
public final class RelayLeases {
  private final KeyStoreDatabase store;
  private final RelayTable relay;

  public RelayLeases(KeyStoreDatabase store) {
    this.store = store;
    this.relay = new RelayTable(store.dialect(), store.schema(), store.table(), store.seal());
  }

  /** {@return the lease operations on the outbox of {@code keyStore}, a JDBC key store} */
  public static RelayLeases of(Object keyStore) {
    return new RelayLeases(KeyStoreDatabase.of(keyStore));
  }

  /**
   * Claims up to {@code limit} intents due by the database's clock, oldest due first, for {@code
   * owner}: the clock is read in the claim's transaction, and it is also the time the lease runs
   * from. An intent whose lease expired by that clock is taken over.
   *
   * @param owner who claims (an instance name, for people reading the table), 1..128 characters
   * @param leaseFor how long the lease lasts: longer than a send with all its retries takes
   * @param limit the limit
   * @return the claimed intents, each with its lease (ending at the database's time plus {@code
   *     leaseFor}); empty when none is due
   * @throws IllegalArgumentException for a blank owner, a non-positive lease or limit
   * @throws dev.saferetry.idempotency.KeyStoreException if the database failed, or a wait ran past
   *     {@code leaseFor} (a lease that ran out before its claim returned would be worthless)
   */
  public List<LeasedIntent> claim(String owner, Duration leaseFor, int limit) {
    return claimReporting(owner, leaseFor, null, List.of(), limit).claimed();
  }

  /**
   * As {@link #claim(String, Duration, int)}, also naming the intents held instead, and passing
   * over intents older than {@code maxAge} (null: none) at the database's time, and intents of
   * tenants other than {@code tenants} (empty: none passed over).
   */
  public RelayTable.Claim claimReporting(
      String owner, Duration leaseFor, Duration maxAge, List<String> tenants, int limit) {
    checkClaim(owner, limit);
    checkLease(leaseFor);
    return atDatabaseTime(
        "claim",
        Deadline.after(leaseFor),
        (c, now) ->
            relay.claim(
                c,
                owner,
                now,
                now.plus(leaseFor),
                maxAge == null ? null : now.minus(maxAge),
                tenants,
                limit));
  }

  /**
   * Claims up to {@code limit} intents due at {@code now}, a time the caller supplies (see the
   * class comment: every claimer of the table must then share that clock), oldest due first, for
   * {@code owner}.
   *
   * @param now the time the claim is made at
   * @param limit the limit
   * @param owner who claims (an instance name, for people reading the table), 1..128 characters
   * @param leaseFor how long the lease lasts: longer than a send with all its retries takes
   * @return the claimed intents, each with its lease; empty when none is due
   * @throws IllegalArgumentException for a blank owner, a non-positive lease or limit
   */
  public List<LeasedIntent> claim(String owner, Instant now, Duration leaseFor, int limit) {
    checkClaim(owner, limit);
    Instant leaseEnd = leaseEnd(now, leaseFor);
    return store
        .open()
        .transaction(
            "claim",
            Deadline.after(leaseFor),
            c -> relay.claim(c, owner, now, leaseEnd, null, List.of(), limit))
        .claimed();
  }

  /**
   * Extends a lease, if it is still current, to the database's time plus {@code leaseFor}; the
   * clock is read in the renewal's transaction.
   *
   * @param lease the lease
   * @param leaseFor how long the lease lasts from the database's time
   * @return the extended lease, or empty if the lease was lost
   * @throws IllegalArgumentException for a non-positive lease
   * @throws dev.saferetry.idempotency.KeyStoreException if the database failed
   */
  public Optional<Lease> renew(Lease lease, Duration leaseFor) {
    Objects.requireNonNull(lease, "lease");
    checkLease(leaseFor);
    Instant end =
        atDatabaseTime(
            "renew",
            (c, now) -> {
              Instant e = now.plus(leaseFor);
              return relay.renew(c, lease, e) ? e : null;
            });
    return Optional.ofNullable(end).map(e -> renewed(lease, e));
  }

  /**
   * Extends a lease to {@code now + leaseFor}, a time the caller supplies, if it is still current.
   *
   * @param lease the lease
   * @param now the time the lease is renewed at
   * @param leaseFor how long the lease lasts from {@code now}
   * @return the extended lease, or empty if the lease was lost
   */
  public Optional<Lease> renew(Lease lease, Instant now, Duration leaseFor) {
    Instant end = leaseEnd(now, leaseFor);
    boolean renewed = store.open().autoCommit("renew", c -> relay.renew(c, lease, end));
    return renewed ? Optional.of(renewed(lease, end)) : Optional.empty();
  }

  private static Lease renewed(Lease lease, Instant end) {
    return new Lease(
        lease.scope(), lease.intentId(), lease.key(), lease.owner(), lease.token(), end);
  }

  /**
   * Records the definitive outcome of a leased intent and ends the lease: {@link
   * IntentState#SUCCEEDED} finishes it, {@link IntentState#FAILED} holds it for a person as as
   * REJECTED.
   *
   * @param lease the lease
   * @param outcome the outcome
   * @param note what to show a person (status, error code; never a body), or {@code null}
   * @return whether it was recorded; {@code false} when the lease was lost (fencing)
   * @throws IllegalArgumentException if the outcome is pending or for another intent or key
   */
  public boolean complete(Lease lease, IntentRecord outcome, String note) {
    checkOutcome(lease, outcome);
    return store.open().autoCommit("complete", c -> relay.complete(c, lease, outcome, note));
  }

  /**
   * Records many definitive outcomes together, as {@link #complete} does for one, in one
   * transaction; on PostgreSQL in one statement whose commit does not wait for its WAL flush (a
   * completion lost in a crash leaves the intent leased: due again when the lease ends, and re-sent
   * with the same key, which the provider replays).
   *
   * @param completions the leases and outcomes, of distinct intents
   * @return for each, in order, whether it was recorded; {@code false} when its lease was lost
   * @throws IllegalArgumentException if an outcome is pending or for another intent or key
   */
  public boolean[] completeAll(List<RelayTable.Completion> completions) {
    for (RelayTable.Completion done : completions) {
      checkOutcome(done.lease(), done.outcome());
    }
    if (completions.isEmpty()) {
      return new boolean[0];
    }
    return store.open().autoCommit("complete", c -> relay.completeAll(c, completions));
  }

  private static void checkOutcome(Lease lease, IntentRecord outcome) {
    Objects.requireNonNull(lease, "lease");
    Objects.requireNonNull(outcome, "outcome");
    if (outcome.state() == IntentState.PENDING
        || !outcome.scope().equals(lease.scope())
        || !outcome.intentId().equals(lease.intentId())
        || !outcome.key().equals(lease.key())) {
      throw new IllegalArgumentException("the outcome must complete the leased intent");
    }
  }

  /**
   * Ends the lease without an outcome and makes the intent due again {@code delay} after the
   * database's time (backoff); the clock is read in the same transaction.
   *
   * @param lease the lease
   * @param delay how long after the database's time the intent is due again; zero or more
   * @param note the note
   * @return whether it was rescheduled; {@code false} when the lease was lost
   * @throws IllegalArgumentException for a negative delay
   * @throws dev.saferetry.idempotency.KeyStoreException if the database failed
   */
  public boolean retryAfter(Lease lease, Duration delay, String note) {
    Objects.requireNonNull(lease, "lease");
    Objects.requireNonNull(delay, "delay");
    if (delay.isNegative()) {
      throw new IllegalArgumentException("delay must not be negative");
    }
    return atDatabaseTime("retryAfter", (c, now) -> relay.retryAt(c, lease, now.plus(delay), note));
  }

  /**
   * Ends a lease under which nothing was sent: the intent is due again as before, and the claim
   * does not count toward the relay's maximum of claims.
   *
   * @return whether it was given back; {@code false} when the lease was lost
   */
  public boolean giveBack(Lease lease, String note) {
    Objects.requireNonNull(lease, "lease");
    return store.open().autoCommit("giveBack", c -> relay.giveBack(c, lease, note));
  }

  /**
   * A page of held, still pending intents of {@code tenants} and {@code operations} after {@code
   * after} (null: from the first): their records only, never their stored requests (see {@link
   * RelayTable#heldPage}).
   */
  public RelayTable.HeldPage heldToReconcile(
      List<String> tenants, List<String> operations, RelayTable.HeldCursor after, int limit) {
    return store
        .open()
        .autoCommit("held", c -> relay.heldPage(c, tenants, operations, after, limit));
  }

  /**
   * Ends the lease without an outcome and makes the intent due again at {@code next}, a time the
   * caller supplies (backoff).
   *
   * @param lease the lease
   * @param next when the intent is due again
   * @param note the note
   * @return whether it was rescheduled; {@code false} when the lease was lost
   */
  public boolean retryAt(Lease lease, Instant next, String note) {
    Objects.requireNonNull(next, "next");
    return store.open().autoCommit("retryAt", c -> relay.retryAt(c, lease, next, note));
  }

  /**
   * Ends the lease and holds the intent for a person, its outcome unchanged.
   *
   * @param lease the lease
   * @param reason the reason
   * @param note the note
   * @return whether it was held; {@code false} when the lease was lost
   */
  public boolean hold(Lease lease, RelayCodes.Hold code, String note) {
    Objects.requireNonNull(code, "reason");
    return store.open().autoCommit("hold", c -> relay.hold(c, lease, code, note));
  }

  /** Work on a connection, judged at the database's clock as read in the same transaction. */
  private interface AtTime<T> {
    T run(Connection c, Instant now) throws SQLException;
  }

  /**
   * Runs {@code work} in one transaction of its own, at the database's clock read first in that
   * transaction: every lease decision is made at the database's time, never at this process's.
   */
  private <T> T atDatabaseTime(String operation, AtTime<T> work) {
    return atDatabaseTime(operation, Deadline.NONE, work);
  }

  /** As {@link #atDatabaseTime(String, AtTime)}, with every wait bounded by {@code deadline}. */
  private <T> T atDatabaseTime(String operation, Deadline deadline, AtTime<T> work) {
    return store.open().transaction(operation, deadline, c -> work.run(c, store.databaseClock(c)));
  }

  /**
   * Holds as EXPIRED every queued intent, with no live lease, that is past its record's expiry or
   * older than the table's maximum age, both judged at the database's time (read in the same
   * transaction).
   */
  public int holdOverdue() {
    Duration maxAge = store.outboxMaxAge();
    return atDatabaseTime("holdOverdue", (c, now) -> relay.holdOverdue(c, now, now.minus(maxAge)));
  }

  /** As {@link #holdOverdue()}, judged at {@code now}, a time the caller supplies (tests). */
  public int holdOverdue(Instant now) {
    Objects.requireNonNull(now, "now");
    Instant oldest = now.minus(store.outboxMaxAge());
    return store.open().autoCommit("holdOverdue", c -> relay.holdOverdue(c, now, oldest));
  }

  private static Instant leaseEnd(Instant now, Duration leaseFor) {
    Objects.requireNonNull(now, "now");
    checkLease(leaseFor);
    return now.plus(leaseFor);
  }

  private static void checkLease(Duration leaseFor) {
    Objects.requireNonNull(leaseFor, "leaseFor");
    if (leaseFor.isNegative() || leaseFor.isZero()) {
      throw new IllegalArgumentException("leaseFor must be positive");
    }
  }

  private static void checkClaim(String owner, int limit) {
    Objects.requireNonNull(owner, "owner");
    if (owner.isBlank() || owner.length() > 128) {
      throw new IllegalArgumentException("owner must be 1..128 characters");
    }
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be positive");
    }
  }
}
