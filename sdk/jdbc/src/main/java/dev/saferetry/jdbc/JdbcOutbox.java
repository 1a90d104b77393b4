package dev.saferetry.jdbc;

import dev.saferetry.Operation;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.idempotency.BeginResult;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.idempotency.StoredIntent;
import dev.saferetry.idempotency.StoredRequest;
import dev.saferetry.jdbc.internal.AdminTable;
import dev.saferetry.jdbc.internal.Deadline;
import dev.saferetry.jdbc.internal.IntentRow;
import dev.saferetry.jdbc.internal.IntentTable;
import dev.saferetry.jdbc.internal.IntentWrites;
import dev.saferetry.jdbc.internal.Lease;
import dev.saferetry.jdbc.internal.LeasedIntent;
import dev.saferetry.jdbc.internal.OutboxOwnership;
import dev.saferetry.jdbc.internal.RelayCodes;
import dev.saferetry.jdbc.internal.RelayTable;
import dev.saferetry.jdbc.internal.RowSeal;
import dev.saferetry.jdbc.internal.StoredText;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transactional outbox of a {@link JdbcKeyStore}: intents recorded together with the exact
 * request to send, inside the caller's own transaction, and sent afterwards by any number of {@link
 * OutboxRelay} instances, each claiming intents under a lease. Every intent here is also an
 * ordinary pending intent of the key store, with its key.
 *
 * <p><b>Rules</b> (the relay's steps, kept inside this package).
 *
 * <ul>
 *   <li>A claim takes due intents no one holds a live lease on ({@code FOR UPDATE SKIP LOCKED}:
 *       concurrent relays take different intents and never wait for each other), grants a lease
 *       until the database's time plus the relay's lease duration, and counts the attempt. An
 *       intent whose lease expired by the database's clock (its owner died or stalled) is due again
 *       and is taken over by the next claim.
 *   <li>Every change on behalf of a lease is <b>fenced</b>: it applies only if the intent still has
 *       the lease's token, and is refused otherwise. A completion from an owner that lost its lease
 *       is refused, so it never overwrites a newer result. Sending twice under two leases is
 *       possible and harmless (same key: the provider replays); sending with a second key is not
 *       possible.
 *   <li>A claim hands out only the request that was enqueued: each row carries a seal, an
 *       HMAC-SHA256 under the store's {@link JdbcKeyStoreBuilder#outboxSealKey} (a key the database
 *       does not hold), over its intent (tenant, operation, id, key, fingerprint, creation and
 *       expiry times) and stored request (method, target, where the key goes, headers, content
 *       type, body bytes), and a due row whose seal does not verify with a configured key — changed
 *       in the table afterwards, even with a recomputed seal — or that cannot be read back as a
 *       valid request is held as {@link HoldReason#TAMPERED} in the claim's transaction instead. A
 *       key placed in the body is checked against the intent's key in the same way.
 *   <li>An intent past its record's expiry is never claimed, and {@link #holdOverdue()} holds it
 *       (or one older than the table's {@link #maxAge()}) for a person; so does a definitive
 *       rejection. {@link #held} lists them.
 * </ul>
 *
 * <p><b>Time.</b> Leases, due times and ages are judged by one clock that every instance reads
 * alike: the database's, read in the same transaction as each change ({@link #holdOverdue()} too),
 * so instances whose own clocks disagree by any amount still agree on which lease is live and which
 * intent is due: a relay whose clock runs ahead does not take a live lease over early, and one
 * whose clock runs behind neither holds leases longer nor judges due intents late. The times an
 * intent carries from its enqueuer are the database's too: it is created at the database's time,
 * its key expires the client's retention after that, and it is first due as long after that as the
 * enqueuer asked ({@code firstAttempt} minus the candidate's creation, by the enqueuer's clock): an
 * enqueuer whose clock runs behind or ahead records the same times as one whose clock is right.
 *
 * <p>This class is thread-safe.
 */
public final class JdbcOutbox {
  private static final Logger LOG = LoggerFactory.getLogger("dev.saferetry.jdbc");

  /** The longest ordering key, in characters. */
  static final int MAX_ORDERING_KEY = 255;

  private final JdbcKeyStore store;
  private final IntentTable table;
  private final RelayTable relay;
  private final AdminTable admin;
  private final RowSeal seal;

  private final Duration maxAge;

  JdbcOutbox(
      JdbcKeyStore store,
      IntentTable table,
      RelayTable relay,
      AdminTable admin,
      RowSeal seal,
      Duration maxAge) {
    this.seal = seal;
    this.maxAge = maxAge;
    this.store = store;
    this.table = table;
    this.relay = relay;
    this.admin = admin;
  }

  /**
   * {@return the operator's view of this outbox, acting as {@code actor}: list and inspect intents,
   * and requeue, abandon or release the ordering key of held (parked) ones, each action recorded in
   * the audit under this name (see {@link OutboxAdmin})}
   *
   * @param actor who acts (a person's or a tool's name, for the audit): 1 to 128 characters, not
   *     blank, no control characters or unpaired surrogates
   * @throws IllegalArgumentException if the actor is not acceptable
   */
  public OutboxAdmin admin(String actor) {
    return new OutboxAdmin(store, admin, actor);
  }

  /**
   * Records a pending intent with the request to send, on the caller's connection and inside the
   * caller's transaction (not committed here): it becomes due at {@code firstAttempt} once that
   * transaction commits, and never exists if it rolls back. An intent already recorded is returned
   * unchanged, as {@link JdbcKeyStore#begin(Connection, IntentRecord)} does. The row also carries
   * the seal of exactly this intent and request under the store's current {@link
   * JdbcKeyStoreBuilder#outboxSealKey}; a row changed afterwards is held as {@link
   * HoldReason#TAMPERED} instead of sent.
   *
   * @param candidate the candidate
   * @param request the request; if its key goes in a body field, the body must carry the
   *     candidate's key there (see {@link StoredRequest})
   * @param transaction a connection to the store's database with auto-commit off
   * @param firstAttempt when a relay may first send it, by the clock {@code candidate} was created
   *     at: the relay may send it that long after the database's time of the enqueue (later than
   *     now to give the code that committed it time to send it itself)
   * @return the candidate as recorded (at the database's time) with {@code created} true, or the
   *     existing record
   * @throws IllegalArgumentException if the connection is in auto-commit mode, or the body does not
   *     carry the candidate's key where the request's key placement says
   * @throws dev.saferetry.idempotency.IntentRefusedException if the intent exists and an operator
   *     abandoned it (nothing is enqueued until an operator requeues it)
   * @throws KeyStoreException if the database refused the statement
   * @throws IllegalStateException if the store has no seal key, before anything is written
   */
  public BeginResult enqueue(
      Connection transaction, IntentRecord candidate, StoredRequest request, Instant firstAttempt) {
    return enqueue(transaction, candidate, request, firstAttempt, Deadline.NONE, null);
  }

  private BeginResult enqueue(
      Connection transaction,
      IntentRecord candidate,
      StoredRequest request,
      Instant firstAttempt,
      Deadline deadline,
      String orderingKey) {
    IntentRow row =
        new IntentRow(
            candidate,
            Objects.requireNonNull(request, "request"),
            Objects.requireNonNull(firstAttempt, "firstAttempt"),
            seal);
    if (!seal.canSeal()) {
      throw new IllegalStateException(
          "no outbox seal key is configured (JdbcKeyStoreBuilder.outboxSealKey): a row cannot be"
              + " sealed, so nothing is enqueued");
    }
    request.checkKey(candidate.key());
    IntentWrites.check(row);
    return store.inTransaction(
        transaction,
        "enqueue",
        deadline,
        c -> {
          BeginResult result =
              table.begin(c, JdbcKeyStore.checked(row.at(store.timeNoLaterThanDatabase(c))));
          if (result.created()) {
            if (orderingKey != null) {
              table.order(c, result.record(), orderingKey);
            }
            return result;
          }
          OutboxOwnership.checkEnqueue(c, table, result.record());
          if (orderingKey != null) {
            checkSameOrder(c, result.record(), orderingKey);
          }
          return result;
        });
  }

  /**
   * Records a call of {@code client} for the relay, on the caller's connection and inside the
   * caller's transaction (not committed here): the request is prepared by {@link
   * SafeRetryClient#prepare}, exactly as {@code client.execute(op, body, options)} would prepare it
   * — validated, encoded, a fresh key (or the one in the options), the fingerprint — and stored
   * with its intent and with where the client puts the key ({@link StoredRequest#keyPlacement()}).
   * After the commit, either the caller executes the same call at once (it finds the intent and
   * sends it with the recorded key) or a relay sends it from {@code firstAttempt} on; both send the
   * same bytes with the same key, in the same place.
   *
   * <p>The stored headers are the client's default headers (an API version) as they are now and the
   * call's own headers, <b>without any credential</b>: default headers the client treats as
   * credentials (its API key's header, names like {@code X-Auth-Token} or {@code
   * X-Merchant-Secret}) are left out, and a call header among them is refused. The relay's client
   * adds its own.
   *
   * @param <Q> the request body type
   * @param transaction a connection to the store's database with auto-commit off
   * @param client the client that would send the call (its base URL, key placement, codec, tenant)
   * @param op the operation; it must carry an idempotency key
   * @param body the request body
   * @param options the call's options; they must name an intent id
   * @param firstAttempt when a relay may first send it, by the client's clock: the relay may send
   *     it that long after the database's time of the enqueue
   * @return the intent recorded, or the one recorded earlier under its id
   * @throws IllegalArgumentException if the call names no intent, cannot be sent as given, carries
   *     a credential header or a per-call API key (credentials are never stored: the relay's client
   *     adds its own), puts its key in a body the relay cannot check (neither JSON nor a form), or
   *     the connection is in auto-commit mode; the message names the header, never its value
   * @throws KeyStoreException if the database refused the statement, or a wait (for the intent's
   *     row, held by another transaction) ran past the call's deadline (the options', else the
   *     client's retry policy's), bounded as {@link JdbcKeyStore#begin(IntentRecord, Duration)} is:
   *     roll the transaction back
   */
  public <Q> BeginResult enqueue(
      Connection transaction,
      SafeRetryClient client,
      Operation<Q, ?> op,
      Q body,
      RequestOptions options,
      Instant firstAttempt) {
    StoredIntent p = client.prepare(Objects.requireNonNull(op, "op"), body, options);
    return enqueue(
        transaction, p.record(), p.request(), firstAttempt, Deadline.after(p.deadline()), null);
  }

  /**
   * Records a call of {@code client} for the relay as {@link #enqueue(Connection, SafeRetryClient,
   * Operation, Object, RequestOptions, Instant)} does, with an <b>ordering key</b> (an order id, an
   * account id): the intents of one tenant and ordering key are sent one at a time, each only after
   * the one before it ended, in the order their transactions <b>committed</b> — not the order they
   * were created or became due. Intents without a key, and those of other keys, are sent in
   * parallel as before.
   *
   * <p>The enqueue takes the key's next number from {@code {table}_order} and keeps that row locked
   * until {@code transaction} ends: a concurrent transaction enqueuing under the same key waits for
   * this one to commit or roll back (keep such transactions short), and so numbers follow commit
   * order. A relay claims an intent with a key only when no intent of its tenant and key with a
   * lower number is still queued (due or not, leased or not) or held with its key held ({@link
   * OutboxIntent#holdsKey()}): a later intent waits while an earlier one backs off, and while it is
   * parked until an operator resolves it or lets the key continue ({@link OutboxAdmin}). An intent
   * already recorded is returned unchanged, with the key it was recorded with (or none).
   *
   * @param <Q> the request body type
   * @param transaction a connection to the store's database with auto-commit off
   * @param orderingKey the ordering key: 1 to 255 characters, not blank, no control characters or
   *     unpaired surrogates
   * @param client the client that would send the call (its base URL, key placement, codec, tenant)
   * @param op the operation; it must carry an idempotency key
   * @param body the request body
   * @param options the call's options; they must name an intent id
   * @param firstAttempt when a relay may first send it, by the client's clock: the relay may send
   *     it that long after the database's time of the enqueue
   * @return the intent recorded, or the one recorded earlier under its id
   * @throws IllegalArgumentException if the ordering key is not acceptable, or as {@link
   *     #enqueue(Connection, SafeRetryClient, Operation, Object, RequestOptions, Instant)}
   * @throws IllegalStateException if the intent is already recorded without this ordering key
   *     (queued without one, with another, or begun by a call of its own): it would be sent outside
   *     the key's order; or (an {@link dev.saferetry.idempotency.IntentRefusedException}) if an
   *     operator abandoned it
   * @throws KeyStoreException as {@link #enqueue(Connection, SafeRetryClient, Operation, Object,
   *     RequestOptions, Instant)}; a wait for another transaction of the same key is bounded by the
   *     same deadline
   */
  public <Q> BeginResult enqueue(
      Connection transaction,
      String orderingKey,
      SafeRetryClient client,
      Operation<Q, ?> op,
      Q body,
      RequestOptions options,
      Instant firstAttempt) {
    String key = checkOrderingKey(orderingKey);
    StoredIntent p =
        Objects.requireNonNull(client, "client")
            .prepare(Objects.requireNonNull(op, "op"), body, options);
    return enqueue(
        transaction, p.record(), p.request(), firstAttempt, Deadline.after(p.deadline()), key);
  }

  /**
   * Refuses an ordered enqueue of an intent recorded earlier without that ordering key: returning
   * it as if enqueued would let it be sent outside the key's order (or, recorded by a call of its
   * own, by that call at any time).
   */
  private void checkSameOrder(Connection c, IntentRecord existing, String orderingKey)
      throws SQLException {
    IntentTable.OutboxState s =
        table.outboxState(c, existing.scope(), existing.intentId()).orElse(null);
    if (s == null) {
      return; // gone since it was found: the caller's transaction sees no intent to refuse
    }
    if (s.relayState() != null && orderingKey.equals(s.orderingKey())) {
      return; // the same intent, enqueued again under its key: nothing changes
    }
    throw new IllegalStateException(
        "intent "
            + StoredText.printable(existing.scope().operation())
            + "/"
            + StoredText.printable(existing.intentId())
            + " of tenant "
            + StoredText.printable(existing.scope().tenant())
            + (s.relayState() == null
                ? " was recorded by a call of its own, outside the outbox"
                : s.orderingKey() == null
                    ? " is already in the outbox without an ordering key"
                    : " is already in the outbox with ordering key "
                        + StoredText.printable(s.orderingKey()))
            + ": it cannot join the order of "
            + StoredText.printable(orderingKey)
            + "; nothing was enqueued (use a new intent id, or enqueue it with its key)");
  }

  /** The ordering key, checked: 1..255 characters, not blank, stored exactly. */
  static String checkOrderingKey(String orderingKey) {
    StoredText.checkId("orderingKey", orderingKey, MAX_ORDERING_KEY);
    if (orderingKey.isBlank()) {
      throw new IllegalArgumentException("orderingKey must not be blank");
    }
    return orderingKey;
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
  List<LeasedIntent> claim(String owner, Duration leaseFor, int limit) {
    return claimReporting(owner, leaseFor, null, List.of(), limit).claimed();
  }

  /**
   * As {@link #claim(String, Duration, int)}, also naming the intents held instead, and passing
   * over intents older than {@code maxAge} (null: none) at the database's time, and intents of
   * tenants other than {@code tenants} (empty: none passed over).
   */
  RelayTable.Claim claimReporting(
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
  List<LeasedIntent> claim(String owner, Instant now, Duration leaseFor, int limit) {
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
  Optional<Lease> renew(Lease lease, Duration leaseFor) {
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
  Optional<Lease> renew(Lease lease, Instant now, Duration leaseFor) {
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
   * IntentState#SUCCEEDED} finishes it, {@link IntentState#FAILED} holds it for a person as {@link
   * HoldReason#REJECTED}.
   *
   * @param lease the lease
   * @param outcome the outcome
   * @param note what to show a person (status, error code; never a body), or {@code null}
   * @return whether it was recorded; {@code false} when the lease was lost (fencing)
   * @throws IllegalArgumentException if the outcome is pending or for another intent or key
   */
  boolean complete(Lease lease, IntentRecord outcome, String note) {
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
  boolean[] completeAll(List<RelayTable.Completion> completions) {
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
  boolean retryAfter(Lease lease, Duration delay, String note) {
    Objects.requireNonNull(lease, "lease");
    Objects.requireNonNull(delay, "delay");
    if (delay.isNegative()) {
      throw new IllegalArgumentException("delay must not be negative");
    }
    return atDatabaseTime("retryAfter", (c, now) -> relay.retryAt(c, lease, now.plus(delay), note));
  }

  /**
   * Ends a lease under which nothing was sent: the intent is due again as before, and the claim
   * does not count toward {@link OutboxRelayBuilder#maxClaims}.
   *
   * @return whether it was given back; {@code false} when the lease was lost
   */
  boolean giveBack(Lease lease, String note) {
    Objects.requireNonNull(lease, "lease");
    return store.open().autoCommit("giveBack", c -> relay.giveBack(c, lease, note));
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
  boolean retryAt(Lease lease, Instant next, String note) {
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
  boolean hold(Lease lease, HoldReason reason, String note) {
    Objects.requireNonNull(reason, "reason");
    RelayCodes.Hold code = RelayCodes.Hold.valueOf(reason.name());
    return store.open().autoCommit("hold", c -> relay.hold(c, lease, code, note));
  }

  /**
   * {@return how old an intent of this outbox may get before it is held as {@link
   * HoldReason#EXPIRED} instead of sent} The table's rule ({@link
   * JdbcKeyStoreBuilder#outboxMaxAge}), which its relays and {@link OutboxAdmin} follow.
   */
  public Duration maxAge() {
    return maxAge;
  }

  /**
   * Holds as {@link HoldReason#EXPIRED} every queued intent, with no live lease, that is past its
   * record's expiry or older than the table's {@link #maxAge()}, both judged at the database's time
   * (read in the same transaction). Safe to run from every instance.
   *
   * @return how many intents were held
   * @throws dev.saferetry.idempotency.KeyStoreException if the database failed
   */
  public int holdOverdue() {
    return atDatabaseTime("holdOverdue", (c, now) -> relay.holdOverdue(c, now, now.minus(maxAge)));
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
   * As {@link #holdOverdue()}, judged at {@code now}, a time the caller supplies (tests of the
   * rules; never public: a caller's clock must not park a table's backlog).
   */
  int holdOverdue(Instant now) {
    Objects.requireNonNull(now, "now");
    Instant oldest = now.minus(maxAge);
    return store.open().autoCommit("holdOverdue", c -> relay.holdOverdue(c, now, oldest));
  }

  /**
   * {@return every intent held (parked) for a person, oldest first} {@link OutboxAdmin} lists them
   * with filters and a limit, and acts on them. A row that cannot be read back as an intent is left
   * out and logged, not allowed to hide the others ({@link OutboxAdmin#listUnreadable} names it).
   */
  public List<OutboxIntent> held() {
    AdminTable.Query all = new AdminTable.Query(2, null, null, null, Integer.MAX_VALUE);
    AdminTable.Listing listing = store.open().autoCommit("held", c -> admin.listing(c, all));
    logUnreadable(listing);
    return listing.rows().stream().map(OutboxAdmin::intent).toList();
  }

  /**
   * A page of held, still pending intents of {@code tenants} and {@code operations} after {@code
   * after} (null: from the first): their records only, never their stored requests (see {@link
   * RelayTable#heldPage}).
   */
  RelayTable.HeldPage heldToReconcile(
      List<String> tenants, List<String> operations, RelayTable.HeldCursor after, int limit) {
    return store
        .open()
        .autoCommit("held", c -> relay.heldPage(c, tenants, operations, after, limit));
  }

  /** The shortest age {@link #purgeAuditOlderThan} accepts. */
  static final Duration MIN_AUDIT_AGE = Duration.ofDays(30);

  /**
   * Deletes the operators' audit rows ({@code {table}_audit}) recorded more than {@code age} ago by
   * the database's clock whose intent is no longer in the table, in transactions of at most {@link
   * JdbcKeyStoreBuilder#purgeBatchSize} rows; rows another instance is purging are skipped. The
   * audit of an intent still in the table (queued, held, abandoned, or ended but not yet purged) is
   * kept whatever its age: it is what names who abandoned an intent when a call of it is refused.
   *
   * <p>Keep the audit much longer than the intents (their retention is a day or so): as long as
   * your own record-keeping asks (a year or more is common). Run it from any instance, for example
   * daily.
   *
   * @param age how old a row must be to be deleted; 30 days or more
   * @return how many rows were deleted
   * @throws IllegalArgumentException if {@code age} is shorter than 30 days
   * @throws KeyStoreException if the database failed; batches already committed stay deleted
   */
  public int purgeAuditOlderThan(Duration age) {
    Objects.requireNonNull(age, "age");
    if (age.compareTo(MIN_AUDIT_AGE) < 0) {
      throw new IllegalArgumentException(
          "age must be at least 30 days: the audit is kept much longer than the intents");
    }
    Instant now = store.timeNoLaterThanDatabase(Deadline.NONE);
    Instant bound;
    try {
      bound = now.minus(age);
      AdminTable.checkTime(bound);
    } catch (IllegalArgumentException | java.time.DateTimeException | ArithmeticException e) {
      return 0; // older than anything the table can hold
    }
    int batch = store.purgeBatchSize();
    return store
        .open()
        .inBatches("purge the audit", batch, c -> admin.purgeAuditBatch(c, bound, batch));
  }

  /** Logs each row of a listing that cannot be read back (the listing leaves it out). */
  static void logUnreadable(AdminTable.Listing listing) {
    for (AdminTable.Unreadable u : listing.unreadable()) {
      LOG.warn("{} (OutboxAdmin.listUnreadable names such rows)", AdminTable.describe(u));
    }
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
