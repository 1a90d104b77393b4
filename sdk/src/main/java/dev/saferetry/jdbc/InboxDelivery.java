package dev.saferetry.jdbc;

import dev.saferetry.internal.jdbc.Jdbc;
import dev.saferetry.internal.jdbc.JdbcSecrets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Clock;

/**
 * One {@link Inbox#receive} call: records the receipt, runs the handler, and turns a wait for
 * another delivery of the same message into one behaviour on every database. A concurrent delivery
 * waits on the receipt's row lock; when the first commits it finds the receipt (DUPLICATE), when
 * the first rolls back it records its own and runs the handler. MariaDB resolves several waiters of
 * a rolled-back receipt as deadlocks (they all held a shared lock on the vanished row): the losers
 * record nothing and ran nothing, so they try again in a new transaction, and then wait or find the
 * receipt as on the other databases. A wait that outlasts the database's lock timeout, or deadlocks
 * that retrying does not settle, end in {@link InboxBusyException}: never acknowledged, asked for
 * again later.
 *
 * <p>Confined to the calling thread.
 */
final class InboxDelivery {
  /** Receipt attempts when deadlocks keep choosing this delivery; the handler never ran. */
  static final int RECEIPT_TRIES = 10;

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
  InboxOutcome inOwnTransaction() {
    for (int attempt = 1; ; attempt++) {
      try {
        return jdbc.transactionOnce(describe(), this::process);
      } catch (LostReceiptRace e) {
        if (attempt >= RECEIPT_TRIES) {
          throw busy("lost " + attempt + " deadlocks to concurrent deliveries of it", e.cause);
        }
      }
    }
  }

  /** Receives the message in the caller's transaction, undoing only its own part on failure. */
  InboxOutcome inCallersTransaction(Connection connection) {
    Savepoint savepoint = null;
    try {
      if (connection.getAutoCommit()) {
        throw new IllegalStateException(
            "connection must have auto-commit off: the receipt has to commit with your work");
      }
      savepoint = connection.setSavepoint();
      InboxOutcome outcome = process(connection);
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
    }
  }

  private InboxOutcome process(Connection c) throws SQLException {
    if (!recordReceipt(c)) {
      return InboxOutcome.DUPLICATE;
    }
    InboxContext context = new InboxContext(c, tables, jdbc, subscriber, messageId, clock);
    try {
      handler.handle(context);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Exception e) {
      throw new InboxException(
          "the handler failed for message " + messageId + " of " + subscriber + ": rolled back", e);
    }
    if (!context.stale()) {
      return InboxOutcome.APPLIED;
    }
    tables.markStale(c, subscriber, messageId);
    return InboxOutcome.STALE;
  }

  private boolean recordReceipt(Connection c) throws SQLException {
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

  private InboxBusyException busy(String what, SQLException cause) {
    return new InboxBusyException(
        String.format(
            "message %s of %s is being received by another transaction: this delivery %s (SQL"
                + " state %s, error %d); nothing was recorded, ask for the message again later",
            messageId, subscriber, what, cause.getSQLState(), cause.getErrorCode()),
        JdbcSecrets.scrub(cause));
  }

  private String describe() {
    return "receiving message " + messageId + " for " + subscriber;
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
