package dev.saferetry.jdbc.internal.outbox;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.idempotency.StoredRequest;
import dev.saferetry.jdbc.internal.ColumnText;
import dev.saferetry.jdbc.internal.Dialect;
import dev.saferetry.jdbc.internal.Purge;
import dev.saferetry.jdbc.internal.SqlNames;
import dev.saferetry.jdbc.internal.keystore.IntentRows;
import dev.saferetry.jdbc.internal.keystore.IntentSql;
import dev.saferetry.jdbc.internal.keystore.RelayCodes;
import dev.saferetry.jdbc.internal.keystore.RowSeal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * An operator's reads and changes of outbox rows, and the audit of each change in {@code
 * {table}_audit}. Every change runs in the caller's transaction after {@link #lock} took the row:
 * two operators acting on one intent take turns there, and the second sees what the first did (its
 * change and its audit row) before it decides.
 *
 * <p>Every change is fenced: it names the intent, its key and the version (the lease token) the
 * operator read, and the state the action applies to; a row changed since then matches nothing.
 *
 * <p>Thread-safe: all state is in the database and the caller's connection.
 */
public final class AdminTable {
  /** The columns of an outbox row as listed, after {@link IntentSql#RECORD} and RELAY. */
  private static final String LISTED =
      ", ordering_key, holds_key, lease_owner, lease_expires_ns, next_attempt_ns, ordering_seq";

  private static final String PK = " WHERE tenant = ? AND operation = ? AND intent_id = ?";
  private static final String FENCE = PK + " AND idempotency_key = ? AND lease_token = ?";
  private static final String CLEAR_LEASE =
      ", lease_owner = NULL, lease_expires_ns = NULL, lease_token = lease_token + 1";

  private final RowSeal seal;
  private final String select;
  private final String lock;
  private final String requeue;
  private final String newKey;
  private final String abandon;
  private final String releaseKey;
  private final String auditFind;
  private final String auditUses;
  private final String auditExpired;
  private final String auditDelete;
  private final String auditInsert;

  /**
   * A row as an operator sees it.
   *
   * @param record the intent
   * @param request the stored request as the row holds it, or null when it cannot be read as one
   * @param proven whether the stored request is proven to be the one enqueued (its fingerprint and
   *     key match)
   * @param relayState 0 queued, 1 ended, 2 held
   * @param hold why it is held, or null when it is not held
   * @param note the last note, or null
   * @param attempts claims since it was enqueued or requeued
   * @param orderingKey its ordering key, or null
   * @param holdsKey whether it is held with its ordering key held
   * @param leaseOwner the lease's owner, or null
   * @param leaseExpiresAt the lease's end, or null
   * @param dueAt when it is next due, or null
   * @param version the lease token
   * @param orderingSeq its number in its ordering key's queue, or 0 without a key
   */
  public record Row(
      IntentRecord record,
      StoredRequest request,
      boolean proven,
      int relayState,
      RelayCodes.Hold hold,
      String note,
      int attempts,
      String orderingKey,
      boolean holdsKey,
      String leaseOwner,
      Instant leaseExpiresAt,
      Instant dueAt,
      long version,
      long orderingSeq) {

    /** Whether an operator abandoned it. */
    public boolean abandoned() {
      return relayState == RelayCodes.ABANDONED;
    }
  }

  /**
   * A row that cannot be read back as an outbox intent (a value changed in the table to one no
   * intent can have), named by its key.
   *
   * @param tenant its tenant, as stored
   * @param operation its operation, as stored
   * @param intentId its intent id, as stored
   * @param problem what cannot be read (names a column or a rule, never quotes a value)
   */
  public record Unreadable(String tenant, String operation, String intentId, String problem) {}

  /**
   * What a listing read: the rows, and the rows that could not be read back, in the order met.
   *
   * @param rows the rows read
   * @param unreadable the rows that cannot be read back
   */
  public record Listing(List<Row> rows, List<Unreadable> unreadable) {}

  /** A row that cannot be read back, while it is being read. */
  private static final class UnreadableRow extends Exception {
    private static final long serialVersionUID = 1L;

    final transient Unreadable row;

    UnreadableRow(Unreadable row) {
      super(row.problem(), null, false, false);
      this.row = row;
    }
  }

  /**
   * What to list.
   *
   * @param relayState 0, 1 or 2, or null for any
   * @param operation the operation, or null for any
   * @param orderingKey the ordering key, or null for any
   * @param createdAtOrBefore the latest creation time, or null for any
   * @param limit the most rows
   */
  public record Query(
      Integer relayState,
      String operation,
      String orderingKey,
      Instant createdAtOrBefore,
      int limit) {}

  /**
   * An action recorded in the audit.
   *
   * @param action the action's name
   * @param newKey the key it gave the intent, or null
   */
  public record Recorded(String action, String newKey) {}

  /** The outbox on the table {@code name} in {@code schema} (null: the connection's). */
  public AdminTable(Dialect dialect, String schema, String name, RowSeal seal) {
    this.seal = seal;
    String t = SqlNames.qualify(schema, name);
    select = "SELECT " + IntentSql.RECORD + ", " + IntentSql.RELAY + LISTED + " FROM " + t;
    lock = select + PK + " AND relay_state IS NOT NULL FOR UPDATE";
    String update = "UPDATE " + t + " SET ";
    String backInQueue =
        "state = 0, status = 0, resource_id = NULL, relay_state = 0, hold_reason = NULL,"
            + " holds_key = NULL, relay_note = ?, attempts = 0, next_attempt_ns = ?,"
            + " ordering_seq = ?";
    requeue = update + backInQueue + CLEAR_LEASE + FENCE + " AND relay_state IN (2, 3)";
    newKey =
        update
            + "idempotency_key = ?, request_fingerprint = ?, created_at_ns = ?,"
            + " expires_at_ns = ?, "
            + backInQueue
            + CLEAR_LEASE
            + FENCE
            + " AND relay_state IN (2, 3)";
    // The record keeps what is known of the outcome: a pending intent stays pending (unknown).
    abandon =
        update
            + "relay_state = 3, hold_reason = NULL, holds_key = NULL, relay_note = ?"
            + CLEAR_LEASE
            + FENCE
            + " AND relay_state IN (0, 2)";
    releaseKey =
        update
            + "holds_key = 0, relay_note = ?, lease_token = lease_token + 1"
            + FENCE
            + " AND relay_state = 2 AND holds_key = 1 AND ordering_key IS NOT NULL";
    String audit = t + "_audit";
    auditFind =
        "SELECT action, new_key FROM "
            + audit
            + " WHERE action_id = ? AND tenant = ? AND operation = ? AND intent_id = ?";
    // Oldest first along the primary key; an action on an intent still in the table is kept.
    auditExpired =
        "SELECT audit_id FROM "
            + audit
            + " a WHERE a.at_ns <= ? AND NOT EXISTS (SELECT 1 FROM "
            + t
            + " i WHERE i.tenant = a.tenant AND i.operation = a.operation"
            + " AND i.intent_id = a.intent_id) ORDER BY a.audit_id LIMIT ? FOR UPDATE SKIP LOCKED";
    auditDelete =
        "DELETE FROM "
            + audit
            + " WHERE audit_id = CAST(? AS "
            + (dialect == Dialect.MARIADB ? "SIGNED" : "BIGINT")
            + ") AND at_ns <= ?";
    auditUses =
        "SELECT action, actor, reason, tenant, operation, intent_id FROM "
            + audit
            + " WHERE action_id = ?";
    auditInsert =
        "INSERT INTO "
            + audit
            + " (action_id, at_ns, actor, action, tenant, operation, intent_id, reason,"
            + " state_before, state_after, new_key, old_key)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
  }

  /**
   * Lists outbox rows, oldest first (in queue order when one ordering key is asked for), leaving
   * out the rows that cannot be read back (see {@link #listing}).
   */
  public List<Row> list(Connection c, Query q) throws SQLException {
    return listing(c, q).rows();
  }

  /**
   * Lists outbox rows as {@link #list} does, and names each row that cannot be read back instead of
   * failing the listing: one damaged row does not hide the others. Such rows count toward the
   * limit.
   */
  public Listing listing(Connection c, Query q) throws SQLException {
    StringBuilder sql = new StringBuilder(select).append(" WHERE relay_state IS NOT NULL");
    List<Object> args = new ArrayList<>();
    if (q.relayState() != null && q.relayState() == RelayCodes.DONE) {
      sql.append(" AND relay_state IN (1, 3)"); // ended: done, or abandoned
    } else if (q.relayState() != null) {
      sql.append(" AND relay_state = ?");
      args.add(q.relayState());
    }
    if (q.operation() != null) {
      sql.append(" AND operation = ?");
      args.add(q.operation());
    }
    if (q.orderingKey() != null) {
      sql.append(" AND ordering_key = ?");
      args.add(q.orderingKey());
    }
    if (q.createdAtOrBefore() != null) {
      sql.append(" AND created_at_ns <= ?");
      args.add(IntentRows.nanos("createdAtOrBefore", q.createdAtOrBefore()));
    }
    sql.append(
        q.orderingKey() != null
            ? " ORDER BY tenant, ordering_seq, created_at_ns, operation, intent_id"
            : " ORDER BY created_at_ns, tenant, operation, intent_id");
    sql.append(" LIMIT ?");
    args.add(q.limit());
    List<Row> out = new ArrayList<>();
    List<Unreadable> unreadable = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
      for (int i = 0; i < args.size(); i++) {
        Object a = args.get(i);
        if (a instanceof String s) {
          ps.setString(i + 1, s);
        } else if (a instanceof Long l) {
          ps.setLong(i + 1, l);
        } else {
          ps.setInt(i + 1, (Integer) a);
        }
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          try {
            out.add(row(rs));
          } catch (UnreadableRow e) {
            unreadable.add(e.row);
          }
        }
      }
    }
    return new Listing(List.copyOf(out), List.copyOf(unreadable));
  }

  /** One outbox row, or empty. */
  public Optional<Row> find(Connection c, IntentScope scope, String intentId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(select + PK + " AND relay_state IS NOT NULL")) {
      IntentRows.bindPk(ps, 1, scope, intentId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(readable(rs)) : Optional.empty();
      }
    }
  }

  /**
   * Reads a row that must be readable: one that is not is refused with a {@link KeyStoreException}
   * naming it and what cannot be read.
   */
  private Row readable(ResultSet rs) throws SQLException {
    try {
      return row(rs);
    } catch (UnreadableRow e) {
      throw new KeyStoreException(describe(e.row));
    }
  }

  /** A message naming an unreadable row and its problem: printable, never a value. */
  public static String describe(Unreadable u) {
    return "outbox intent "
        + ColumnText.printable(u.operation())
        + "/"
        + ColumnText.printable(u.intentId())
        + " of tenant "
        + ColumnText.printable(u.tenant())
        + " cannot be read back: "
        + u.problem()
        + "; it is held as it is (find out who changed it; a relay never sends it)";
  }

  /**
   * Locks one outbox row for the rest of the caller's transaction (waiting for another operator's
   * or relay's transaction on it to end) and reads it as it then is; empty when it is gone.
   */
  public Optional<Row> lock(Connection c, IntentScope scope, String intentId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(lock)) {
      IntentRows.bindPk(ps, 1, scope, intentId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(readable(rs)) : Optional.empty();
      }
    }
  }

  /**
   * A use of an action id, as the audit records it.
   *
   * @param action the action's name
   * @param actor who acted
   * @param reason why
   * @param tenant the intent's tenant
   * @param operation the intent's operation
   * @param intentId the intent's id
   */
  public record Use(
      String action,
      String actor,
      String reason,
      String tenant,
      String operation,
      String intentId) {}

  /** Every use of {@code actionId} in the audit, on any intent. */
  public List<Use> uses(Connection c, String actionId) throws SQLException {
    List<Use> out = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(auditUses)) {
      ps.setString(1, actionId);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(
              new Use(
                  rs.getString(1),
                  rs.getString(2),
                  rs.getString(3),
                  rs.getString(4),
                  rs.getString(5),
                  rs.getString(6)));
        }
      }
    }
    return out;
  }

  /**
   * Deletes up to {@code limit} audit rows recorded at or before {@code bound} (by the database's
   * clock) whose intent is no longer in the table, oldest first, skipping rows another purge holds;
   * run in a transaction (see {@link Purge}).
   *
   * @return how many rows were picked, all of which were deleted
   */
  public int purgeAuditBatch(Connection c, Instant bound, int limit) throws SQLException {
    return Purge.batch(c, auditExpired, auditDelete, IntentRows.nanos("bound", bound), limit);
  }

  /**
   * Checks that the table can hold {@code t}.
   *
   * @throws IllegalArgumentException if it lies outside the years 1677 to 2262
   */
  public static void checkTime(Instant t) {
    IntentRows.nanos("time", t);
  }

  /** The action recorded under {@code actionId} for this intent, or empty. */
  public Optional<Recorded> recorded(
      Connection c, String actionId, IntentScope scope, String intentId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(auditFind)) {
      ps.setString(1, actionId);
      IntentRows.bindPk(ps, 2, scope, intentId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next()
            ? Optional.of(new Recorded(rs.getString(1), rs.getString(2)))
            : Optional.empty();
      }
    }
  }

  /**
   * Puts a held or abandoned intent back in the queue with its key, due at {@code now}, with the
   * ordering number {@code seq} (its own, or a new one at the end of its key's queue; ignored
   * without an ordering key).
   */
  public boolean requeue(Connection c, Row seen, Instant now, long seq, String note)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(requeue)) {
      ps.setString(1, note);
      ps.setLong(2, IntentRows.nanos("now", now));
      bindSeq(ps, 3, seen, seq);
      bindFence(ps, 4, seen);
      return ps.executeUpdate() == 1;
    }
  }

  private static void bindSeq(PreparedStatement ps, int at, Row seen, long seq)
      throws SQLException {
    if (seen.orderingKey() == null) {
      ps.setNull(at, Types.BIGINT);
    } else {
      ps.setLong(at, seq);
    }
  }

  /**
   * Puts a held intent back in the queue under {@code renewed} (the intent with its new key and
   * times), its stored request sealed anew for it, due at {@code now}.
   */
  public boolean requeueWithNewKey(
      Connection c, Row seen, IntentRecord renewed, Instant now, long seq, String note)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(newKey)) {
      ps.setString(1, renewed.key().value());
      ps.setString(2, seal.seal(renewed, seen.request()));
      ps.setLong(3, IntentRows.nanos("createdAt", renewed.createdAt()));
      ps.setLong(4, IntentRows.nanos("expiresAt", renewed.expiresAt()));
      ps.setString(5, note);
      ps.setLong(6, IntentRows.nanos("now", now));
      bindSeq(ps, 7, seen, seq);
      bindFence(ps, 8, seen);
      return ps.executeUpdate() == 1;
    }
  }

  /**
   * Abandons a queued or held intent: never sent again under its intent id until an operator
   * releases it; its record keeps what is known (a pending one stays pending: unknown).
   */
  public boolean abandon(Connection c, Row seen, String note) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(abandon)) {
      ps.setString(1, note);
      bindFence(ps, 2, seen);
      return ps.executeUpdate() == 1;
    }
  }

  /** Lets the later intents of a held intent's ordering key continue. */
  public boolean releaseKey(Connection c, Row seen, String note) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(releaseKey)) {
      ps.setString(1, note);
      bindFence(ps, 2, seen);
      return ps.executeUpdate() == 1;
    }
  }

  /**
   * Records an action in the audit, at {@code now} (the database's clock).
   *
   * @return false when the action id is already recorded for this intent
   */
  public boolean audit(
      Connection c,
      Dialect dialect,
      String actionId,
      Instant now,
      String actor,
      String action,
      Row before,
      String reason,
      String stateAfter,
      String newKey)
      throws SQLException {
    IntentRecord r = before.record();
    try (PreparedStatement ps = c.prepareStatement(auditInsert)) {
      ps.setString(1, actionId);
      ps.setLong(2, IntentRows.nanos("now", now));
      ps.setString(3, actor);
      ps.setString(4, action);
      IntentRows.bindPk(ps, 5, r.scope(), r.intentId());
      ps.setString(8, reason);
      ps.setString(9, state(before));
      ps.setString(10, stateAfter);
      ps.setString(11, newKey);
      if (newKey == null) {
        ps.setNull(12, Types.VARCHAR);
      } else {
        ps.setString(12, r.key().value());
      }
      ps.executeUpdate();
      return true;
    } catch (SQLException e) {
      if (dialect.isDuplicateKey(e)) {
        return false;
      }
      throw e;
    }
  }

  /**
   * A row's state for the audit and people: {@code QUEUED}, {@code HELD REJECTED}, {@code HELD
   * UNSETTLED KEY RELEASED} (held, its ordering key let continue), {@code ENDED SUCCEEDED}, ...
   */
  public static String state(Row row) {
    String s =
        switch (row.relayState()) {
          case RelayCodes.QUEUED -> "QUEUED";
          case RelayCodes.HELD ->
              "HELD "
                  + (row.hold() == null ? "?" : row.hold().name())
                  + (row.orderingKey() == null || row.holdsKey() ? "" : " KEY RELEASED");
          case RelayCodes.ABANDONED -> "ABANDONED " + row.record().state();
          default -> "ENDED " + row.record().state();
        };
    return s.length() > 64 ? s.substring(0, 64) : s;
  }

  private static void bindFence(PreparedStatement ps, int at, Row seen) throws SQLException {
    IntentRows.bindPk(ps, at, seen.record().scope(), seen.record().intentId());
    ps.setString(at + 3, seen.record().key().value());
    ps.setLong(at + 4, seen.version());
  }

  private Row row(ResultSet rs) throws SQLException, UnreadableRow {
    IntentRecord record;
    try {
      record = IntentRows.read(rs);
    } catch (IllegalArgumentException | NullPointerException | SQLException e) {
      throw unreadable(rs, "its intent record is not valid (" + e.getMessage() + ")");
    }
    IntentRows.Readback stored = IntentRows.readRequest(rs, null, seal);
    // read once, then proven against the record: a row an operator lists keeps its request even
    // when the seal does not verify, and says whether it does
    boolean proven =
        stored != null
            && stored.request() != null
            && IntentRows.proofProblem(rs, record, stored.request(), seal) == null;
    int relayState = rs.getInt(16);
    int hold = rs.getInt(17);
    boolean noHold = rs.wasNull();
    RelayCodes.Hold reason = null;
    if (relayState == RelayCodes.HELD && !noHold) {
      try {
        reason = RelayCodes.reason(hold);
      } catch (SQLException e) {
        throw unreadable(rs, "its hold reason is not one this code knows");
      }
    }
    if (relayState < RelayCodes.QUEUED || relayState > RelayCodes.ABANDONED) {
      throw unreadable(rs, "its relay state is not one this code knows");
    }
    String orderingKey = rs.getString(23);
    int holdsKey = rs.getInt(24);
    boolean held = relayState == RelayCodes.HELD;
    long leaseEnd = rs.getLong(26);
    Instant leaseExpiresAt = rs.wasNull() ? null : IntentRows.instant(leaseEnd);
    long due = rs.getLong(27);
    Instant dueAt = rs.wasNull() ? null : IntentRows.instant(due);
    return new Row(
        record,
        stored == null ? null : stored.request(),
        proven,
        relayState,
        reason,
        rs.getString(18),
        rs.getInt(19),
        orderingKey,
        held && orderingKey != null && holdsKey == 1,
        rs.getString(25),
        leaseExpiresAt,
        dueAt,
        rs.getLong(20),
        rs.getLong(28));
  }

  private static UnreadableRow unreadable(ResultSet rs, String problem) throws SQLException {
    return new UnreadableRow(
        new Unreadable(rs.getString(1), rs.getString(2), rs.getString(3), problem));
  }
}
