package dev.saferetry.jdbc.inbox;

import static dev.saferetry.jdbc.inbox.InboxTables.bind;
import static dev.saferetry.jdbc.inbox.InboxTables.update;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.OptionalLong;

/**
 * The per-resource high-water marks: moving one forward only, as one atomic step that the marks
 * table's primary key arbitrates, never a check-then-act sequence. How differs per database:
 *
 * <ul>
 *   <li>PostgreSQL: {@code INSERT ... ON CONFLICT DO UPDATE ... WHERE} the stored mark is not
 *       higher; one row affected means this message holds the mark.
 *   <li>H2: a conditional update, else an insert; a duplicate key (another transaction created the
 *       mark first and has committed) sends it back to the conditional update.
 *   <li>MariaDB: one {@code ON DUPLICATE KEY UPDATE} that keeps the greater mark, then a read of
 *       whether this message now holds it at exactly this position (affected-row counts there
 *       depend on driver flags): a message that already moved the mark higher and then asks for a
 *       lower position is told no, as on the other databases. Separate update and insert steps
 *       would take gap and shared locks that deadlock concurrent first marks.
 * </ul>
 *
 * <p>Stateless and thread-safe.
 */
final class InboxMarks {
  private static final String COLUMNS =
      " (subscriber, resource_id, high_water, message_id, updated_at) VALUES (?, ?, ?, ?, ?)";

  private InboxMarks() {}

  /** A mark as a message would set it. */
  record Mark(
      String subscriber, String resourceId, long position, String messageId, long updatedAt) {
    Object[] values() {
      return new Object[] {subscriber, resourceId, position, messageId, updatedAt};
    }
  }

  /** Moves the mark up to {@code m.position()}; returns false when it already stands higher. */
  static boolean advance(Connection c, InboxTables t, Mark m) throws SQLException {
    return switch (t.dialect) {
      case POSTGRESQL -> advancePostgres(c, t.marks, m);
      case H2 -> advanceH2(c, t, m);
      case MARIADB -> advanceMariaDb(c, t.marks, m);
    };
  }

  /** The mark of {@code resourceId} as this transaction sees it. */
  static OptionalLong read(Connection c, String table, String subscriber, String resourceId)
      throws SQLException {
    String sql = "SELECT high_water FROM " + table + " WHERE subscriber = ? AND resource_id = ?";
    try (PreparedStatement s = c.prepareStatement(sql)) {
      bind(s, subscriber, resourceId);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
      }
    }
  }

  private static boolean advancePostgres(Connection c, String table, Mark m) throws SQLException {
    String sql =
        "INSERT INTO "
            + table
            + COLUMNS
            + " ON CONFLICT (subscriber, resource_id) DO UPDATE SET high_water ="
            + " EXCLUDED.high_water, message_id = EXCLUDED.message_id, updated_at ="
            + " EXCLUDED.updated_at WHERE "
            + table
            + ".high_water <= EXCLUDED.high_water";
    return update(c, sql, m.values()) == 1;
  }

  private static boolean advanceH2(Connection c, InboxTables t, Mark m) throws SQLException {
    if (moveUp(c, t.marks, m)) {
      return true;
    }
    try {
      return update(c, "INSERT INTO " + t.marks + COLUMNS, m.values()) == 1;
    } catch (SQLException e) {
      if (!t.dialect.isDuplicateKey(e)) {
        throw e;
      }
      // Another transaction created the mark first and has committed: compare against it.
      return moveUp(c, t.marks, m);
    }
  }

  private static boolean moveUp(Connection c, String table, Mark m) throws SQLException {
    String sql =
        "UPDATE "
            + table
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

  private static boolean advanceMariaDb(Connection c, String table, Mark m) throws SQLException {
    String keep = "IF(high_water <= VALUES(high_water), VALUES(%1$s), %1$s)";
    update(
        c,
        "INSERT INTO "
            + table
            + COLUMNS
            + " ON DUPLICATE KEY UPDATE message_id = "
            + String.format(keep, "message_id")
            + ", updated_at = "
            + String.format(keep, "updated_at")
            // Assigned last: MariaDB evaluates assignments left to right.
            + ", high_water = GREATEST(high_water, VALUES(high_water))",
        m.values());
    String holds =
        "SELECT COUNT(*) FROM "
            + table
            + " WHERE subscriber = ? AND resource_id = ? AND message_id = ? AND high_water = ?";
    try (PreparedStatement s = c.prepareStatement(holds)) {
      bind(s, m.subscriber(), m.resourceId(), m.messageId(), m.position());
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() && rs.getLong(1) == 1;
      }
    }
  }
}
