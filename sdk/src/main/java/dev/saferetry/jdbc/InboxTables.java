package dev.saferetry.jdbc;

import dev.saferetry.internal.jdbc.Dialect;
import dev.saferetry.internal.jdbc.Purge;
import dev.saferetry.internal.jdbc.SchemaGate;
import dev.saferetry.internal.jdbc.SqlNames;
import dev.saferetry.internal.jdbc.SqlScript;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/**
 * The inbox's two tables — receipts ({@code name}) and high-water marks ({@code name_marks}) — on
 * one database: their versioned scripts, the start-up probe, and the receipt statements (the mark
 * statements are in {@link InboxMarks}). Recording a receipt is one insert that the primary key
 * arbitrates, never a check-then-act sequence.
 *
 * <p>Immutable and thread-safe.
 */
final class InboxTables implements SchemaGate.Tables {
  /** The scripts' name: {@code inbox-v<version>-<database>.sql}. */
  static final String SCRIPTS = "inbox";

  /** The schema version this code writes. */
  static final int VERSION = 1;

  /** The oldest schema version this code can read and write. */
  static final int MIN_READER = 1;

  final Dialect dialect;
  final String receipts;
  final String marks;
  private final String index;
  private final String insert;

  InboxTables(Dialect dialect, String schema, String name) {
    this.dialect = dialect;
    this.receipts = SqlNames.qualify(schema, name);
    this.marks = receipts + "_marks";
    this.index = dialect.indexName(schema, name);
    String insert =
        "INSERT INTO "
            + receipts
            + " (subscriber, message_id, outcome, received_at) VALUES (?, ?, ?, ?)";
    // PostgreSQL: a duplicate must not raise an error, which would abort the whole transaction.
    this.insert = dialect == Dialect.POSTGRESQL ? insert + " ON CONFLICT DO NOTHING" : insert;
  }

  @Override
  public SqlScript script(int version) {
    return SqlScript.load(
        SqlScript.resource(SCRIPTS, version, dialect),
        Map.of("receipts", receipts, "marks", marks, "index", index));
  }

  @Override
  public void probe(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.executeQuery(
              "SELECT subscriber, message_id, outcome, received_at FROM "
                  + receipts
                  + " WHERE 1 = 0")
          .close();
      s.executeQuery(
              "SELECT subscriber, resource_id, high_water, message_id, updated_at FROM "
                  + marks
                  + " WHERE 1 = 0")
          .close();
    }
  }

  /**
   * Records the receipt; returns false when the message was already recorded (after waiting for a
   * concurrent transaction that recorded it to end).
   */
  boolean insertReceipt(Connection c, String subscriber, String messageId, long receivedAt)
      throws SQLException {
    try {
      return update(c, insert, subscriber, messageId, InboxOutcome.APPLIED.name(), receivedAt) == 1;
    } catch (SQLException e) {
      if (dialect.isDuplicateKey(e)) {
        return false; // H2 and MariaDB fail only the statement: the transaction goes on
      }
      throw e;
    }
  }

  /** Records that the message was received but not applied. */
  void markStale(Connection c, String subscriber, String messageId) throws SQLException {
    update(
        c,
        "UPDATE " + receipts + " SET outcome = ? WHERE subscriber = ? AND message_id = ?",
        InboxOutcome.STALE.name(),
        subscriber,
        messageId);
  }

  /**
   * Deletes up to {@code limit} receipts recorded before {@code before} (epoch milliseconds),
   * skipping receipts another transaction holds; see {@link Purge}. Marks are never touched.
   */
  int purgeBatch(Connection c, long before, int limit) throws SQLException {
    return Purge.batch(
        c,
        "SELECT subscriber, message_id FROM "
            + receipts
            + " WHERE received_at < ? LIMIT ? FOR UPDATE SKIP LOCKED",
        "DELETE FROM " + receipts + " WHERE subscriber = ? AND message_id = ? AND received_at < ?",
        before,
        limit);
  }

  static int update(Connection c, String sql, Object... values) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(sql)) {
      bind(s, values);
      return s.executeUpdate();
    }
  }

  static void bind(PreparedStatement s, Object... values) throws SQLException {
    for (int i = 0; i < values.length; i++) {
      if (values[i] instanceof Long l) {
        s.setLong(i + 1, l);
      } else {
        s.setString(i + 1, (String) values[i]);
      }
    }
  }
}
