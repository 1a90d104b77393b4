package dev.saferetry.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;

/**
 * The SQL that differs between the inbox's databases: recording a receipt only if absent, and
 * moving a high-water mark forward only. Each statement is one atomic step that a unique key
 * arbitrates, never a check-then-act sequence. Stateless; thread-safe.
 */
enum InboxDialect {
  /** {@code ON CONFLICT}: a duplicate never raises an error, which would abort the transaction. */
  POSTGRESQL("postgresql") {
    @Override
    boolean insertReceipt(Connection c, InboxTables t, Receipt r) throws SQLException {
      return update(
              c,
              "INSERT INTO " + t.receipts() + RECEIPT_COLUMNS + " ON CONFLICT DO NOTHING",
              r.subscriber(),
              r.messageId(),
              r.outcome(),
              r.receivedAt())
          == 1;
    }

    @Override
    boolean advance(Connection c, InboxTables t, Mark m) throws SQLException {
      String sql =
          "INSERT INTO "
              + t.marks()
              + MARK_COLUMNS
              + " ON CONFLICT (subscriber, resource_id) DO UPDATE SET high_water ="
              + " EXCLUDED.high_water, message_id = EXCLUDED.message_id, updated_at ="
              + " EXCLUDED.updated_at WHERE "
              + t.marks()
              + ".high_water <= EXCLUDED.high_water";
      return update(c, sql, m.values()) == 1;
    }
  },

  /** A duplicate key fails only the statement (the transaction goes on), so it is caught. */
  H2("h2") {
    @Override
    boolean advance(Connection c, InboxTables t, Mark m) throws SQLException {
      if (moveUp(c, t, m)) {
        return true;
      }
      try {
        return update(c, "INSERT INTO " + t.marks() + MARK_COLUMNS, m.values()) == 1;
      } catch (SQLException e) {
        if (!isDuplicateKey(e)) {
          throw e;
        }
        // Another transaction created the mark first and has committed: compare against it.
        return moveUp(c, t, m);
      }
    }

    private boolean moveUp(Connection c, InboxTables t, Mark m) throws SQLException {
      String sql =
          "UPDATE "
              + t.marks()
              + " SET high_water = ?, message_id = ?, updated_at = ?"
              + " WHERE subscriber = ? AND resource_id = ? AND high_water <= ?";
      return update(
              c,
              sql,
              m.position(),
              m.messageId(),
              m.updatedAt(),
              m.subscriber(),
              m.resourceId(),
              m.position())
          == 1;
    }
  },

  /**
   * One {@code ON DUPLICATE KEY UPDATE} that keeps the greater mark, then a read of whether this
   * message now holds it (affected-row counts there depend on driver flags). Separate update and
   * insert steps would take gap and shared locks that deadlock concurrent first marks.
   */
  MARIADB("mariadb") {
    @Override
    boolean advance(Connection c, InboxTables t, Mark m) throws SQLException {
      String keep = "IF(high_water <= VALUES(high_water), VALUES(%1$s), %1$s)";
      update(
          c,
          "INSERT INTO "
              + t.marks()
              + MARK_COLUMNS
              + " ON DUPLICATE KEY UPDATE message_id = "
              + String.format(keep, "message_id")
              + ", updated_at = "
              + String.format(keep, "updated_at")
              // Assigned last: MariaDB evaluates assignments left to right.
              + ", high_water = GREATEST(high_water, VALUES(high_water))",
          m.values());
      String holds =
          "SELECT COUNT(*) FROM "
              + t.marks()
              + " WHERE subscriber = ? AND resource_id = ? AND message_id = ?";
      try (PreparedStatement s = c.prepareStatement(holds)) {
        bind(s, m.subscriber(), m.resourceId(), m.messageId());
        try (ResultSet rs = s.executeQuery()) {
          return rs.next() && rs.getLong(1) == 1;
        }
      }
    }
  };

  static final String RECEIPT_COLUMNS =
      " (subscriber, message_id, outcome, received_at) VALUES (?, ?, ?, ?)";
  static final String MARK_COLUMNS =
      " (subscriber, resource_id, high_water, message_id, updated_at) VALUES (?, ?, ?, ?, ?)";

  private final String ddlName;

  InboxDialect(String ddlName) {
    this.ddlName = ddlName;
  }

  /** Returns the classpath resource holding this dialect's DDL. */
  String ddlResource() {
    return "schema/inbox-v" + InboxTables.SCHEMA_VERSION + "-" + ddlName + ".sql";
  }

  /** Picks the dialect of the database behind {@code c}. */
  static InboxDialect of(Connection c) throws SQLException {
    String product = c.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
    String version = c.getMetaData().getDatabaseProductVersion();
    if (product.equals("postgresql")) {
      return POSTGRESQL;
    }
    if (product.equals("h2")) {
      return H2;
    }
    // Not MySQL: it lacks the nopad binary collation the MariaDB DDL relies on.
    if (product.equals("mariadb")
        || (product.equals("mysql") && version != null && version.contains("MariaDB"))) {
      return MARIADB;
    }
    throw new InboxException(
        "unsupported database for the inbox: " + product + " (PostgreSQL, H2 or MariaDB)", null);
  }

  /** Records the receipt; returns false when the message was already recorded. */
  boolean insertReceipt(Connection c, InboxTables t, Receipt r) throws SQLException {
    try {
      return update(
              c,
              "INSERT INTO " + t.receipts() + RECEIPT_COLUMNS,
              r.subscriber(),
              r.messageId(),
              r.outcome(),
              r.receivedAt())
          == 1;
    } catch (SQLException e) {
      if (isDuplicateKey(e)) {
        return false;
      }
      throw e;
    }
  }

  /** Moves the mark up to {@code m.position()}; returns false when it already stands higher. */
  abstract boolean advance(Connection c, InboxTables t, Mark m) throws SQLException;

  static boolean isDuplicateKey(SQLException e) {
    String state = e.getSQLState();
    // 23505: unique_violation (PostgreSQL, H2); 1062: ER_DUP_ENTRY (MariaDB, SQLState 23000).
    return "23505".equals(state) || ("23000".equals(state) && e.getErrorCode() == 1062);
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

  /** A receipt row. */
  record Receipt(String subscriber, String messageId, String outcome, long receivedAt) {}

  /** A high-water mark row. */
  record Mark(
      String subscriber, String resourceId, long position, String messageId, long updatedAt) {
    Object[] values() {
      return new Object[] {subscriber, resourceId, position, messageId, updatedAt};
    }
  }
}
