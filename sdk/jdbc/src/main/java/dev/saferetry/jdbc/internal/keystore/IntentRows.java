package dev.saferetry.jdbc.internal.keystore;

import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.StoredRequest;
import dev.saferetry.jdbc.internal.ColumnText;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads and binds the key store's rows. Every value is checked to round-trip exactly before it is
 * written: text a database would change (an unpaired surrogate, a NUL character, more characters
 * than its column holds) and instants a BIGINT of nanoseconds cannot hold are refused, never stored
 * altered.
 *
 * <p>Stateless and thread-safe.
 */
public final class IntentRows {
  public static final int MAX_TENANT = 128;
  public static final int MAX_OPERATION = 255;
  static final int MAX_FINGERPRINT = 512;
  public static final int MAX_RESOURCE_ID = 1 << 20;
  private static final long NANOS = 1_000_000_000L;

  private IntentRows() {}

  /** Nanoseconds since the epoch; refuses instants outside the years 1677 to 2262. */
  public static long nanos(String what, Instant t) {
    try {
      return Math.addExact(Math.multiplyExact(t.getEpochSecond(), NANOS), t.getNano());
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          what + " " + t + " is outside what the JDBC key store holds (years 1677 to 2262)");
    }
  }

  public static Instant instant(long nanos) {
    return Instant.ofEpochSecond(Math.floorDiv(nanos, NANOS), Math.floorMod(nanos, NANOS));
  }

  public static int code(IntentState state) {
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

  public static void bindPk(PreparedStatement ps, int at, IntentScope scope, String intentId)
      throws SQLException {
    ps.setString(at, ColumnText.check("tenant", scope.tenant(), MAX_TENANT));
    ps.setString(at + 1, ColumnText.check("operation", scope.operation(), MAX_OPERATION));
    ps.setString(
        at + 2, ColumnText.check("intent id", intentId, IntentRecord.MAX_INTENT_ID_LENGTH));
  }

  /** How a column a begin writes is bound: the JDBC setter, and the SQL array type for batches. */
  enum Kind {
    TEXT("varchar"),
    INTEGER("int4"),
    BIGINT("int8"),
    BYTES("bytea");

    /** The element type's name for {@link java.sql.Connection#createArrayOf}. */
    final String arrayType;

    Kind(String arrayType) {
      this.arrayType = arrayType;
    }
  }

  /**
   * The kinds of the 20 values a begin writes, in {@link IntentSql}'s order: the primary key, then
   * the 17 columns a replacement overwrites (SMALLINT columns are bound as integers).
   */
  static final List<Kind> INSERTED =
      List.of(
          Kind.TEXT, // tenant
          Kind.TEXT, // operation
          Kind.TEXT, // intent_id
          Kind.TEXT, // idempotency_key
          Kind.TEXT, // fingerprint
          Kind.INTEGER, // state
          Kind.BIGINT, // created_at_ns
          Kind.BIGINT, // expires_at_ns
          Kind.INTEGER, // status
          Kind.TEXT, // resource_id
          Kind.BIGINT, // begin_nonce
          Kind.TEXT, // request_method
          Kind.TEXT, // request_target
          Kind.TEXT, // request_headers
          Kind.TEXT, // request_type
          Kind.BYTES, // request_body
          Kind.TEXT, // request_key_placement
          Kind.TEXT, // request_fingerprint
          Kind.INTEGER, // relay_state
          Kind.BIGINT); // next_attempt_ns

  /**
   * The 20 values a begin writes, checked, in the order and of the kinds of {@link #INSERTED}: a
   * {@code String}, {@code Integer}, {@code Long} or {@code byte[]}, or null.
   *
   * @throws IllegalArgumentException if a value cannot be stored exactly
   */
  static Object[] insertValues(IntentRow row, long nonce) {
    IntentRecord r = row.record();
    StoredRequest q = row.request();
    return new Object[] {
      ColumnText.check("tenant", r.scope().tenant(), MAX_TENANT),
      ColumnText.check("operation", r.scope().operation(), MAX_OPERATION),
      ColumnText.check("intent id", r.intentId(), IntentRecord.MAX_INTENT_ID_LENGTH),
      r.key().value(),
      ColumnText.check("fingerprint", r.fingerprint(), MAX_FINGERPRINT),
      code(r.state()),
      nanos("createdAt", r.createdAt()),
      nanos("expiresAt", r.expiresAt()),
      r.status(),
      ColumnText.check("resource id", r.resourceId(), MAX_RESOURCE_ID),
      nonce,
      q == null ? null : q.method(),
      q == null ? null : q.target(),
      q == null ? null : encodeHeaders(q.headers()),
      q == null ? null : q.contentType(),
      q == null ? null : q.body(),
      q == null ? null : StoredPlacement.encode(q.keyPlacement()),
      q == null ? null : row.seal().seal(r, q),
      q == null ? null : RelayCodes.QUEUED,
      q == null ? null : nanos("first attempt", row.firstAttempt())
    };
  }

  /** Binds the primary key and the replaced columns of {@link IntentSql}: 20 parameters. */
  static void bindInsert(PreparedStatement ps, int at, IntentRow row, long nonce)
      throws SQLException {
    bind(ps, at, insertValues(row, nonce), 0);
  }

  /**
   * Checks everything {@link #bindInsert} would refuse, so that one caller's bad value never fails
   * a batch of others.
   *
   * @throws IllegalArgumentException naming the value
   */
  static void check(IntentRow row) {
    IntentRecord r = row.record();
    ColumnText.check("tenant", r.scope().tenant(), MAX_TENANT);
    ColumnText.check("operation", r.scope().operation(), MAX_OPERATION);
    ColumnText.check("intent id", r.intentId(), IntentRecord.MAX_INTENT_ID_LENGTH);
    ColumnText.check("fingerprint", r.fingerprint(), MAX_FINGERPRINT);
    ColumnText.check("resource id", r.resourceId(), MAX_RESOURCE_ID);
    nanos("createdAt", r.createdAt());
    nanos("expiresAt", r.expiresAt());
    if (row.firstAttempt() != null) {
      nanos("first attempt", row.firstAttempt());
    }
  }

  /** Binds the 17 columns a replacement overwrites, from {@code at}. */
  static void bindReplaced(PreparedStatement ps, int at, IntentRow row, long nonce)
      throws SQLException {
    bind(ps, at, insertValues(row, nonce), 3);
  }

  /** Binds {@code values} from index {@code from} on, by their {@link #INSERTED} kinds. */
  private static void bind(PreparedStatement ps, int at, Object[] values, int from)
      throws SQLException {
    for (int i = from; i < values.length; i++) {
      int p = at + i - from;
      Object v = values[i];
      switch (INSERTED.get(i)) {
        case TEXT -> ps.setString(p, (String) v);
        case BYTES -> ps.setBytes(p, (byte[]) v);
        case INTEGER -> {
          if (v == null) {
            ps.setNull(p, Types.SMALLINT); // relay_state, the only nullable integer
          } else {
            ps.setInt(p, (Integer) v);
          }
        }
        case BIGINT -> {
          if (v == null) {
            ps.setNull(p, Types.BIGINT);
          } else {
            ps.setLong(p, (Long) v);
          }
        }
      }
    }
  }

  /** Reads the {@link IntentSql#RECORD} columns from column 1. */
  public static IntentRecord read(ResultSet rs) throws SQLException {
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

  /**
   * A relay row's stored request as read back: the request, or — when the row cannot be sent as
   * stored — why not (a message naming the part, never quoting a value).
   *
   * @param request the request, or null
   * @param problem why there is none, or null
   */
  public record Readback(StoredRequest request, String problem) {}

  /**
   * Reads the stored request of a row selected with {@link IntentSql#RELAY} after {@link
   * IntentSql#RECORD}, or null when it has none (an intent its caller sends itself). With {@code
   * record}, also proves it is the request enqueued for that record: its keyed seal ({@link
   * RowSeal}) verifies with one of {@code seal}'s keys, and a key in the body is the record's.
   */
  public static Readback readRequest(ResultSet rs, IntentRecord record, RowSeal seal)
      throws SQLException {
    String method = rs.getString(11);
    if (method == null) {
      return record == null ? null : new Readback(null, "its stored request has no method");
    }
    StoredRequest request;
    try {
      Map<String, String> headers = decodeHeaders(rs.getString(13));
      if (headers == null) {
        return new Readback(null, "its stored headers cannot be read");
      }
      request =
          new StoredRequest(
              method,
              rs.getString(12),
              StoredPlacement.decode(rs.getString(21)),
              headers,
              rs.getString(14),
              rs.getBytes(15));
    } catch (IllegalArgumentException | NullPointerException e) {
      return new Readback(null, "its stored request is not valid: " + e.getMessage());
    }
    if (record != null) {
      String problem = proofProblem(rs, record, request, seal);
      if (problem != null) {
        return new Readback(null, problem);
      }
    }
    return new Readback(request, null);
  }

  /**
   * Why {@code request}, read from the current row, is not the request enqueued for {@code record}
   * (its keyed seal does not verify with one of {@code seal}'s keys, or a key in the body is not
   * the record's), or null when it is.
   */
  public static String proofProblem(
      ResultSet rs, IntentRecord record, StoredRequest request, RowSeal seal) throws SQLException {
    String problem = seal.problem(record, request, rs.getString(22));
    if (problem != null) {
      return problem;
    }
    try {
      request.checkKey(record.key());
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
    return null;
  }

  /** One {@code name: value} line per header; values hold no line breaks (checked). */
  static String encodeHeaders(Map<String, String> headers) {
    StringBuilder out = new StringBuilder();
    headers.forEach((name, value) -> out.append(name).append(": ").append(value).append('\n'));
    return out.toString();
  }

  /** The headers {@link #encodeHeaders} wrote, or null if the text is not such a list. */
  static Map<String, String> decodeHeaders(String text) {
    Map<String, String> headers = new LinkedHashMap<>();
    if (text == null || text.isEmpty()) {
      return headers;
    }
    if (!text.endsWith("\n")) {
      return null;
    }
    for (String line : text.split("\n")) {
      int colon = line.indexOf(": ");
      if (colon <= 0 || headers.put(line.substring(0, colon), line.substring(colon + 2)) != null) {
        return null;
      }
    }
    return headers;
  }
}
