package dev.saferetry.internal.jdbc;

import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.jdbc.StoredRequest;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads and binds the key store's rows. Every value is checked to round-trip exactly before it is
 * written: text a database would change (an unpaired surrogate, a NUL character, more characters
 * than its column holds) and instants a BIGINT of nanoseconds cannot hold are refused, never stored
 * altered.
 *
 * <p>Stateless and thread-safe.
 */
final class IntentRows {
  static final int MAX_TENANT = 128;
  static final int MAX_OPERATION = 255;
  static final int MAX_FINGERPRINT = 512;
  static final int MAX_RESOURCE_ID = 1 << 20;
  private static final long NANOS = 1_000_000_000L;

  private IntentRows() {}

  /** Nanoseconds since the epoch; refuses instants outside the years 1677 to 2262. */
  static long nanos(String what, Instant t) {
    try {
      return Math.addExact(Math.multiplyExact(t.getEpochSecond(), NANOS), t.getNano());
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          what + " " + t + " is outside what the JDBC key store holds (years 1677 to 2262)");
    }
  }

  static Instant instant(long nanos) {
    return Instant.ofEpochSecond(Math.floorDiv(nanos, NANOS), Math.floorMod(nanos, NANOS));
  }

  static int code(IntentState state) {
    return switch (state) {
      case PENDING -> 0;
      case SUCCEEDED -> 1;
      case FAILED -> 2;
    };
  }

  static IntentState state(int code) throws SQLException {
    return switch (code) {
      case 0 -> IntentState.PENDING;
      case 1 -> IntentState.SUCCEEDED;
      case 2 -> IntentState.FAILED;
      default -> throw new SQLException("unknown intent state code " + code + " in the table");
    };
  }

  static void bindPk(PreparedStatement ps, int at, IntentScope scope, String intentId)
      throws SQLException {
    ps.setString(at, StoredText.check("tenant", scope.tenant(), MAX_TENANT));
    ps.setString(at + 1, StoredText.check("operation", scope.operation(), MAX_OPERATION));
    ps.setString(
        at + 2, StoredText.check("intent id", intentId, IntentRecord.MAX_INTENT_ID_LENGTH));
  }

  /** Binds the primary key and the 15 replaced columns of {@link IntentSql}: 18 parameters. */
  static void bindInsert(PreparedStatement ps, int at, IntentRow row, long nonce)
      throws SQLException {
    bindPk(ps, at, row.record().scope(), row.record().intentId());
    bindReplaced(ps, at + 3, row, nonce);
  }

  /**
   * Checks everything {@link #bindInsert} would refuse, so that one caller's bad value never fails
   * a batch of others.
   *
   * @throws IllegalArgumentException naming the value
   */
  static void check(IntentRow row) {
    IntentRecord r = row.record();
    StoredText.check("tenant", r.scope().tenant(), MAX_TENANT);
    StoredText.check("operation", r.scope().operation(), MAX_OPERATION);
    StoredText.check("intent id", r.intentId(), IntentRecord.MAX_INTENT_ID_LENGTH);
    StoredText.check("fingerprint", r.fingerprint(), MAX_FINGERPRINT);
    StoredText.check("resource id", r.resourceId(), MAX_RESOURCE_ID);
    nanos("createdAt", r.createdAt());
    nanos("expiresAt", r.expiresAt());
    if (row.firstAttempt() != null) {
      nanos("first attempt", row.firstAttempt());
    }
  }

  /** Binds the 15 columns a replacement overwrites, from {@code at}. */
  static void bindReplaced(PreparedStatement ps, int at, IntentRow row, long nonce)
      throws SQLException {
    IntentRecord r = row.record();
    ps.setString(at, r.key().value());
    ps.setString(at + 1, StoredText.check("fingerprint", r.fingerprint(), MAX_FINGERPRINT));
    ps.setInt(at + 2, code(r.state()));
    ps.setLong(at + 3, nanos("createdAt", r.createdAt()));
    ps.setLong(at + 4, nanos("expiresAt", r.expiresAt()));
    ps.setInt(at + 5, r.status());
    ps.setString(at + 6, StoredText.check("resource id", r.resourceId(), MAX_RESOURCE_ID));
    ps.setLong(at + 7, nonce);
    StoredRequest q = row.request();
    ps.setString(at + 8, q == null ? null : q.method());
    ps.setString(at + 9, q == null ? null : q.target());
    ps.setString(at + 10, q == null ? null : encodeHeaders(q.headers()));
    ps.setString(at + 11, q == null ? null : q.contentType());
    ps.setBytes(at + 12, q == null ? null : q.body());
    if (q == null) {
      ps.setNull(at + 13, Types.SMALLINT);
      ps.setNull(at + 14, Types.BIGINT);
    } else {
      ps.setInt(at + 13, RelayCodes.QUEUED);
      ps.setLong(at + 14, nanos("first attempt", row.firstAttempt()));
    }
  }

  /** Reads the {@link IntentSql#RECORD} columns from column 1. */
  static IntentRecord read(ResultSet rs) throws SQLException {
    return new IntentRecord(
        new IntentScope(rs.getString(1), rs.getString(2)),
        rs.getString(3),
        IdempotencyKey.of(rs.getString(4)),
        rs.getString(5),
        state(rs.getInt(6)),
        instant(rs.getLong(7)),
        instant(rs.getLong(8)),
        rs.getInt(9),
        rs.getString(10));
  }

  /** Reads the five request columns from {@code at}, or null when none was stored. */
  static StoredRequest readRequest(ResultSet rs, int at) throws SQLException {
    String method = rs.getString(at);
    if (method == null) {
      return null;
    }
    return new StoredRequest(
        method,
        rs.getString(at + 1),
        decodeHeaders(rs.getString(at + 2)),
        rs.getString(at + 3),
        rs.getBytes(at + 4));
  }

  /** One {@code name: value} line per header; values hold no line breaks (checked). */
  static String encodeHeaders(Map<String, String> headers) {
    StringBuilder out = new StringBuilder();
    headers.forEach((name, value) -> out.append(name).append(": ").append(value).append('\n'));
    return out.toString();
  }

  static Map<String, String> decodeHeaders(String text) throws SQLException {
    Map<String, String> headers = new LinkedHashMap<>();
    if (text == null || text.isEmpty()) {
      return headers;
    }
    for (String line : text.split("\n")) {
      int colon = line.indexOf(": ");
      if (colon <= 0) {
        throw new SQLException("a stored request's headers are damaged");
      }
      headers.put(line.substring(0, colon), line.substring(colon + 2));
    }
    return headers;
  }
}
