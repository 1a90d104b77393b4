package dev.saferetry.jdbc.outbox;

import dev.saferetry.Operation;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.idempotency.BeginResult;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.idempotency.StoredIntent;
import dev.saferetry.idempotency.StoredRequest;
import dev.saferetry.jdbc.internal.ColumnText;
import dev.saferetry.jdbc.internal.Deadline;
import dev.saferetry.jdbc.internal.keystore.IntentRow;
import dev.saferetry.jdbc.internal.keystore.IntentTable;
import dev.saferetry.jdbc.internal.keystore.IntentWrites;
import dev.saferetry.jdbc.internal.keystore.KeyStoreDatabase;
import dev.saferetry.jdbc.internal.keystore.RowSeal;
import dev.saferetry.jdbc.internal.outbox.AdminTable;
import dev.saferetry.jdbc.internal.outbox.OutboxOwnership;
import dev.saferetry.jdbc.internal.outbox.RelayLeases;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.jdbc.keystore.JdbcKeyStoreBuilder;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transactional outbox of a {@link JdbcKeyStore}: intents recorded together with the exact
 * request to send, inside the caller's own transaction, and sent afterwards by any number of {@link
 * OutboxRelay} instances, each claiming intents under a lease. Every intent here is also an
 * ordinary pending intent of the key store, with its key.
 *
 * <pre>{@code
 * JdbcOutbox outbox = JdbcOutbox.of(store);
 * outbox.enqueue(transaction, client, CREATE_CHARGE, charge, options, Instant.now());
 * }</pre>
 *
 * <p>A row is sent exactly as enqueued or not at all: it carries a seal under the store's {@link
 * JdbcKeyStoreBuilder#outboxSealKey}, and a row whose seal does not verify is held as {@link
 * HoldReason#TAMPERED}, never sent. Leases, due times and ages are judged at the database's clock,
 * read in the transaction of each change, so instances whose own clocks disagree still agree; the
 * times an intent carries from its enqueuer are the database's too. The rules of claims, fencing,
 * holds and time are in {@code docs/fleet-and-outbox.md} ("Recording an intent in your
 * transaction", "Leases, fencing and time").
 *
 * <p>This class is thread-safe.
 */
public final class JdbcOutbox {
  private static final Logger LOG = LoggerFactory.getLogger("dev.saferetry.jdbc");

  private final KeyStoreDatabase store;
  private final IntentTable table;
  private final RelayLeases leases;
  private final AdminTable admin;
  private final RowSeal seal;

  private JdbcOutbox(KeyStoreDatabase store) {
    this.seal = store.seal();
    this.store = store;
    this.table = store.intents();
    this.leases = new RelayLeases(store);
    this.admin = new AdminTable(store.dialect(), store.schema(), store.table(), store.seal());
  }

  /**
   * {@return the outbox of {@code store}: its intents recorded with their request, sent later under
   * leases} It shares the store's table, connections and clock readings.
   *
   * @param store the key store
   */
  public static JdbcOutbox of(JdbcKeyStore store) {
    return new JdbcOutbox(KeyStoreDatabase.of(store));
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
              table.begin(c, KeyStoreDatabase.checked(row.at(store.timeNoLaterThanDatabase(c))));
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
    String key = OutboxRows.checkOrderingKey(orderingKey);
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
            + ColumnText.printable(existing.scope().operation())
            + "/"
            + ColumnText.printable(existing.intentId())
            + " of tenant "
            + ColumnText.printable(existing.scope().tenant())
            + (s.relayState() == null
                ? " was recorded by a call of its own, outside the outbox"
                : s.orderingKey() == null
                    ? " is already in the outbox without an ordering key"
                    : " is already in the outbox with ordering key "
                        + ColumnText.printable(s.orderingKey()))
            + ": it cannot join the order of "
            + ColumnText.printable(orderingKey)
            + "; nothing was enqueued (use a new intent id, or enqueue it with its key)");
  }

  /**
   * {@return how old an intent of this outbox may get before it is held as {@link
   * HoldReason#EXPIRED} instead of sent} The table's rule ({@link
   * JdbcKeyStoreBuilder#outboxMaxAge}), which its relays and {@link OutboxAdmin} follow.
   */
  public Duration maxAge() {
    return store.outboxMaxAge();
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
    return leases.holdOverdue();
  }

  /**
   * As {@link #holdOverdue()}, judged at {@code now}, a time the caller supplies (tests of the
   * rules; never public: a caller's clock must not park a table's backlog).
   */
  int holdOverdue(Instant now) {
    return leases.holdOverdue(now);
  }

  /**
   * {@return every intent held (parked) for a person, oldest first} {@link OutboxAdmin} lists them
   * with filters and a limit, and acts on them. A row that cannot be read back as an intent is left
   * out and logged, not allowed to hide the others ({@link OutboxAdmin#listUnreadable} names it).
   */
  public List<OutboxIntent> held() {
    AdminTable.Query all = new AdminTable.Query(2, null, null, null, Integer.MAX_VALUE);
    AdminTable.Listing listing = store.open().autoCommit("held", c -> admin.listing(c, all));
    OutboxRows.logUnreadable(listing);
    return listing.rows().stream().map(OutboxRows::intent).toList();
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
}
