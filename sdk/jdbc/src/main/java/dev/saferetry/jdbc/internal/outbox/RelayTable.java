package dev.saferetry.jdbc.internal.outbox;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.jdbc.internal.ColumnText;
import dev.saferetry.jdbc.internal.Dialect;
import dev.saferetry.jdbc.internal.SqlNames;
import dev.saferetry.jdbc.internal.keystore.IntentRows;
import dev.saferetry.jdbc.internal.keystore.IntentSql;
import dev.saferetry.jdbc.internal.keystore.RelayCodes;
import dev.saferetry.jdbc.internal.keystore.RowSeal;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The outbox's operations on the key store's table: claims under a lease, and fenced changes.
 *
 * <p>Every change made on behalf of a lease names the intent, its key and the lease's token, and
 * increments the token; a change with a stale token matches no row and is refused. A claim locks
 * the due rows it takes with {@code FOR UPDATE SKIP LOCKED} (rows another claimer holds are passed
 * over, not waited for; H2 locks every row the query reads, so there two claims take turns) and
 * still checks the token it read in each update.
 *
 * <p>Thread-safe: all state is in the database and the caller's connection.
 */
public final class RelayTable {
  private static final int MAX_NOTE = 1000;
  private static final String FENCE =
      " WHERE tenant = ? AND operation = ? AND intent_id = ? AND idempotency_key = ?"
          + " AND lease_token = ? AND relay_state = 0";
  private static final String RELEASE =
      ", lease_owner = NULL, lease_expires_ns = NULL, lease_token = lease_token + 1";

  /**
   * What every hold sets: a held (parked) intent holds its ordering key (later intents of the key
   * wait behind it) until an operator resolves it or lets the key continue. Meaningless, and
   * harmless, for an intent without an ordering key.
   */
  private static final String HOLD = "relay_state = 2, holds_key = 1, ";

  /**
   * The head-only predicate of a claim, one self-contained SQL fragment to append to the claim's
   * WHERE clause with {@code AND}, {@code {table}} replaced by the qualified table name (see {@link
   * #headOnly}). Its outer references are the claimed table's bare column names {@code tenant},
   * {@code ordering_key} and {@code ordering_seq} (no alias), so it fits any claim that reads the
   * table under its own name or an alias, as long as those names resolve to the claimed row; its
   * subquery is not correlated.
   *
   * <p>A row without an ordering key passes. A row with one passes only when it is the head of its
   * tenant's key: it has the lowest ordering_seq among the intents of that tenant and key that are
   * still queued ({@code relay_state = 0}: due or not, leased or not, expired or not) or held with
   * their key held ({@code relay_state = 2 AND holds_key = 1}). A queued row is itself among them,
   * so it is the head exactly when nothing before it is unfinished. Intents that ended ({@code
   * relay_state = 1}), were deleted, or are held with {@code holds_key = 0} do not block.
   *
   * <p>Under concurrency it only errs on the safe side: the subquery reads without locking (a row
   * another claim has locked still counts, on PostgreSQL, MariaDB and H2), and a stale snapshot can
   * only show an earlier intent as still unfinished, never hide one (numbers are taken in commit
   * order, so no unfinished intent with a lower number can appear after a later one committed,
   * except by an operator's requeue of an intent whose key was let continue).
   */
  public static final String HEAD_ONLY =
      "(ordering_key IS NULL OR (tenant, ordering_key, ordering_seq) IN"
          + " (SELECT tenant, ordering_key, MIN(ordering_seq) FROM {table}"
          + " WHERE ordering_key IS NOT NULL"
          + " AND (relay_state = 0 OR (relay_state = 2 AND holds_key = 1))"
          + " GROUP BY tenant, ordering_key))";

  /** {@return {@link #HEAD_ONLY} for the table {@code qualifiedTable}} */
  public static String headOnly(String qualifiedTable) {
    return HEAD_ONLY.replace("{table}", qualifiedTable);
  }

  /**
   * The parts of a claim's condition on the table's rows, all joined with {@code AND} (and with
   * {@link #HEAD_ONLY}): queued and due by now, not past its key's retention, not older than the
   * relay's maximum age (the claim never hands one out, whether or not an overdue scan held it
   * yet), and no live lease on it. Parameters, in this order: now, now, the oldest creation time,
   * now.
   */
  private static final List<String> DUE_PARTS =
      List.of(
          "relay_state = 0 AND next_attempt_ns <= ?",
          "expires_at_ns > ?",
          "created_at_ns > ?",
          "(lease_expires_ns IS NULL OR lease_expires_ns <= ?)");

  private static final String PK_MATCH =
      "t.tenant = v.tenant AND t.operation = v.operation AND t.intent_id = v.intent_id";

  /** What a batch of completions binds, one array each, in {@link #completeAllPostgres} order. */
  private static final List<String> COMPLETED =
      List.of(
          "varchar", "varchar", "varchar", "varchar", "int8", "int4", "int4", "varchar", "int4",
          "int4", "varchar");

  private final Dialect dialect;
  private final String table;
  private final RowSeal seal;
  private final String claimUpdate;
  private final String completeAllPostgres;
  private final String complete;
  private final String retryAt;
  private final String giveBack;
  private final String hold;
  private final String renew;
  private final String holdOverdue;
  private final String holdDamaged;

  /**
   * What a claim did.
   *
   * @param claimed the intents claimed for sending, each with its proven stored request
   * @param held the intents held as {@link RelayCodes.Hold#TAMPERED} instead, with why
   */
  public record Claim(List<LeasedIntent> claimed, List<Tampered> held) {}

  /**
   * An intent a claim held because its row no longer holds the request enqueued for it.
   *
   * @param intentId its id
   * @param problem why (names a part of the row, never quotes a value)
   */
  public record Tampered(String intentId, String problem) {}

  /** A due row as read: its record and request, or why it cannot be sent as stored. */
  private record Due(
      String tenant,
      String operation,
      String intentId,
      IntentRecord record,
      IntentRows.Readback request,
      long token,
      int attempts) {}

  /**
   * The outbox on the table {@code name} in {@code schema} (null: the connection's), in {@code
   * dialect}.
   */
  public RelayTable(Dialect dialect, String schema, String name, RowSeal seal) {
    this.dialect = dialect;
    this.seal = seal;
    String t = SqlNames.qualify(schema, name);
    this.table = t;
    // Many completions in one statement, each fenced by its own token: the rows it returns are the
    // ones recorded. The commit does not wait for its WAL flush (a lost completion only makes the
    // intent due again once its lease ends, and it is re-sent with the same key), and the join is
    // made by the primary key whatever plan the server cached (see PostgresBatch).
    completeAllPostgres =
        "SELECT set_config('synchronous_commit', 'off', true),"
            + " set_config('enable_seqscan', 'off', true),"
            + " set_config('enable_hashjoin', 'off', true),"
            + " set_config('enable_mergejoin', 'off', true); UPDATE "
            + t
            + " AS t SET state = v.state, status = v.status, resource_id = v.resource_id,"
            + " relay_state = v.relay_state, hold_reason = v.hold_reason, relay_note = v.note,"
            // a rejected intent holds its ordering key, as every hold does
            + " holds_key = CASE WHEN v.relay_state = 2 THEN 1 END,"
            + " lease_owner = NULL, lease_expires_ns = NULL, lease_token = t.lease_token + 1"
            + " FROM unnest("
            + IntentSql.arrayParameters(COMPLETED)
            + ") AS v (tenant, operation, intent_id, idempotency_key, token, state, status,"
            + " resource_id, relay_state, hold_reason, note) WHERE "
            + PK_MATCH
            + " AND t.idempotency_key = v.idempotency_key AND t.lease_token = v.token"
            // "+ 0": the queued rows' index must not drive the join (scanning every queued row
            // once per completion); each row is found by its primary key
            + " AND t.relay_state + 0 = 0 RETURNING t.tenant, t.operation, t.intent_id";
    String update = "UPDATE " + t + " SET ";
    claimUpdate =
        update
            + "lease_owner = ?, lease_expires_ns = ?, lease_token = lease_token + 1,"
            + " attempts = attempts + 1"
            + FENCE;
    complete =
        update
            + "state = ?, status = ?, resource_id = ?, relay_state = ?, hold_reason = ?,"
            + " holds_key = ?, relay_note = ?"
            + RELEASE
            + FENCE;
    retryAt = update + "next_attempt_ns = ?, relay_note = ?" + RELEASE + FENCE;
    // a claim that sent nothing does not count toward the claims that park an intent
    giveBack = update + "attempts = attempts - 1, relay_note = ?" + RELEASE + FENCE;
    hold = update + HOLD + "hold_reason = ?, relay_note = ?" + RELEASE + FENCE;
    renew = update + "lease_expires_ns = ?" + FENCE;
    holdDamaged =
        update
            + HOLD
            + "hold_reason = ?, relay_note = ?"
            + RELEASE
            + " WHERE tenant = ? AND operation = ? AND intent_id = ? AND lease_token = ?"
            + " AND relay_state = 0";
    holdOverdue =
        update
            + HOLD
            + "hold_reason = 1, relay_note = ?"
            + RELEASE
            + " WHERE relay_state = 0 AND state = 0"
            + " AND (lease_expires_ns IS NULL OR lease_expires_ns <= ?)"
            + " AND (expires_at_ns <= ? OR created_at_ns <= ?)";
  }

  /**
   * Which rows a claim may take: all of DUE_PARTS, only the head of each ordering key, and only
   * rows of the {@code tenants} tenants (a relay claims only what it has a client for; 0: any).
   */
  private String due(int tenants) {
    String due = String.join(" AND ", DUE_PARTS) + " AND " + headOnly(table);
    if (tenants > 0) {
      due += " AND tenant IN (" + String.join(", ", Collections.nCopies(tenants, "?")) + ")";
    }
    return due;
  }

  private String claimSelect(int tenants) {
    return "SELECT "
        + IntentSql.RECORD
        + ", "
        + IntentSql.RELAY
        + " FROM "
        + table
        + " WHERE "
        + due(tenants)
        + " ORDER BY next_attempt_ns LIMIT ? FOR UPDATE SKIP LOCKED";
  }

  /**
   * One statement: the due rows' keys are locked (passing over rows other claimers hold), each is
   * leased, and the leased rows come back with their new token for the seal to be checked.
   */
  private String claimPostgres(int tenants) {
    return "UPDATE "
        + table
        + " AS t SET lease_owner = ?, lease_expires_ns = ?, lease_token = t.lease_token + 1,"
        + " attempts = t.attempts + 1 FROM (SELECT tenant, operation, intent_id FROM "
        + table
        + " WHERE "
        + due(tenants)
        + " ORDER BY next_attempt_ns LIMIT ? FOR UPDATE SKIP LOCKED) AS v WHERE "
        + PK_MATCH
        + " RETURNING "
        + qualified("t.", IntentSql.RECORD + ", " + IntentSql.RELAY)
        + ", t.next_attempt_ns";
  }

  /**
   * Claims up to {@code limit} due intents for {@code owner}, oldest due first; run in a
   * transaction. A due row whose stored request cannot be read back, or no longer matches the seal
   * stored with it ({@link RowSeal}: a row whose seal does not verify with one of this table's
   * keys), is held as {@link RelayCodes.Hold#TAMPERED} in the same transaction and never handed
   * out: what a sender gets is exactly the request that was enqueued. PostgreSQL locks, leases and
   * returns the rows in one statement; H2 and MariaDB select the due rows, then lease each one.
   *
   * @param oldest intents created at or before it are not claimed (the table's maximum age), or
   *     null for no such bound
   * @param tenants the only tenants whose intents to claim (the relay's clients'), or empty for any
   *     tenant
   */
  public Claim claim(
      Connection c,
      String owner,
      Instant now,
      Instant leaseEnd,
      Instant oldest,
      List<String> tenants,
      int limit)
      throws SQLException {
    long at = IntentRows.nanos("now", now);
    long end = IntentRows.nanos("lease end", leaseEnd);
    long born = oldest == null ? Long.MIN_VALUE : IntentRows.nanos("oldest", oldest);
    ColumnText.check("owner", owner, 128);
    return dialect == Dialect.POSTGRESQL
        ? claimPostgres(c, owner, at, end, born, tenants, limit, leaseEnd)
        : claimInTwoSteps(c, owner, at, end, born, tenants, limit, leaseEnd);
  }

  private static int bindDue(
      PreparedStatement ps, int from, long at, long born, List<String> tenants)
      throws SQLException {
    ps.setLong(from, at);
    ps.setLong(from + 1, at);
    ps.setLong(from + 2, born);
    ps.setLong(from + 3, at);
    int next = from + 4;
    for (String tenant : tenants) {
      ps.setString(next++, tenant);
    }
    return next;
  }

  private Claim claimPostgres(
      Connection c,
      String owner,
      long at,
      long end,
      long born,
      List<String> tenants,
      int limit,
      Instant leaseEnd)
      throws SQLException {
    List<Due> leased = new ArrayList<>();
    List<Long> due = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(claimPostgres(tenants.size()))) {
      ps.setString(1, owner);
      ps.setLong(2, end);
      ps.setInt(bindDue(ps, 3, at, born, tenants), limit);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          leased.add(due(rs));
          due.add(rs.getLong(23));
        }
      }
    }
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < leased.size(); i++) {
      order.add(i);
    }
    order.sort(Comparator.comparing(due::get)); // a statement returns its rows in no set order
    List<LeasedIntent> claimed = new ArrayList<>();
    List<Tampered> held = new ArrayList<>();
    for (int i : order) {
      Due d = leased.get(i);
      if (d.request().request() == null) {
        if (holdDamaged(c, d)) { // fenced by the token this claim gave it
          held.add(new Tampered(d.intentId(), d.request().problem()));
        }
        continue;
      }
      IntentRecord r = d.record();
      Lease lease = new Lease(r.scope(), r.intentId(), r.key(), owner, d.token(), leaseEnd);
      claimed.add(new LeasedIntent(r, d.request().request(), lease, d.attempts()));
    }
    return new Claim(claimed, held);
  }

  private Claim claimInTwoSteps(
      Connection c,
      String owner,
      long at,
      long end,
      long born,
      List<String> tenants,
      int limit,
      Instant leaseEnd)
      throws SQLException {
    List<Due> due = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(claimSelect(tenants.size()))) {
      ps.setInt(bindDue(ps, 1, at, born, tenants), limit);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          due.add(due(rs));
        }
      }
    }
    List<LeasedIntent> claimed = new ArrayList<>();
    List<Tampered> held = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(claimUpdate)) {
      for (Due d : due) {
        if (d.request().request() == null) {
          if (holdDamaged(c, d)) {
            held.add(new Tampered(d.intentId(), d.request().problem()));
          }
          continue;
        }
        IntentRecord r = d.record();
        Lease lease = new Lease(r.scope(), r.intentId(), r.key(), owner, d.token() + 1, leaseEnd);
        ps.setString(1, owner);
        ps.setLong(2, end);
        bindFence(ps, 3, lease, d.token());
        if (ps.executeUpdate() == 1) {
          claimed.add(new LeasedIntent(r, d.request().request(), lease, d.attempts() + 1));
        }
      }
    }
    return new Claim(claimed, held);
  }

  /**
   * Where a walk through the held intents stands: the last one read, in the walk's order (creation
   * time, tenant, operation, intent id).
   *
   * @param createdAtNs its creation time, in nanoseconds of the database's clock
   * @param tenant its tenant
   * @param operation its operation
   * @param intentId its intent id
   */
  public record HeldCursor(long createdAtNs, String tenant, String operation, String intentId) {}

  /**
   * A page of held intents to reconcile.
   *
   * @param records the readable ones, in the walk's order (records only: no stored request)
   * @param last where the page ended (its last row, readable or not), or null when it was empty
   * @param rows how many rows the page read
   */
  public record HeldPage(List<IntentRecord> records, HeldCursor last, int rows) {}

  /**
   * Reads up to {@code limit} held, still pending intents of the given tenants and operations after
   * {@code after} (null: from the first), in the order of creation time, tenant, operation and
   * intent id: their records only, never their stored requests. A row whose record cannot be read
   * is passed over (the cursor still moves past it).
   */
  public HeldPage heldPage(
      Connection c, List<String> tenants, List<String> operations, HeldCursor after, int limit)
      throws SQLException {
    if (tenants.isEmpty() || operations.isEmpty()) {
      return new HeldPage(List.of(), null, 0);
    }
    StringBuilder sql =
        new StringBuilder("SELECT ")
            .append(IntentSql.RECORD)
            .append(" FROM ")
            .append(table)
            .append(" WHERE relay_state = 2 AND state = 0 AND tenant IN (")
            .append(String.join(", ", Collections.nCopies(tenants.size(), "?")))
            .append(") AND operation IN (")
            .append(String.join(", ", Collections.nCopies(operations.size(), "?")))
            .append(")");
    if (after != null) {
      // the first condition alone bounds an index range on the creation time (the pending
      // index), so a page starts at the cursor instead of filtering every row before it
      sql.append(
          " AND created_at_ns >= ? AND (created_at_ns > ? OR (created_at_ns = ? AND (tenant > ?"
              + " OR (tenant = ? AND (operation > ? OR (operation = ? AND intent_id > ?))))))");
    }
    sql.append(" ORDER BY created_at_ns, tenant, operation, intent_id LIMIT ?");
    List<IntentRecord> records = new ArrayList<>();
    HeldCursor last = null;
    int rows = 0;
    try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
      int i = 1;
      for (String tenant : tenants) {
        ps.setString(i++, tenant);
      }
      for (String operation : operations) {
        ps.setString(i++, operation);
      }
      if (after != null) {
        ps.setLong(i++, after.createdAtNs());
        ps.setLong(i++, after.createdAtNs());
        ps.setLong(i++, after.createdAtNs());
        ps.setString(i++, after.tenant());
        ps.setString(i++, after.tenant());
        ps.setString(i++, after.operation());
        ps.setString(i++, after.operation());
        ps.setString(i++, after.intentId());
      }
      ps.setInt(i, limit);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows++;
          last = new HeldCursor(rs.getLong(7), rs.getString(1), rs.getString(2), rs.getString(3));
          try {
            records.add(IntentRows.read(rs));
          } catch (IllegalArgumentException | NullPointerException | SQLException e) {
            // an unreadable row is listed by OutboxAdmin#listUnreadable; it must not stop the walk
          }
        }
      }
    }
    return new HeldPage(List.copyOf(records), last, rows);
  }

  /**
   * A definitive outcome to record under a lease: {@link IntentState#SUCCEEDED} finishes the
   * intent, {@link IntentState#FAILED} holds it as {@link RelayCodes.Hold#REJECTED}.
   *
   * @param lease the lease
   * @param outcome the outcome, of the leased intent
   * @param note what to show a person, or null
   */
  public record Completion(Lease lease, IntentRecord outcome, String note) {}

  /**
   * Records every completion, each fenced by its own lease; run in one transaction (PostgreSQL: in
   * auto-commit mode the statements share one implicit transaction). On PostgreSQL one statement
   * records them all and the commit does not wait for its WAL flush: a completion lost in a crash
   * leaves the intent leased, due again when the lease ends, and re-sent with the same key.
   *
   * @return for each completion in order, whether it was recorded (false: the lease was lost)
   */
  public boolean[] completeAll(Connection c, List<Completion> completions) throws SQLException {
    boolean[] recorded = new boolean[completions.size()];
    if (dialect != Dialect.POSTGRESQL || completions.size() == 1) {
      for (int i = 0; i < recorded.length; i++) {
        Completion done = completions.get(i);
        recorded[i] = complete(c, done.lease(), done.outcome(), done.note());
      }
      return recorded;
    }
    int n = completions.size();
    Object[][] v = new Object[COMPLETED.size()][n];
    Set<String> keys = new HashSet<>();
    for (int i = 0; i < n; i++) {
      Completion done = completions.get(i);
      Lease lease = done.lease();
      IntentRecord r = done.outcome();
      boolean rejected = r.state() == IntentState.FAILED;
      v[0][i] = ColumnText.check("tenant", lease.scope().tenant(), IntentRows.MAX_TENANT);
      v[1][i] = ColumnText.check("operation", lease.scope().operation(), IntentRows.MAX_OPERATION);
      v[2][i] = lease.intentId();
      v[3][i] = lease.key().value();
      v[4][i] = lease.token();
      v[5][i] = IntentRows.code(r.state());
      v[6][i] = r.status();
      v[7][i] = ColumnText.check("resource id", r.resourceId(), IntentRows.MAX_RESOURCE_ID);
      v[8][i] = rejected ? RelayCodes.HELD : RelayCodes.DONE;
      v[9][i] = rejected ? RelayCodes.code(RelayCodes.Hold.REJECTED) : null;
      v[10][i] = note(done.note());
      if (!keys.add(key(lease.scope().tenant(), lease.scope().operation(), lease.intentId()))) {
        throw new IllegalArgumentException("an intent is completed twice in one batch");
      }
    }
    Set<String> written = new HashSet<>();
    try (PreparedStatement ps = c.prepareStatement(completeAllPostgres)) {
      for (int col = 0; col < COMPLETED.size(); col++) {
        ps.setArray(col + 1, array(c, COMPLETED.get(col), v[col]));
      }
      ps.execute(); // the settings' row first, then the rows recorded
      if (!ps.getMoreResults()) {
        throw new SQLException("the batch completion returned no rows");
      }
      try (ResultSet rs = ps.getResultSet()) {
        while (rs.next()) {
          written.add(key(rs.getString(1), rs.getString(2), rs.getString(3)));
        }
      }
    }
    for (int i = 0; i < n; i++) {
      Lease lease = completions.get(i).lease();
      recorded[i] =
          written.contains(
              key(lease.scope().tenant(), lease.scope().operation(), lease.intentId()));
    }
    return recorded;
  }

  private static Array array(Connection c, String type, Object[] values) throws SQLException {
    Object[] typed =
        switch (type) {
          case "int8" -> Arrays.copyOf(values, values.length, Long[].class);
          case "int4" -> Arrays.copyOf(values, values.length, Integer[].class);
          default -> Arrays.copyOf(values, values.length, String[].class);
        };
    return c.createArrayOf(type, typed);
  }

  /** Parts joined by NUL, which none of them may contain: distinct intents, distinct keys. */
  private static String key(String tenant, String operation, String intentId) {
    return tenant + '\0' + operation + '\0' + intentId;
  }

  /** Every name in a comma-separated list, with {@code prefix}. */
  private static String qualified(String prefix, String names) {
    StringBuilder out = new StringBuilder();
    for (String name : names.split(",")) {
      out.append(out.length() == 0 ? "" : ", ").append(prefix).append(name.trim());
    }
    return out.toString();
  }

  /** Reads a due row; a record or request that cannot be read back is noted, not thrown. */
  private Due due(ResultSet rs) throws SQLException {
    IntentRecord record = null;
    IntentRows.Readback request;
    try {
      record = IntentRows.read(rs);
      request = IntentRows.readRequest(rs, record, seal);
    } catch (IllegalArgumentException | NullPointerException e) {
      request = new IntentRows.Readback(null, "its intent record is not valid: " + e.getMessage());
    }
    return new Due(
        rs.getString(1),
        rs.getString(2),
        rs.getString(3),
        record,
        request,
        rs.getLong(20),
        rs.getInt(19));
  }

  /** Holds a row that cannot be sent as stored, fenced by the token read with it. */
  private boolean holdDamaged(Connection c, Due d) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(holdDamaged)) {
      ps.setInt(1, RelayCodes.code(RelayCodes.Hold.TAMPERED));
      ps.setString(2, note(d.request().problem()));
      ps.setString(3, d.tenant());
      ps.setString(4, d.operation());
      ps.setString(5, d.intentId());
      ps.setLong(6, d.token());
      return ps.executeUpdate() == 1;
    }
  }

  /** Records the outcome; a failure holds the intent as {@link RelayCodes.Hold#REJECTED}. */
  public boolean complete(Connection c, Lease lease, IntentRecord outcome, String note)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(complete)) {
      boolean rejected = outcome.state() == IntentState.FAILED;
      ps.setInt(1, IntentRows.code(outcome.state()));
      ps.setInt(2, outcome.status());
      ps.setString(
          3, ColumnText.check("resource id", outcome.resourceId(), IntentRows.MAX_RESOURCE_ID));
      ps.setInt(4, rejected ? RelayCodes.HELD : RelayCodes.DONE);
      if (rejected) {
        ps.setInt(5, RelayCodes.code(RelayCodes.Hold.REJECTED));
        ps.setInt(6, 1); // a rejected intent holds its ordering key, as every hold does
      } else {
        ps.setNull(5, Types.SMALLINT);
        ps.setNull(6, Types.SMALLINT);
      }
      ps.setString(7, note(note));
      bindFence(ps, 8, lease, lease.token());
      return ps.executeUpdate() == 1;
    }
  }

  /** Releases the lease and makes the intent due again at {@code next}. */
  public boolean retryAt(Connection c, Lease lease, Instant next, String note) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(retryAt)) {
      ps.setLong(1, IntentRows.nanos("next attempt", next));
      ps.setString(2, note(note));
      bindFence(ps, 3, lease, lease.token());
      return ps.executeUpdate() == 1;
    }
  }

  /**
   * Ends a lease under which nothing was sent: the intent is due again as it was, and the claim
   * that leased it does not count.
   */
  public boolean giveBack(Connection c, Lease lease, String note) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(giveBack)) {
      ps.setString(1, note(note));
      bindFence(ps, 2, lease, lease.token());
      return ps.executeUpdate() == 1;
    }
  }

  /** Releases the lease and holds the intent for a person. */
  public boolean hold(Connection c, Lease lease, RelayCodes.Hold reason, String note)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(hold)) {
      ps.setInt(1, RelayCodes.code(reason));
      ps.setString(2, note(note));
      bindFence(ps, 3, lease, lease.token());
      return ps.executeUpdate() == 1;
    }
  }

  /** Moves the lease's end to {@code leaseEnd}, keeping its token. */
  public boolean renew(Connection c, Lease lease, Instant leaseEnd) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(renew)) {
      ps.setLong(1, IntentRows.nanos("lease end", leaseEnd));
      bindFence(ps, 2, lease, lease.token());
      return ps.executeUpdate() == 1;
    }
  }

  /**
   * Holds, as {@link RelayCodes.Hold#EXPIRED}, every queued intent no one holds a live lease on
   * that is past its record's expiry or created at or before {@code oldest}.
   */
  public int holdOverdue(Connection c, Instant now, Instant oldest) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(holdOverdue)) {
      ps.setString(1, "outlived its retention or the relay's maximum age");
      ps.setLong(2, IntentRows.nanos("now", now));
      ps.setLong(3, IntentRows.nanos("now", now));
      ps.setLong(4, IntentRows.nanos("oldest", oldest));
      return ps.executeUpdate();
    }
  }

  private static void bindFence(PreparedStatement ps, int at, Lease lease, long token)
      throws SQLException {
    IntentRows.bindPk(ps, at, lease.scope(), lease.intentId());
    ps.setString(at + 3, lease.key().value());
    ps.setLong(at + 4, token);
  }

  /**
   * A note is for people and logs: control characters and unpaired surrogates become spaces, and it
   * is cut to {@value #MAX_NOTE} characters.
   */
  private static String note(String note) {
    if (note == null) {
      return null;
    }
    StringBuilder out = new StringBuilder(Math.min(note.length(), MAX_NOTE));
    note.codePoints()
        .limit(MAX_NOTE / 2)
        .forEach(
            cp ->
                out.appendCodePoint(
                    Character.isISOControl(cp) || (cp >= 0xD800 && cp <= 0xDFFF) ? ' ' : cp));
    return out.toString();
  }
}
