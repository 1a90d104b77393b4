package dev.saferetry.conformance.server;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** SQL on {@code api_idempotency}. Stateless apart from the dialect; thread-safe. */
final class KeyTable {
  private static final String WHERE =
      " where tenant_id = ? and operation = ? and idempotency_key = ?";
  private final boolean postgres;

  KeyTable(boolean postgres) {
    this.postgres = postgres;
  }

  /** Inserts a pending record unless one exists; true when this call inserted it. */
  boolean insertPending(
      Connection c, IdempotencyRequest r, String owner, Instant now, Instant expires)
      throws SQLException {
    String sql =
        "insert into api_idempotency (tenant_id, operation, idempotency_key,"
            + " request_hash, state, lock_owner, locked_at, created_at, expires_at)"
            + " values (?, ?, ?, ?, 'PENDING', ?, ?, ?, ?)"
            + (postgres ? " on conflict do nothing" : "");
    try (PreparedStatement insert = c.prepareStatement(sql)) {
      bindScope(insert, r);
      insert.setString(4, r.requestHash());
      insert.setString(5, owner);
      insert.setObject(6, utc(now));
      insert.setObject(7, utc(now));
      insert.setObject(8, utc(expires));
      return insert.executeUpdate() == 1;
    } catch (SQLException e) {
      if ("23505".equals(e.getSQLState())) {
        return false; // H2: the unique constraint said someone else won the race.
      }
      throw e;
    }
  }

  /** Loads the record under a row lock (select ... for update), or null. */
  KeyRecord lock(Connection c, IdempotencyRequest r) throws SQLException {
    String sql =
        "select state, request_hash, status_code, response_body, resource_type,"
            + " resource_id, lock_owner, locked_at, expires_at from api_idempotency"
            + WHERE
            + " for update";
    try (PreparedStatement select = c.prepareStatement(sql)) {
      bindScope(select, r);
      try (ResultSet rs = select.executeQuery()) {
        if (!rs.next()) {
          return null;
        }
        Outcome outcome =
            rs.getString(1).equals(KeyRecord.COMPLETED)
                ? new Outcome(rs.getInt(3), rs.getString(4), rs.getString(5), rs.getString(6))
                : null;
        OffsetDateTime lockedAt = rs.getObject(8, OffsetDateTime.class);
        return new KeyRecord(
            rs.getString(1),
            rs.getString(2),
            outcome,
            rs.getString(7),
            lockedAt == null ? null : lockedAt.toInstant(),
            rs.getObject(9, OffsetDateTime.class).toInstant());
      }
    }
  }

  /** Makes the (locked) record a fresh pending claim of {@code owner}: takeover or expiry. */
  void claim(Connection c, IdempotencyRequest r, String owner, Instant now, Instant expires)
      throws SQLException {
    String sql =
        "update api_idempotency set request_hash = ?, state = 'PENDING',"
            + " status_code = null, response_body = null, resource_type = null, resource_id = null,"
            + " lock_owner = ?, locked_at = ?, created_at = ?, expires_at = ?"
            + WHERE;
    try (PreparedStatement update = c.prepareStatement(sql)) {
      update.setString(1, r.requestHash());
      update.setString(2, owner);
      update.setObject(3, utc(now));
      update.setObject(4, utc(now));
      update.setObject(5, utc(expires));
      bindScope(update, r, 6);
      update.executeUpdate();
    }
  }

  /** Stores the outcome if {@code owner} still holds the pending record; false otherwise. */
  boolean complete(Connection c, IdempotencyRequest r, String owner, Outcome o)
      throws SQLException {
    KeyRecord current = lock(c, r);
    if (current == null || current.completed() || !owner.equals(current.lockOwner())) {
      return false;
    }
    String sql =
        "update api_idempotency set state = 'COMPLETED', status_code = ?,"
            + " response_body = ?, resource_type = ?, resource_id = ?, lock_owner = null,"
            + " locked_at = null"
            + WHERE;
    try (PreparedStatement update = c.prepareStatement(sql)) {
      update.setInt(1, o.status());
      update.setString(2, o.body());
      update.setString(3, o.resourceType());
      update.setString(4, o.resourceId());
      bindScope(update, r, 5);
      return update.executeUpdate() == 1;
    }
  }

  /** Deletes the pending record of {@code owner}, so that a retry may execute. */
  void release(Connection c, IdempotencyRequest r, String owner) throws SQLException {
    try (PreparedStatement delete =
        c.prepareStatement(
            "delete from api_idempotency" + WHERE + " and state = 'PENDING' and lock_owner = ?")) {
      bindScope(delete, r);
      delete.setString(4, owner);
      delete.executeUpdate();
    }
  }

  static void bindScope(PreparedStatement statement, IdempotencyRequest r) throws SQLException {
    bindScope(statement, r, 1);
  }

  static void bindScope(PreparedStatement statement, IdempotencyRequest r, int first)
      throws SQLException {
    statement.setString(first, r.tenant());
    statement.setString(first + 1, r.operation());
    statement.setString(first + 2, r.key());
  }

  static OffsetDateTime utc(Instant instant) {
    return instant.atOffset(ZoneOffset.UTC);
  }
}
