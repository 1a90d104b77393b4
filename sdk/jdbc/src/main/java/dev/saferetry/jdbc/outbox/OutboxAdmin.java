package dev.saferetry.jdbc.outbox;

import dev.saferetry.Reconciler;
import dev.saferetry.Reconciliation;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.jdbc.internal.ColumnText;
import dev.saferetry.jdbc.internal.keystore.KeyStoreDatabase;
import dev.saferetry.jdbc.internal.outbox.AdminTable;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An operator's view of a {@link JdbcOutbox}, acting as one named person or tool: lists and
 * inspects intents, and resolves held (parked) ones. Get one with {@link JdbcOutbox#admin(String)}.
 *
 * <pre>{@code
 * OutboxAdmin admin = JdbcOutbox.of(store).admin("alice@ops");
 * for (OutboxIntent parked : admin.whereHeld().whereOrderingKey("order-42").list(50)) {
 *   admin.requeue(parked, "ticket-1234", "provider outage over");
 * }
 * }</pre>
 *
 * <p><b>Reading.</b> {@link #find} inspects one intent; {@link #list} lists those the {@code
 * where...} filters select (each returns a narrowed copy of this view), oldest first (in queue
 * order for one ordering key), at most a bounded number at a time. Ages are judged at the
 * database's clock.
 *
 * <p><b>Acting.</b> Each action takes the intent <i>as it was read</i> (an {@link OutboxIntent}
 * from {@link #find} or {@link #list}), or a list of them, and applies only if the intent has not
 * changed since ({@link OutboxIntent#version()}): a relay that claimed it in between, another
 * operator who acted first, an outcome recorded meanwhile, or any column of it changed in the table
 * by other means make it refuse, never overwrite.
 *
 * <ul>
 *   <li>{@link #requeue} puts a held intent back in the queue with its stored key and request, due
 *       now, with a fresh count of claims. Sending it again is safe: the provider replays the key's
 *       answer if it acted.
 *   <li>{@link #abandon} ends a held intent, or a queued one no relay is sending: it is never sent
 *       again, and a pending one is recorded FAILED (status 0) in the key store, so no re-drive of
 *       its intent id sends it either. Reconcile with the provider first: it may have acted.
 *   <li>{@link #releaseKey} lets the later intents of a held intent's ordering key go on while it
 *       stays held (by default a held intent keeps them waiting: safe for payments, where a refund
 *       must not overtake its charge).
 *   <li>{@link #requeueWithNewKey} requeues a held intent under a new key, only when the
 *       reconciliation it runs proves that the provider has nothing for the old key; the old key is
 *       kept in the audit.
 * </ul>
 *
 * <p>Every action carries an <b>action id</b> of the caller's choosing (a ticket, a UUID) and a
 * reason. It is recorded once per intent in the table's audit ({@code {table}_audit}: who, when at
 * the database's clock, what, why, the state before and after, the old and new key) in the same
 * transaction as its effect, and the intent's note says who did what. Repeating an action with the
 * same action id (a retried script, a second click) changes nothing more and returns the intent as
 * it now is. Of two operators acting on one intent at once, the first to lock its row acts; the
 * other then sees a changed intent and is refused (or, with the same action id, gets the first's
 * result). A list is acted on in one transaction, all or nothing.
 *
 * <p><b>Refusals</b> change nothing and are typed: {@link ConcurrentModificationException} when the
 * intent changed since it was read or is gone (read it again and decide again); {@link
 * IllegalStateException} when the action does not apply to the intent as it is (requeueing a queued
 * intent, abandoning one a relay is sending, a reconciliation that proves nothing); {@link
 * IllegalArgumentException} for an unacceptable argument, or an action id already used for another
 * action on the intent; {@link KeyStoreException} when the database failed.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class OutboxAdmin {
  /** The most intents {@link #list} returns, and a bulk action takes, at once. */
  public static final int MAX_LIMIT = AuditedActions.MAX_INTENTS;

  private static final int MAX_ACTOR = 128;

  private final KeyStoreDatabase store;
  private final AdminTable table;
  private final String actor;
  private final Integer relayState;
  private final String operation;
  private final String orderingKey;
  private final Duration olderThan;

  OutboxAdmin(KeyStoreDatabase store, AdminTable table, String actor) {
    this(store, table, AuditedActions.checkText("actor", actor, MAX_ACTOR), null, null, null, null);
  }

  private OutboxAdmin(
      KeyStoreDatabase store,
      AdminTable table,
      String actor,
      Integer relayState,
      String operation,
      String orderingKey,
      Duration olderThan) {
    this.store = store;
    this.table = table;
    this.actor = actor;
    this.relayState = relayState;
    this.operation = operation;
    this.orderingKey = orderingKey;
    this.olderThan = olderThan;
  }

  /** {@return who acts, as recorded in the audit} */
  public String actor() {
    return actor;
  }

  /** {@return this view narrowed to queued intents (replacing any other state filter)} */
  public OutboxAdmin whereQueued() {
    return narrowed(OutboxRows.QUEUED, operation, orderingKey, olderThan);
  }

  /** {@return this view narrowed to held (parked) intents (replacing any other state filter)} */
  public OutboxAdmin whereHeld() {
    return narrowed(OutboxRows.HELD, operation, orderingKey, olderThan);
  }

  /**
   * {@return this view narrowed to ended intents, abandoned ones included (replacing any other
   * state filter)}
   */
  public OutboxAdmin whereEnded() {
    return narrowed(OutboxRows.ENDED, operation, orderingKey, olderThan);
  }

  /**
   * {@return this view narrowed to the intents an operator abandoned (replacing any other state
   * filter)}
   */
  public OutboxAdmin whereAbandoned() {
    return narrowed(OutboxRows.ABANDONED, operation, orderingKey, olderThan);
  }

  /**
   * {@return this view narrowed to the intents of one operation}
   *
   * @param operation the operation's name (its intents' scope), 1 to 255 characters
   * @throws IllegalArgumentException if the name is not acceptable
   */
  public OutboxAdmin whereOperation(String operation) {
    return narrowed(
        relayState, AuditedActions.checkText("operation", operation, 255), orderingKey, olderThan);
  }

  /**
   * {@return this view narrowed to the intents of one ordering key (of any tenant), listed in the
   * order they are sent}
   *
   * @param orderingKey the ordering key, as accepted by {@link JdbcOutbox#enqueue(Connection,
   *     String, SafeRetryClient, dev.saferetry.Operation, Object, dev.saferetry.RequestOptions,
   *     Instant)}
   * @throws IllegalArgumentException if the key is not acceptable
   */
  public OutboxAdmin whereOrderingKey(String orderingKey) {
    return narrowed(relayState, operation, OutboxRows.checkOrderingKey(orderingKey), olderThan);
  }

  /**
   * {@return this view narrowed to intents created at least {@code age} ago, by the database's
   * clock}
   *
   * @param age a duration of zero or more, at most 100 years
   * @throws IllegalArgumentException if the age is negative or longer
   */
  public OutboxAdmin whereOlderThan(Duration age) {
    Objects.requireNonNull(age, "age");
    if (age.isNegative() || age.compareTo(Duration.ofDays(36_500)) > 0) {
      throw new IllegalArgumentException("age must be 0 to 100 years");
    }
    return narrowed(relayState, operation, orderingKey, age);
  }

  private AuditedActions actions() {
    return new AuditedActions(store, table, actor, store.outboxMaxAge());
  }

  private OutboxAdmin narrowed(Integer state, String op, String key, Duration age) {
    return new OutboxAdmin(store, table, actor, state, op, key, age);
  }

  /**
   * Lists the intents this view selects, oldest first (in the order they are sent when narrowed to
   * one ordering key).
   *
   * @param limit the most to list, 1 to {@value #MAX_LIMIT}
   * @return the intents, each as read at one moment
   * @throws IllegalArgumentException if the limit is out of range
   * @throws KeyStoreException if the database failed or a row cannot be read back
   */
  public List<OutboxIntent> list(int limit) {
    return listing(limit).rows().stream().map(OutboxRows::intent).toList();
  }

  /**
   * Lists the rows this view selects that cannot be read back as outbox intents — a value changed
   * in the table to one no intent can have — each named by its key with what cannot be read, in the
   * order {@link #list} meets them. {@link #list} and {@link JdbcOutbox#held()} leave such rows out
   * (and log each) rather than fail for all; a relay never sends one (it holds it {@link
   * HoldReason#TAMPERED}).
   *
   * @param limit how many rows to look through, 1 to {@value #MAX_LIMIT}, as {@link #list} does
   * @return an error per row that cannot be read, possibly none
   * @throws IllegalArgumentException if the limit is out of range
   * @throws KeyStoreException if the database failed
   */
  public List<KeyStoreException> listUnreadable(int limit) {
    return listing(limit).unreadable().stream()
        .map(u -> new KeyStoreException(AdminTable.describe(u)))
        .toList();
  }

  private AdminTable.Listing listing(int limit) {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new IllegalArgumentException("limit must be 1.." + MAX_LIMIT);
    }
    AdminTable.Listing listing =
        store
            .open()
            .transaction(
                "list outbox intents",
                c -> {
                  Instant before =
                      olderThan == null ? null : store.databaseClock(c).minus(olderThan);
                  return table.listing(
                      c, new AdminTable.Query(relayState, operation, orderingKey, before, limit));
                });
    OutboxRows.logUnreadable(listing);
    return listing;
  }

  /**
   * {@return the outbox intent {@code intentId} of {@code scope}, whatever its state and this
   * view's filters, or empty when the outbox has none}
   *
   * @param scope the intent's tenant and operation
   * @param intentId the intent's id
   * @throws IllegalArgumentException if the id is not acceptable
   * @throws KeyStoreException if the database failed or the row cannot be read back
   */
  public Optional<OutboxIntent> find(IntentScope scope, String intentId) {
    Objects.requireNonNull(scope, "scope");
    IntentRecord.checkIntentId(intentId);
    return store
        .open()
        .autoCommit("find an outbox intent", c -> table.find(c, scope, intentId))
        .map(OutboxRows::intent);
  }

  /**
   * Puts a held intent back in the queue with its stored key and request, due at once, its claims
   * counted afresh. Refused for an intent whose key's retention has ended (re-sending the old key
   * could charge twice once the provider forgot it): reconcile it and use {@link
   * #requeueWithNewKey}.
   *
   * @param intent the intent as read
   * @param actionId the action's id (see the class comment), 1 to 128 characters
   * @param why why (recorded), 1 to 1000 characters
   * @return the intent as it now is
   * @throws ConcurrentModificationException if it changed since it was read, or is gone
   * @throws IllegalStateException if it is not held, or its key's retention has ended
   * @throws IllegalArgumentException for an unacceptable argument, or an action id used for another
   *     action on this intent
   */
  public OutboxIntent requeue(OutboxIntent intent, String actionId, String why) {
    return requeue(List.of(Objects.requireNonNull(intent, "intent")), actionId, why).get(0);
  }

  /**
   * Requeues each of {@code intents} as {@link #requeue(OutboxIntent, String, String)} does, all in
   * one transaction: all of them, or none when any is refused.
   *
   * @param intents the intents as read: 1 to {@value #MAX_LIMIT}, each once
   * @param actionId the action's id, recorded with each intent
   * @param why why (recorded)
   * @return the intents as they now are, in the order given
   * @throws ConcurrentModificationException if any changed since it was read, or is gone
   * @throws IllegalStateException if any is not held, or its key's retention has ended
   * @throws IllegalArgumentException for an unacceptable argument
   */
  public List<OutboxIntent> requeue(List<OutboxIntent> intents, String actionId, String why) {
    return actions().act(AuditedActions.Action.REQUEUE, intents, actionId, why, null, null);
  }

  /**
   * Ends a held intent, or a queued one no relay holds a live lease on: it is never sent again; a
   * pending one is recorded FAILED with status 0 (the key store's record says it ended; a re-drive
   * of its intent id is answered with that failure until the record expires). Its ordering key, if
   * any, goes on with the next intent.
   *
   * @param intent the intent as read
   * @param actionId the action's id, 1 to 128 characters
   * @param why why (recorded), 1 to 1000 characters
   * @return the intent as it now is
   * @throws ConcurrentModificationException if it changed since it was read, or is gone
   * @throws IllegalStateException if it already ended, or a relay is sending it
   * @throws IllegalArgumentException for an unacceptable argument, or an action id used for another
   *     action on this intent
   */
  public OutboxIntent abandon(OutboxIntent intent, String actionId, String why) {
    return abandon(List.of(Objects.requireNonNull(intent, "intent")), actionId, why).get(0);
  }

  /**
   * Abandons each of {@code intents} as {@link #abandon(OutboxIntent, String, String)} does, all in
   * one transaction: all of them, or none when any is refused.
   *
   * @param intents the intents as read: 1 to {@value #MAX_LIMIT}, each once
   * @param actionId the action's id, recorded with each intent
   * @param why why (recorded)
   * @return the intents as they now are, in the order given
   * @throws ConcurrentModificationException if any changed since it was read, or is gone
   * @throws IllegalStateException if any already ended, or a relay is sending it
   * @throws IllegalArgumentException for an unacceptable argument
   */
  public List<OutboxIntent> abandon(List<OutboxIntent> intents, String actionId, String why) {
    return actions().act(AuditedActions.Action.ABANDON, intents, actionId, why, null, null);
  }

  /**
   * Lets the later intents of a held intent's ordering key continue while it stays held: they are
   * sent in their order without waiting for it. It stays held for a decision; requeued later, it is
   * sent as the next of its key's queue, after any intent of the key a relay is sending.
   *
   * @param intent the intent as read
   * @param actionId the action's id, 1 to 128 characters
   * @param why why (recorded), 1 to 1000 characters
   * @return the intent as it now is
   * @throws ConcurrentModificationException if it changed since it was read, or is gone
   * @throws IllegalStateException if it is not held, has no ordering key, or does not hold it
   * @throws IllegalArgumentException for an unacceptable argument, or an action id used for another
   *     action on this intent
   */
  public OutboxIntent releaseKey(OutboxIntent intent, String actionId, String why) {
    return releaseKey(List.of(Objects.requireNonNull(intent, "intent")), actionId, why).get(0);
  }

  /**
   * Releases the ordering key of each of {@code intents} as {@link #releaseKey(OutboxIntent,
   * String, String)} does, all in one transaction: all of them, or none when any is refused.
   *
   * @param intents the intents as read: 1 to {@value #MAX_LIMIT}, each once
   * @param actionId the action's id, recorded with each intent
   * @param why why (recorded)
   * @return the intents as they now are, in the order given
   * @throws ConcurrentModificationException if any changed since it was read, or is gone
   * @throws IllegalStateException if any is not held, or does not hold an ordering key
   * @throws IllegalArgumentException for an unacceptable argument
   */
  public List<OutboxIntent> releaseKey(List<OutboxIntent> intents, String actionId, String why) {
    return actions().act(AuditedActions.Action.RELEASE_KEY, intents, actionId, why, null, null);
  }

  /**
   * Requeues a held intent under a <b>new</b> idempotency key, after {@code reconciler} proved,
   * through {@code client}, that the provider has nothing for its old key ({@link
   * Reconciliation#isNothingExists()}). Its stored request is kept byte for byte and sealed anew
   * for the new key; its creation and expiry move to now (by the database's clock), keeping its
   * retention; the old key is recorded in the audit. A reconciliation that finds the provider's
   * resource completes the intent instead (and this call is refused: nothing to send); one that
   * proves nothing is refused, and nothing changes.
   *
   * <p>Refused for an intent whose stored request is no longer the one enqueued (held {@link
   * HoldReason#TAMPERED}) or whose key is carried inside the stored body (re-enqueue the call
   * instead), and when the action id was already recorded for it the reconciliation is not run
   * again.
   *
   * @param intent the intent as read
   * @param client a client of the intent's tenant, that the lookup is sent with
   * @param reconciler the lookup for the intent's operation
   * @param actionId the action's id, 1 to 128 characters
   * @param why why (recorded), 1 to 1000 characters
   * @return the intent as it now is, with its new key
   * @throws ConcurrentModificationException if it changed since it was read, or is gone
   * @throws IllegalStateException if it is not held, its request cannot be re-keyed, or the
   *     reconciliation did not prove that nothing exists at the provider (the message says what it
   *     found)
   * @throws IllegalArgumentException for an unacceptable argument, a client of another tenant, or
   *     an action id used for another action on this intent
   */
  public OutboxIntent requeueWithNewKey(
      OutboxIntent intent,
      SafeRetryClient client,
      Reconciler reconciler,
      String actionId,
      String why) {
    return requeueWithNewKey(
            List.of(Objects.requireNonNull(intent, "intent")), client, reconciler, actionId, why)
        .get(0);
  }

  /**
   * Requeues each of {@code intents} under a new key as {@link #requeueWithNewKey(OutboxIntent,
   * SafeRetryClient, Reconciler, String, String)} does: each is reconciled first, one after
   * another; then all are requeued in one transaction, or none when any is refused.
   *
   * @param intents the intents as read: 1 to {@value #MAX_LIMIT}, each once, all of the client's
   *     tenant
   * @param client a client of the intents' tenant
   * @param reconciler the lookup for the intents' operation
   * @param actionId the action's id, recorded with each intent
   * @param why why (recorded)
   * @return the intents as they now are, in the order given
   * @throws ConcurrentModificationException if any changed since it was read, or is gone
   * @throws IllegalStateException if any is refused as a single one would be
   * @throws IllegalArgumentException for an unacceptable argument
   */
  public List<OutboxIntent> requeueWithNewKey(
      List<OutboxIntent> intents,
      SafeRetryClient client,
      Reconciler reconciler,
      String actionId,
      String why) {
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(reconciler, "reconciler");
    return actions()
        .act(
            AuditedActions.Action.REQUEUE_WITH_NEW_KEY, intents, actionId, why, client, reconciler);
  }

  @Override
  public String toString() {
    return "OutboxAdmin[" + ColumnText.printable(actor) + "]";
  }
}
