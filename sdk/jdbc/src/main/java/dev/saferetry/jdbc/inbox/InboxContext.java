package dev.saferetry.jdbc.inbox;

import dev.saferetry.jdbc.internal.ColumnText;
import dev.saferetry.jdbc.internal.Jdbc;
import dev.saferetry.jdbc.internal.JdbcSecrets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.OptionalLong;

/**
 * What a {@link InboxHandler} sees: the transaction its receipt was recorded in, the message's
 * identity, and the per-resource high-water marks that make it order-aware.
 *
 * <p>Messages arrive out of order (a provider's retries, parallel consumers). Give each message a
 * position on its resource's timeline — its creation time or the resource's version — and call
 * {@link #advance} before applying it: {@code false} means something newer was already applied, so
 * skip the change; the message is still recorded and {@link Inbox#receive} reports {@link
 * InboxResult#STALE}.
 *
 * <pre>{@code
 * inbox.receive("billing", event.id(), tx -> {
 *   if (!tx.advance("charge:" + charge.id(), event.created())) {
 *     return; // an older event after a newer one: recorded, not applied
 *   }
 *   orders.markPaid(tx.connection(), charge);
 * });
 * }</pre>
 *
 * <p>Valid only during the handler call it was given to; not thread-safe.
 */
public final class InboxContext {
  private final HandlerConnection connection;
  private final InboxTables tables;
  private final Jdbc jdbc;
  private final String subscriber;
  private final String messageId;
  private final Clock clock;
  private boolean stale;

  InboxContext(
      HandlerConnection connection,
      InboxTables tables,
      Jdbc jdbc,
      String subscriber,
      String messageId,
      Clock clock) {
    this.connection = connection;
    this.tables = tables;
    this.jdbc = jdbc;
    this.subscriber = subscriber;
    this.messageId = messageId;
    this.clock = clock;
  }

  /**
   * {@return the transaction to write the message's effects in, which only the inbox ends} Calls
   * that would end or split it are refused with an {@link IllegalStateException} naming the call,
   * and fail the delivery even if the handler catches that exception: {@code commit}, {@code
   * rollback} (except to a savepoint the handler set), {@code setAutoCommit(true)}, {@code close},
   * {@code abort}, changes of isolation, read-only mode, schema or catalog, and SQL text that does
   * the same ({@code COMMIT}, {@code ROLLBACK}, {@code BEGIN}, {@code SET autocommit}, savepoint
   * statements; on MariaDB and H2 also statements that commit implicitly, such as {@code CREATE
   * TABLE}). Savepoints the handler sets with {@link Connection#setSavepoint()} work as usual.
   * Statements, result sets and metadata lead back to this connection; {@code unwrap} offers
   * nothing beyond {@code java.sql} (for a driver's own API, receive with {@link
   * Inbox#receive(Connection, String, String, InboxHandler)} on a connection of your own). Once the
   * handler returns, every call is refused, from any thread.
   *
   * <p>To record another message in the same transaction, pass this connection to {@link
   * Inbox#receive(Connection, String, String, InboxHandler)}.
   */
  public Connection connection() {
    return connection.connection();
  }

  /** {@return the subscriber the message was received for} */
  public String subscriber() {
    return subscriber;
  }

  /** {@return the message's id} */
  public String messageId() {
    return messageId;
  }

  /**
   * Moves the resource's high-water mark up to {@code position}, atomically and under the
   * resource's row lock, and says whether this message may be applied: true when the resource had
   * no mark or a mark at or below {@code position} (equal positions are both applied, in arrival
   * order), false when a message with a higher position was applied already. The move commits or
   * rolls back with the receipt. Marks are per subscriber.
   *
   * @param resourceId the resource the message changes, 1 to 255 characters
   * @param position the message's place on that resource's timeline (creation time, version)
   * @return whether to apply the message
   * @throws InboxException of kind {@link InboxException.Kind#BUSY BUSY} if another message about
   *     the resource holds the mark beyond the database's lock wait, or a deadlock chose this one:
   *     let it propagate, so nothing is recorded and the message is asked for again later
   * @throws InboxException if the database fails
   * @throws IllegalStateException if the handler has returned
   */
  public boolean advance(String resourceId, long position) {
    ColumnText.checkId("resourceId", resourceId, InboxTables.MAX_ID_LENGTH);
    InboxMarks.Mark mark =
        new InboxMarks.Mark(
            subscriber, resourceId, position, messageId, clock.instant().toEpochMilli());
    try {
      boolean advanced = connection.call("advance", c -> InboxMarks.advance(c, tables, mark));
      stale |= !advanced;
      return advanced;
    } catch (SQLException e) {
      if (tables.dialect.isLockTimeout(e) || tables.dialect.isTransient(e)) {
        throw new InboxException(
            InboxException.Kind.BUSY,
            String.format(
                "another message about %s of %s holds its high-water mark: message %s waited"
                    + " until the database gave up (SQL state %s, error %d); nothing was recorded,"
                    + " ask for the message again later",
                resourceId, subscriber, messageId, e.getSQLState(), e.getErrorCode()),
            JdbcSecrets.scrub(e));
      }
      throw jdbc.failed("moving the high-water mark of " + resourceId, e);
    }
  }

  /**
   * {@return the resource's current high-water mark as this transaction sees it, or empty when no
   * message was applied to it yet} For display and diagnostics; decide with {@link #advance}, which
   * is atomic.
   *
   * @param resourceId the resource id
   * @throws InboxException if the database fails
   * @throws IllegalStateException if the handler has returned
   */
  public OptionalLong highWaterMark(String resourceId) {
    ColumnText.checkId("resourceId", resourceId, InboxTables.MAX_ID_LENGTH);
    try {
      return connection.call(
          "highWaterMark", c -> InboxMarks.read(c, tables.marks, subscriber, resourceId));
    } catch (SQLException e) {
      throw jdbc.failed("reading the high-water mark of " + resourceId, e);
    }
  }

  boolean stale() {
    return stale;
  }
}
