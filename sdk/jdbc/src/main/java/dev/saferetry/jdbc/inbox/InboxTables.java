package dev.saferetry.jdbc.inbox;

import dev.saferetry.jdbc.internal.Dialect;
import dev.saferetry.jdbc.internal.Purge;
import dev.saferetry.jdbc.internal.SchemaGate;
import dev.saferetry.jdbc.internal.SqlNames;
import dev.saferetry.jdbc.internal.SqlScript;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;

/**
 * The inbox's two tables — receipts ({@code name}) and high-water marks ({@code name_marks}) — on
 * one database: their versioned scripts, the start-up probe, and the receipt statements (the mark
 * statements are in {@link InboxMarks}). Recording a receipt is one insert that the primary key
 * arbitrates, never a check-then-act sequence.
 *
 * <p>Immutable and thread-safe.
 */
final class InboxTables implements SchemaGate.Tables {
  /** The receipts table's name in the migration files, and the builder's default. */
  static final String DEFAULT_NAME = "saferetry_inbox";

  /** The longest message or resource id, in characters. */
  static final int MAX_ID_LENGTH = 255;

  /** The schema version this code writes. */
  static final int VERSION = 1;

  /** The oldest schema version this code can read and write. */
  static final int MIN_READER = 1;

  /**
   * A receipt's outcome until the transaction that recorded it sets the real one just before it
   * commits. Committed, it means a handler ended the inbox's transaction itself (see {@link
   * InboxException} of kind {@link InboxException.Kind#INCOMPLETE INCOMPLETE}).
   */
  static final String RECEIVING = "RECEIVING";

  /** MariaDB's "SAVEPOINT ... does not exist". */
  private static final int SAVEPOINT_DOES_NOT_EXIST = 1305;

  private static final SecureRandom RANDOM = new SecureRandom();

  /** A receipt recorded in a transaction, with what identifies that transaction. */
  record Recorded(Object transaction) {}

  final Dialect dialect;
  final String receipts;
  final String marks;
  private final String schema;
  private final String name;
  private final String insert;

  InboxTables(Dialect dialect, String schema, String name) {
    this.dialect = dialect;
    this.receipts = SqlNames.qualify(schema, name);
    this.marks = receipts + "_marks";
    this.schema = schema;
    this.name = name;
    String insert =
        "INSERT INTO "
            + receipts
            + " (subscriber, message_id, outcome, received_at) VALUES (?, ?, ?, GREATEST(?, "
            + dialect.clockMillis()
            + "))";
    // PostgreSQL: a duplicate must not raise an error, which would abort the whole transaction.
    this.insert =
        dialect == Dialect.POSTGRESQL
            ? insert + " ON CONFLICT DO NOTHING RETURNING txid_current()"
            : insert;
  }

  /** The migration that brings the inbox's tables to {@code version}. */
  static String file(int version) {
    if (version != 1) {
      throw new IllegalArgumentException("no inbox migration to version " + version);
    }
    return "V2__saferetry_inbox.sql";
  }

  @Override
  public SqlScript script(int version) {
    return SqlScript.load(
        SqlScript.resource(dialect, file(version)),
        SqlScript.names(
            dialect, schema, name, DEFAULT_NAME, List.of("_marks"), List.of("_received")));
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
   * Records the receipt as {@link #RECEIVING}, received at the later of {@code receivedAt} (the
   * inbox's clock) and the database's clock, so that a host whose clock runs behind never records a
   * receipt that retention then deletes early; returns what identifies the transaction that
   * recorded it, or null when the message was already recorded (after waiting for a concurrent
   * transaction that recorded it to end). PostgreSQL: the transaction id, from the insert itself.
   * H2: the transaction id, read next. MariaDB, which shows no transaction id without the {@code
   * PROCESS} privilege: a savepoint with a random name, set next, which a commit or rollback
   * destroys.
   */
  Recorded insertReceipt(Connection c, String subscriber, String messageId, long receivedAt)
      throws SQLException {
    Object[] values = {subscriber, messageId, RECEIVING, receivedAt};
    if (dialect == Dialect.POSTGRESQL) {
      try (PreparedStatement s = c.prepareStatement(insert)) {
        bind(s, values);
        try (ResultSet rs = s.executeQuery()) {
          return rs.next() ? new Recorded(rs.getLong(1)) : null;
        }
      }
    }
    try {
      update(c, insert, values);
    } catch (SQLException e) {
      if (dialect.isDuplicateKey(e)) {
        return null; // H2 and MariaDB fail only the statement: the transaction goes on
      }
      throw e;
    }
    if (dialect == Dialect.H2) {
      return new Recorded(transactionId(c));
    }
    return new Recorded(c.setSavepoint("saferetry_receipt_" + Long.toHexString(RANDOM.nextLong())));
  }

  /**
   * Whether {@code c} is still in the transaction that recorded the receipt. A statement error
   * means it is (PostgreSQL refuses statements in a failed transaction until its rollback).
   */
  boolean intact(Connection c, Recorded recorded) {
    try {
      return switch (dialect) {
        case POSTGRESQL -> recorded.transaction().equals(single(c, "SELECT txid_current()"));
        case H2 -> recorded.transaction().equals(transactionId(c));
        case MARIADB -> {
          c.releaseSavepoint((Savepoint) recorded.transaction());
          yield true;
        }
      };
    } catch (SQLException e) {
      return !(dialect == Dialect.MARIADB && e.getErrorCode() == SAVEPOINT_DOES_NOT_EXIST);
    }
  }

  /**
   * Replaces the receipt's {@link #RECEIVING} with {@code outcome}, if {@code c} is still in the
   * transaction that recorded it and the receipt is still there; returns whether it was.
   */
  boolean finish(
      Connection c, Recorded recorded, String subscriber, String messageId, InboxResult outcome)
      throws SQLException {
    String sql =
        "UPDATE "
            + receipts
            + " SET outcome = ? WHERE subscriber = ? AND message_id = ? AND outcome = ?";
    Object[] values = {outcome.name(), subscriber, messageId, RECEIVING, recorded.transaction()};
    return switch (dialect) {
      case POSTGRESQL -> update(c, sql + " AND txid_current() = ?", values) == 1;
      case H2 -> update(c, sql + " AND TRANSACTION_ID() = ?", values) == 1;
      case MARIADB ->
          intact(c, recorded) && update(c, sql, Arrays.copyOf(values, values.length - 1)) == 1;
    };
  }

  /** The message's recorded outcome as {@code c}'s transaction sees it, or null when none. */
  String outcome(Connection c, String subscriber, String messageId) throws SQLException {
    String sql = "SELECT outcome FROM " + receipts + " WHERE subscriber = ? AND message_id = ?";
    try (PreparedStatement s = c.prepareStatement(sql)) {
      bind(s, subscriber, messageId);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  private static String transactionId(Connection c) throws SQLException {
    Object id = single(c, "SELECT TRANSACTION_ID()");
    if (id == null) {
      throw new SQLException("H2 reported no transaction after the receipt was inserted");
    }
    return id.toString();
  }

  private static Object single(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      return rs.next() ? rs.getObject(1) : null;
    }
  }

  /**
   * Deletes up to {@code limit} receipts recorded before {@code before} (epoch milliseconds),
   * skipping receipts another transaction holds; see {@link Purge}. Marks are never touched.
   */
  int purgeBatch(Connection c, long before, int limit) throws SQLException {
    String select =
        "SELECT subscriber, message_id FROM "
            + receipts
            + " WHERE received_at < ? ORDER BY received_at LIMIT ? FOR UPDATE SKIP LOCKED";
    if (dialect == Dialect.POSTGRESQL) {
      return Purge.batch(
          c,
          "DELETE FROM "
              + receipts
              + " WHERE ctid = ANY(ARRAY(" // a TID scan; see IntentSql's purge
              + select.replace("subscriber, message_id", "ctid")
              + ")) AND received_at < ?",
          before,
          limit);
    }
    return Purge.batch(
        c,
        select,
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
      } else if (values[i] instanceof Integer n) {
        s.setInt(i + 1, n);
      } else {
        s.setString(i + 1, (String) values[i]);
      }
    }
  }
}
