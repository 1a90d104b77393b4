package dev.saferetry.jdbc.inbox;

import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An inbox on a fresh schema of one database, with a ledger table as the business effect: one row
 * per application. Not thread-safe: one test owns it.
 */
final class InboxFixture implements AutoCloseable {
  final TestDatabase database;
  final Inbox inbox;
  final String receipts;
  final String ledger;
  final AtomicInteger handlerRuns = new AtomicInteger();

  InboxFixture(Db db) throws SQLException {
    database = db.open();
    receipts = database.table("rcpt");
    ledger = database.table("ledger");
    database.execute(
        "CREATE TABLE "
            + ledger
            + " (message_id VARCHAR(255), resource VARCHAR(255))"
            + (db == Db.MARIADB ? " ENGINE=InnoDB" : ""));
    inbox = Inbox.builder().dataSource(database.pool()).table(receipts).createSchema(true).build();
  }

  Db db() {
    return database.db;
  }

  /** The business effect: one ledger row per application, written on the handler's connection. */
  InboxHandler apply(String resource) {
    return tx -> {
      handlerRuns.incrementAndGet();
      write(tx.connection(), tx.messageId(), resource);
    };
  }

  /** One ledger row, on {@code c}. */
  void write(Connection c, String messageId, String resource) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("INSERT INTO " + ledger + " VALUES (?, ?)")) {
      s.setString(1, messageId);
      s.setString(2, resource);
      s.executeUpdate();
    }
  }

  long ledgerRows() throws SQLException {
    return database.count("SELECT COUNT(*) FROM " + ledger);
  }

  long ledgerRows(String resource) throws SQLException {
    return database.count(
        "SELECT COUNT(*) FROM " + ledger + " WHERE resource = '" + resource + "'");
  }

  /** The ledger rows one message wrote. */
  long ledgerRowsOf(String messageId) throws SQLException {
    return database.count(
        "SELECT COUNT(*) FROM " + ledger + " WHERE message_id = '" + messageId + "'");
  }

  long receiptRows() throws SQLException {
    return database.count("SELECT COUNT(*) FROM " + receipts);
  }

  /** The stored outcome of a message, or null when it has no receipt. */
  String outcome(String messageId) throws SQLException {
    return database.text(
        "SELECT outcome FROM " + receipts + " WHERE message_id = '" + messageId + "'");
  }

  @Override
  public void close() throws SQLException, IOException {
    database.close();
  }
}
