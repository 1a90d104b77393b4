package dev.saferetry.jdbc.inbox;

import dev.saferetry.jdbc.internal.ColumnText;
import dev.saferetry.jdbc.internal.DatabaseTime;
import dev.saferetry.jdbc.internal.Jdbc;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * Makes every redelivery of a message harmless: a processed-messages table keyed by subscriber and
 * message id, written in the same transaction as the message's effects and before them.
 *
 * <p>{@link #receive(String, String, InboxHandler)} opens a transaction, records the receipt — one
 * insert that the primary key arbitrates, so of any number of concurrent deliveries exactly one
 * proceeds — runs the handler, and commits both. A message already recorded is reported as {@link
 * InboxResult#DUPLICATE} without running the handler. A concurrent delivery waits for the first to
 * end, the same way on every database: if the first commits it reports {@code DUPLICATE}, if the
 * first rolls back it runs the handler itself; if the first is still running when the database's
 * lock wait runs out (H2 {@code LOCK_TIMEOUT}, default 2 s; MariaDB {@code
 * innodb_lock_wait_timeout}, default 50 s; PostgreSQL {@code lock_timeout}, default none: set one)
 * it throws {@link InboxException} of kind {@link InboxException.Kind#BUSY BUSY}. A handler that
 * throws rolls the receipt back with its work, so the redelivery runs it again. A crash after the
 * commit and before the acknowledgement leaves a receipt, and the redelivery is a duplicate.
 * Acknowledge the message whenever {@code receive} returns; do not acknowledge it when it throws.
 *
 * <p>The receipt and the handler's work commit together or not at all, whatever the handler does:
 * the connection it gets refuses commit, rollback, auto-commit, close and the like (see {@link
 * InboxContext#connection()}), and the outcome is recorded only if the transaction is still the one
 * that recorded the receipt. A {@code receive} inside a handler is refused, except on the handler's
 * own connection ({@link #receive(Connection, String, String, InboxHandler)} with {@code
 * tx.connection()}), where the second receipt commits with the first.
 *
 * <pre>{@code
 * Inbox inbox = Inbox.builder().dataSource(dataSource).build();
 * InboxResult outcome = inbox.receive("billing", event.id(), tx -> {
 *   try (PreparedStatement s = tx.connection().prepareStatement(
 *       "UPDATE orders SET status = 'paid' WHERE id = ?")) {
 *     s.setString(1, orderId);
 *     s.executeUpdate();
 *   }
 * });
 * // APPLIED, DUPLICATE or STALE: acknowledge
 * }</pre>
 *
 * <p>Supported databases: PostgreSQL 12, H2 2.2 and MariaDB 10.6 or newer (not MySQL), with the
 * migration {@code db/saferetry-migration/<database>/V2__saferetry_inbox.sql} in the jar, for
 * Flyway or Liquibase. The tables' version is recorded in {@code saferetry_schema} beside them, as
 * the key store's is; {@link InboxBuilder#build} checks them, failing with {@link InboxException}
 * of kind {@link InboxException.Kind#SCHEMA SCHEMA} that names the file to apply, and runs the same
 * file itself when told {@link InboxBuilder#createSchema createSchema(true)}. Only {@code java.sql}
 * is used; the driver is yours.
 *
 * <p>Receipts are kept until {@link #purgeReceiptsOlderThan} deletes them: run it from every
 * instance (for example hourly) with an age longer than the senders may redeliver a message.
 *
 * <p>Instances are immutable and thread-safe; share one per set of tables.
 */
public final class Inbox {
  static final int MAX_SUBSCRIBER_LENGTH = 200;

  private final Jdbc jdbc;
  private final InboxTables tables;
  private final Clock clock;
  private final int purgeBatch;

  private final InboxBuilder settings;

  Inbox(InboxBuilder b, InboxTables tables) {
    this.jdbc = new Jdbc(b.source, tables.dialect, InboxException::new);
    this.tables = tables;
    this.clock = b.clock;
    this.purgeBatch = b.purgeBatchSize;
    this.settings = b;
  }

  /**
   * {@return a builder; an {@link InboxBuilder#dataSource} or {@link InboxBuilder#jdbcUrl} is
   * required}
   */
  public static InboxBuilder builder() {
    return new InboxBuilder();
  }

  /** {@return a builder holding this inbox's settings, to build another inbox from} */
  public InboxBuilder newBuilder() {
    return settings.copy();
  }

  /**
   * Receives a message in a transaction of its own.
   *
   * @param subscriber who consumes the message (1 to 200 characters): the same message id may be
   *     received once per subscriber
   * @param messageId the provider's event or delivery id, or the broker message id (1 to 255)
   * @param handler the work to do the first time
   * @return what happened; acknowledge the message in every case
   * @throws InboxException of kind {@link InboxException.Kind#BUSY BUSY} if another delivery of the
   *     message is still being handled, or another message holds a mark the handler needs, beyond
   *     the database's lock wait: do not acknowledge, ask for the message again later (nack with
   *     requeue, answer 503)
   * @throws InboxException of kind {@link InboxException.Kind#INCOMPLETE INCOMPLETE} if a handler
   *     of this message ended the inbox's transaction itself and part of its work was committed
   *     with the receipt: do not acknowledge, a person must look
   * @throws InboxException if the database fails or the handler throws a checked exception
   * @throws IllegalStateException if the handler made a call the inbox refuses (see {@link
   *     InboxContext#connection()}), even one it caught, or ended the transaction or removed the
   *     receipt in a way only seen afterwards: rolled back, nothing recorded, do not acknowledge;
   *     also if called inside a handler on the same thread (nothing done)
   * @throws RuntimeException what the handler threw, after the rollback
   */
  public InboxResult receive(String subscriber, String messageId, InboxHandler handler) {
    checkArguments(subscriber, messageId, handler);
    return new InboxDelivery(tables, jdbc, clock, subscriber, messageId, handler)
        .inOwnTransaction();
  }

  /**
   * Receives a message inside a transaction the caller already holds, so the receipt commits or
   * rolls back with the caller's own work. The caller commits; nothing is committed here. A
   * duplicate leaves the transaction untouched. When the handler throws, the receipt and the
   * handler's work are rolled back to a savepoint before the exception propagates, so committing
   * the rest of the transaction afterwards cannot mark the message as processed. After an {@link
   * InboxException} of kind {@link InboxException.Kind#BUSY BUSY} roll the transaction back: a
   * deadlock may already have ended it.
   *
   * @param connection the caller's connection, auto-commit off
   * @param subscriber who consumes the message (1 to 200 characters)
   * @param messageId the event, delivery or message id (1 to 255 characters)
   * @param handler the work to do the first time
   * @return what happened
   * @throws IllegalStateException if the connection is in auto-commit mode, if called inside the
   *     handler of the same message, or as for {@link #receive(String, String, InboxHandler)}: roll
   *     your transaction back
   * @throws InboxException of kind {@link InboxException.Kind#BUSY BUSY} if another transaction
   *     holds the message's receipt or a mark the handler needs: do not acknowledge, ask for the
   *     message again later
   * @throws InboxException of kind {@link InboxException.Kind#INCOMPLETE INCOMPLETE} if the handler
   *     (for example through this connection, which it can reach without the inbox's guard)
   *     committed part of its work with the receipt, or an earlier delivery did
   * @throws InboxException if the database fails or the handler throws a checked exception
   */
  public InboxResult receive(
      Connection connection, String subscriber, String messageId, InboxHandler handler) {
    Objects.requireNonNull(connection, "connection");
    checkArguments(subscriber, messageId, handler);
    return new InboxDelivery(tables, jdbc, clock, subscriber, messageId, handler)
        .inCallersTransaction(connection);
  }

  /**
   * Deletes the receipts recorded more than {@code age} ago, judged at the earlier of this inbox's
   * clock and the database's (receipts are recorded at the later of the two): a host whose clock
   * runs ahead, or one whose clock ran behind when it recorded, never deletes a receipt younger
   * than {@code age} by the database's clock. In transactions of at most {@link
   * InboxBuilder#purgeBatchSize} receipts; receipts another instance is purging are skipped, not
   * waited for, so every instance may run it at once. The high-water marks are never deleted: an
   * event older than what its resource already saw stays {@link InboxResult#STALE} however old its
   * receipt.
   *
   * <p>A message whose receipt was purged is no longer recognised: a delivery after that runs the
   * handler again. Keep receipts at least as long as any sender may deliver a message again, with a
   * margin: a provider's automatic retries (Stripe retries for up to three days), redeliveries
   * started by hand (GitHub redelivers deliveries of the past three days on request; Stripe's
   * events API lists the past 30 days of events for reprocessing) and messages replayed from a
   * broker's dead-letter queue.
   *
   * @param age how old a receipt must be to be deleted; positive
   * @return how many receipts were deleted
   * @throws IllegalArgumentException if {@code age} is zero or negative
   * @throws InboxException if the database fails; batches already committed stay deleted
   */
  public int purgeReceiptsOlderThan(Duration age) {
    Objects.requireNonNull(age, "age");
    if (age.isNegative() || age.isZero()) {
      throw new IllegalArgumentException("age must be positive");
    }
    long now = clock.millis();
    long db =
        jdbc.autoCommit(
            "read the database clock", c -> DatabaseTime.query(c, jdbc.dialect()).toEpochMilli());
    long before;
    try {
      before = Math.subtractExact(Math.min(now, db), age.toMillis());
    } catch (ArithmeticException e) {
      return 0; // older than anything a clock can have recorded
    }
    return jdbc.inBatches(
        "purge receipts of " + tables.receipts,
        purgeBatch,
        c -> tables.purgeBatch(c, before, purgeBatch));
  }

  private static void checkArguments(String subscriber, String messageId, InboxHandler handler) {
    ColumnText.checkId("subscriber", subscriber, MAX_SUBSCRIBER_LENGTH);
    ColumnText.checkId("messageId", messageId, InboxTables.MAX_ID_LENGTH);
    Objects.requireNonNull(handler, "handler");
  }

  @Override
  public String toString() {
    return "Inbox[" + tables.receipts + ", " + tables.marks + "]";
  }
}
