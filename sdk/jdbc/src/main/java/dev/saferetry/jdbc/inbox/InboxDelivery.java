package dev.saferetry.jdbc.inbox;

import dev.saferetry.jdbc.internal.Jdbc;
import dev.saferetry.jdbc.internal.JdbcSecrets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@link Inbox#receive} call: records the receipt, runs the handler, and turns a wait for
 * another delivery of the same message into one behaviour on every database. A concurrent delivery
 * waits on the receipt's row lock; when the first commits it finds the receipt (DUPLICATE), when
 * the first rolls back it records its own and runs the handler. MariaDB resolves several waiters of
 * a rolled-back receipt as deadlocks (they all held a shared lock on the vanished row): the losers
 * record nothing and ran nothing, so they try again in a new transaction, and then wait or find the
 * receipt as on the other databases. A wait that outlasts the database's lock timeout, or deadlocks
 * that retrying does not settle, end in {@link InboxException} of kind {@link
 * InboxException.Kind#BUSY BUSY}: never acknowledged, asked for again later.
 *
 * <p>The receipt is inserted as {@code RECEIVING}. The handler writes through a {@link
 * HandlerConnection}, which refuses every call that would end the transaction; a refused call fails
 * the delivery even if the handler caught it. What the guard cannot see (the caller's own
 * connection, a procedure that commits) is caught afterwards: the outcome is set by one update that
 * also checks that the transaction is still the one that inserted the receipt (see {@link
 * InboxTables#finish}). When it is not, nothing is acknowledged: a receipt that was rolled back
 * leaves the message to run again; one that was committed still says {@code RECEIVING}, and every
 * delivery of the message ends in {@link InboxException} of kind {@link
 * InboxException.Kind#INCOMPLETE INCOMPLETE} instead of a duplicate.
 *
 * <p>Confined to the calling thread.
 */
final class InboxDelivery {
  /** Receipt attempts when deadlocks keep choosing this delivery; the handler never ran. */
  static final int RECEIPT_TRIES = 10;

  /** The deliveries running on this thread, innermost last: table, subscriber and message id. */
  private static final ThreadLocal<List<String>> ACTIVE = ThreadLocal.withInitial(ArrayList::new);

  private final InboxTables tables;
  private final Jdbc jdbc;
  private final Clock clock;
  private final String subscriber;
  private final String messageId;
  private final InboxHandler handler;

  InboxDelivery(
      InboxTables tables,
      Jdbc jdbc,
      Clock clock,
      String subscriber,
      String messageId,
      InboxHandler handler) {
    this.tables = tables;
    this.jdbc = jdbc;
    this.clock = clock;
    this.subscriber = subscriber;
    this.messageId = messageId;
    this.handler = handler;
  }

  /** Receives the message in a transaction of its own. */
  InboxResult inOwnTransaction() {
    enter(true);
    try {
      for (int attempt = 1; ; attempt++) {
        try {
          return jdbc.transactionOnce(describe(), c -> process(c, true));
        } catch (LostReceiptRace e) {
          if (attempt >= RECEIPT_TRIES) {
            throw busy("lost " + attempt + " deadlocks to concurrent deliveries of it", e.cause);
          }
        }
      }
    } finally {
      leave();
    }
  }

  /** Receives the message in the caller's transaction, undoing only its own part on failure. */
  InboxResult inCallersTransaction(Connection connection) {
    enter(false);
    Savepoint savepoint = null;
    try {
      if (connection.getAutoCommit()) {
        throw new IllegalStateException(
            "connection must have auto-commit off: the receipt has to commit with your work");
      }
      savepoint = connection.setSavepoint();
      InboxResult outcome = process(connection, false);
      connection.releaseSavepoint(savepoint);
      return outcome;
    } catch (LostReceiptRace e) {
      Jdbc.rollbackQuietly(connection, savepoint, e.cause);
      throw busy(
          "lost a deadlock to a concurrent delivery of it; roll your transaction back", e.cause);
    } catch (RuntimeException | Error e) {
      Jdbc.rollbackQuietly(connection, savepoint, e);
      throw e;
    } catch (SQLException e) {
      Jdbc.rollbackQuietly(connection, savepoint, e);
      throw jdbc.failed(describe(), e);
    } finally {
      leave();
    }
  }

  /**
   * Refuses a receive inside a handler on the same thread: of the message being handled (its
   * receipt insert would wait for the enclosing transaction, which waits for it: forever on
   * PostgreSQL), or of any message in a transaction of its own (it would commit apart from the
   * enclosing one, on a second pooled connection held while the first is).
   */
  private void enter(boolean ownTransaction) {
    List<String> active = ACTIVE.get();
    String key = tables.receipts + '\0' + subscriber + '\0' + messageId;
    if (active.contains(key)) {
      throw new IllegalStateException(
          "receive of message "
              + messageId
              + " of "
              + subscriber
              + " was called inside its own handler: a delivery cannot wait for itself");
    }
    if (ownTransaction && !active.isEmpty()) {
      throw new IllegalStateException(
          "receive of message "
              + messageId
              + " of "
              + subscriber
              + " in a transaction of its own was called inside another message's handler; to"
              + " record it in the handler's transaction, pass the handler's connection:"
              + " receive(tx.connection(), subscriber, messageId, handler)");
    }
    active.add(key);
  }

  private static void leave() {
    List<String> active = ACTIVE.get();
    active.remove(active.size() - 1);
    if (active.isEmpty()) {
      ACTIVE.remove();
    }
  }

  /**
   * Records the receipt, runs the handler on a guarded connection, and sets the outcome if the
   * transaction is still the one that recorded the receipt; {@code own} when the transaction is the
   * inbox's (the caller commits or rolls back).
   */
  private InboxResult process(Connection c, boolean own) throws SQLException {
    InboxTables.Recorded recorded = recordReceipt(c);
    if (recorded == null) {
      if (InboxTables.RECEIVING.equals(tables.outcome(c, subscriber, messageId))) {
        throw incomplete("an earlier delivery's handler ended the inbox's transaction", null);
      }
      return InboxResult.DUPLICATE;
    }
    HandlerConnection guard = new HandlerConnection(c, tables.dialect, message());
    InboxContext context = new InboxContext(guard, tables, jdbc, subscriber, messageId, clock);
    try {
      handler.handle(context);
    } catch (Exception | Error e) {
      IllegalStateException refused = guard.end();
      if (refused != null && refused != e) {
        e.addSuppressed(refused); // the handler caught a refusal, then failed otherwise
      }
      throw afterFailure(c, recorded, own, e);
    }
    IllegalStateException refused = guard.end();
    if (refused != null) {
      throw new IllegalStateException(
          "the handler went on after a refused call: " + refused.getMessage(), refused);
    }
    InboxResult outcome = context.stale() ? InboxResult.STALE : InboxResult.APPLIED;
    if (!tables.finish(c, recorded, subscriber, messageId, outcome)) {
      throw ended(c, own, null);
    }
    return outcome;
  }

  /** What the handler's failure becomes, after finding out whether it ended the transaction. */
  private RuntimeException afterFailure(
      Connection c, InboxTables.Recorded recorded, boolean own, Throwable e) {
    if (e instanceof Error error) {
      throw error; // rolled back by the caller; nothing more is asked of a failing JVM
    }
    RuntimeException failure =
        e instanceof RuntimeException r
            ? r
            : new InboxException(
                "the handler failed for " + message() + ": rolled back, nothing recorded", e);
    if (tables.intact(c, recorded)) {
      return failure;
    }
    try {
      RuntimeException ended = ended(c, own, e);
      return ended instanceof InboxException i && i.kind() == InboxException.Kind.INCOMPLETE
          ? ended
          : failure;
    } catch (SQLException check) {
      failure.addSuppressed(JdbcSecrets.scrub(check));
      return failure;
    }
  }

  /**
   * The failure of a delivery whose transaction is no longer the one that recorded its receipt:
   * {@link InboxException} of kind {@link InboxException.Kind#INCOMPLETE INCOMPLETE} when the
   * receipt was committed without its outcome, an {@link IllegalStateException} when it is gone
   * (rolled back or deleted) and nothing is committed.
   */
  private RuntimeException ended(Connection c, boolean own, Throwable cause) throws SQLException {
    if (own) {
      c.rollback(); // whatever the handler wrote after ending the transaction
    }
    if (InboxTables.RECEIVING.equals(tables.outcome(c, subscriber, messageId))) {
      return incomplete("its handler ended the inbox's transaction", cause);
    }
    return new IllegalStateException(
        "the handler of "
            + message()
            + " ended the inbox's transaction or removed its receipt, through a statement or a"
            + " connection the inbox does not see; nothing of this delivery is committed: do not"
            + " acknowledge it, and its redelivery runs the handler again",
        cause);
  }

  private InboxException incomplete(String what, Throwable cause) {
    return new InboxException(
        InboxException.Kind.INCOMPLETE,
        message()
            + " has a receipt committed without its outcome: "
            + what
            + " after writing part of its work. The inbox cannot tell which effects exist, so it"
            + " neither runs the handler again nor reports a duplicate: do not acknowledge the"
            + " message; check its effects, then delete its RECEIVING receipt (to run the handler"
            + " again) or set it to APPLIED",
        cause);
  }

  private InboxTables.Recorded recordReceipt(Connection c) throws SQLException {
    try {
      return tables.insertReceipt(c, subscriber, messageId, clock.millis());
    } catch (SQLException e) {
      if (tables.dialect.isTransient(e)) {
        throw new LostReceiptRace(e);
      }
      if (tables.dialect.isLockTimeout(e)) {
        throw busy("waited for another delivery of it until the database's lock wait ran out", e);
      }
      throw e;
    }
  }

  private InboxException busy(String what, SQLException cause) {
    return new InboxException(
        InboxException.Kind.BUSY,
        String.format(
            "message %s of %s is being received by another transaction: this delivery %s (SQL"
                + " state %s, error %d); nothing was recorded, ask for the message again later",
            messageId, subscriber, what, cause.getSQLState(), cause.getErrorCode()),
        JdbcSecrets.scrub(cause));
  }

  private String describe() {
    return "receiving message " + messageId + " for " + subscriber;
  }

  private String message() {
    return "message " + messageId + " of " + subscriber;
  }

  /** The receipt insert lost a deadlock before the handler ran: safe to try again. */
  private static final class LostReceiptRace extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient SQLException cause;

    LostReceiptRace(SQLException cause) {
      super(null, null, false, false);
      this.cause = cause;
    }
  }
}
