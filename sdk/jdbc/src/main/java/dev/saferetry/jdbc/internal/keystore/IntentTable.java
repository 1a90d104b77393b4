package dev.saferetry.jdbc.internal.keystore;

import dev.saferetry.idempotency.BeginResult;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.jdbc.internal.ColumnText;
import dev.saferetry.jdbc.internal.Dialect;
import dev.saferetry.jdbc.internal.Purge;
import dev.saferetry.jdbc.internal.SchemaGate;
import dev.saferetry.jdbc.internal.SqlNames;
import dev.saferetry.jdbc.internal.SqlScript;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The key store's operations on its table, on a connection the caller provides (and commits).
 *
 * <p><b>Begin wins a race exactly once</b>, in one round trip when the intent is new, without
 * reading anything a concurrent transaction might hide from a snapshot:
 *
 * <ul>
 *   <li>PostgreSQL: {@code INSERT ... ON CONFLICT DO UPDATE ... WHERE} the stored record is
 *       completed and expired. The conflict check and the update see the latest committed row (not
 *       the statement's snapshot), and a concurrent inserter is waited for. One row affected means
 *       this call recorded the candidate; none means a live record exists, read by a second
 *       statement (whose fresh snapshot sees it). No error is raised, so a caller's transaction is
 *       never aborted by a lost race.
 *   <li>MariaDB: {@code INSERT ... ON DUPLICATE KEY UPDATE} (a no-op) {@code RETURNING} the row. A
 *       random {@code begin_nonce} written by the insert tells this call's row from an existing
 *       one. No {@code INSERT IGNORE}, which would also turn other errors into warnings.
 *   <li>H2: a plain {@code INSERT}; only a unique-key violation (SQL state 23505) means the intent
 *       exists, which is then read. No {@code MERGE}, which does not lock against a concurrent
 *       insert.
 * </ul>
 *
 * An existing record that is completed and expired is replaced by a conditional update naming its
 * old key, so that of two callers replacing it, one wins. A record that vanishes between the two
 * steps (abandoned, purged) sends the begin round again.
 *
 * <p>Thread-safe: all state is in the database and the caller's connection.
 */
public final class IntentTable implements SchemaGate.Tables {
  /** The main table's name in the migration files, and a builder's default. */
  public static final String DEFAULT_NAME = "saferetry_intents";

  /** The schema version this code writes. */
  public static final int VERSION = 1;

  /** The oldest code version that can read and write this schema. */
  public static final int MIN_READER = 1;

  /** The tables besides the main one, named by appending these to its name. */
  private static final List<String> TABLES = List.of("_order", "_audit");

  /** The indexes, named likewise. */
  private static final List<String> INDEXES = List.of("_pending", "_expiry", "_relay", "_ordering");

  private static final int ROUNDS = 8;

  private final Dialect dialect;
  private final String schema;
  private final String name;
  private final IntentSql sql;

  /** The table {@code name} in {@code schema} (null: the connection's), both checked names. */
  public IntentTable(Dialect dialect, String schema, String name) {
    this.dialect = dialect;
    this.schema = schema;
    this.name = name;
    this.sql = new IntentSql(SqlNames.qualify(schema, name));
  }

  /** The database this table is in. */
  public Dialect dialect() {
    return dialect;
  }

  /**
   * {@return the migration that brings the key store's tables to {@code version}, in {@link
   * SqlScript#FOLDER}<code>&lt;database&gt;/</code>}
   */
  public static String file(int version) {
    if (version != 1) {
      throw new IllegalArgumentException("no key store migration to version " + version);
    }
    return "V1__saferetry_keystore.sql";
  }

  @Override
  public SqlScript script(int version) {
    return SqlScript.load(
        SqlScript.resource(dialect, file(version)),
        SqlScript.names(dialect, schema, name, DEFAULT_NAME, TABLES, INDEXES));
  }

  @Override
  public void probe(Connection c) throws SQLException {
    for (String probe : sql.probes) {
      try (PreparedStatement ps = c.prepareStatement(probe)) {
        ps.executeQuery().close();
      }
    }
  }

  /** Records the row's candidate unless a live record exists; see the class comment. */
  public BeginResult begin(Connection c, IntentRow row) throws SQLException {
    for (int round = 0; round < ROUNDS; round++) {
      BeginResult result =
          switch (dialect) {
            case POSTGRESQL -> beginPostgres(c, row);
            case MARIADB -> beginMariaDb(c, row);
            case H2 -> beginH2(c, row);
          };
      if (result != null) {
        return result;
      }
    }
    throw new SQLException("the intent's record kept changing during begin", "40001");
  }

  private BeginResult beginPostgres(Connection c, IntentRow row) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.upsertIfReplaceable)) {
      IntentRows.bindInsert(ps, 1, row, nonce());
      if (ps.executeUpdate() == 1) {
        return BeginResult.created(row.record());
      }
    }
    return find(c, row.record().scope(), row.record().intentId())
        .map(BeginResult::existing)
        .orElse(null);
  }

  private BeginResult beginMariaDb(Connection c, IntentRow row) throws SQLException {
    long nonce = nonce();
    IntentRecord found;
    Object relayState;
    try (PreparedStatement ps = c.prepareStatement(sql.insertOrReturn)) {
      IntentRows.bindInsert(ps, 1, row, nonce);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new SQLException("INSERT ... RETURNING returned no row");
        }
        if (rs.getLong(11) == nonce) {
          return BeginResult.created(row.record());
        }
        found = IntentRows.read(rs);
        relayState = rs.getObject(12);
      }
    }
    return replaceOrKeep(c, row, found, relayState);
  }

  private BeginResult beginH2(Connection c, IntentRow row) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.insert)) {
      IntentRows.bindInsert(ps, 1, row, nonce());
      ps.executeUpdate();
      return BeginResult.created(row.record());
    } catch (SQLException e) {
      if (!dialect.isDuplicateKey(e)) {
        throw e;
      }
    }
    try (PreparedStatement ps = c.prepareStatement(sql.findForBegin)) {
      IntentRows.bindPk(ps, 1, row.record().scope(), row.record().intentId());
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? replaceOrKeep(c, row, IntentRows.read(rs), rs.getObject(11)) : null;
      }
    }
  }

  /**
   * Replaces {@code found} with the row's candidate if it is completed and expired at the
   * candidate's creation time (the database's) and is the key store's to replace: not an outbox
   * intent that is queued, held or abandoned ({@code relayState} 0, 2 or 3), which only the
   * outbox's own rules change.
   */
  private BeginResult replaceOrKeep(
      Connection c, IntentRow row, IntentRecord found, Object relayState) throws SQLException {
    Instant now = row.record().createdAt();
    boolean outboxOwned = relayState != null && ((Number) relayState).intValue() != RelayCodes.DONE;
    if (found.state() == IntentState.PENDING || !found.isExpired(now) || outboxOwned) {
      return BeginResult.existing(found);
    }
    try (PreparedStatement ps = c.prepareStatement(sql.replaceIfExpired)) {
      IntentRows.bindReplaced(ps, 1, row, nonce());
      int at = IntentRows.INSERTED.size() - 2; // after the replaced columns (all but the key's 3)
      IntentRows.bindPk(ps, at, found.scope(), found.intentId());
      ps.setString(at + 3, found.key().value());
      ps.setLong(at + 4, IntentRows.nanos("createdAt", now));
      return ps.executeUpdate() == 1 ? BeginResult.created(row.record()) : null;
    }
  }

  /**
   * Gives a new intent, just recorded by {@link #begin} in the caller's transaction, the next
   * number of its tenant's ordering key. The key's row in {@code {table}_order} stays locked until
   * that transaction ends, so a concurrent transaction of the same key takes its number only after
   * this one committed or rolled back: numbers follow commit order. Two transactions creating a
   * key's first row at once are serialised by its primary key.
   *
   * @return the number given
   */
  public long order(Connection c, IntentRecord intent, String orderingKey) throws SQLException {
    String tenant = intent.scope().tenant();
    long seq = nextInOrder(c, tenant, orderingKey);
    try (PreparedStatement ps = c.prepareStatement(sql.setOrder)) {
      ps.setString(1, orderingKey);
      ps.setLong(2, seq);
      IntentRows.bindPk(ps, 3, intent.scope(), intent.intentId());
      ps.setString(6, intent.key().value());
      if (ps.executeUpdate() != 1) {
        throw new SQLException("the intent just recorded is not in the table");
      }
    }
    return seq;
  }

  /**
   * Takes the next number of a tenant's ordering key, as an enqueue does (the key's row in {@code
   * {table}_order} stays locked until the caller's transaction ends): a requeued intent that let
   * its key go on takes its place at the end of the key's queue with it.
   */
  public long nextNumber(Connection c, String tenant, String orderingKey) throws SQLException {
    return nextInOrder(c, tenant, orderingKey);
  }

  private long nextInOrder(Connection c, String tenant, String orderingKey) throws SQLException {
    switch (dialect) {
      case POSTGRESQL -> {
        try (PreparedStatement ps = c.prepareStatement(sql.orderNextPostgres)) {
          bindOrder(ps, tenant, orderingKey);
          try (ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
              throw new SQLException("INSERT ... RETURNING returned no row");
            }
            return rs.getLong(1) - 1;
          }
        }
      }
      case MARIADB -> {
        try (PreparedStatement ps = c.prepareStatement(sql.orderNextMariaDb)) {
          bindOrder(ps, tenant, orderingKey);
          ps.executeUpdate();
        }
        return readOrder(c, tenant, orderingKey);
      }
      default -> {
        for (int round = 0; round < ROUNDS; round++) {
          try (PreparedStatement ps = c.prepareStatement(sql.orderBump)) {
            bindOrder(ps, tenant, orderingKey);
            if (ps.executeUpdate() == 1) {
              return readOrder(c, tenant, orderingKey);
            }
          }
          try (PreparedStatement ps = c.prepareStatement(sql.orderCreate)) {
            bindOrder(ps, tenant, orderingKey);
            ps.executeUpdate();
            return 1;
          } catch (SQLException e) {
            if (!dialect.isDuplicateKey(e)) {
              throw e;
            }
          }
        }
        throw new SQLException("the ordering key's row kept changing", "40001");
      }
    }
  }

  /** The number just taken: the key's next number, read with the lock its update took. */
  private long readOrder(Connection c, String tenant, String orderingKey) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.orderRead)) {
      bindOrder(ps, tenant, orderingKey);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new SQLException("the ordering key's row is not in the table");
        }
        return rs.getLong(1) - 1;
      }
    }
  }

  private static void bindOrder(PreparedStatement ps, String tenant, String orderingKey)
      throws SQLException {
    ps.setString(1, tenant);
    ps.setString(2, orderingKey);
  }

  static long nonce() {
    return ThreadLocalRandom.current().nextLong();
  }

  /** The stored record of an intent, expired or not. */
  public Optional<IntentRecord> find(Connection c, IntentScope scope, String intentId)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.find)) {
      IntentRows.bindPk(ps, 1, scope, intentId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(IntentRows.read(rs)) : Optional.empty();
      }
    }
  }

  /**
   * What the outbox holds of an intent, as {@link #outboxState} reads it.
   *
   * @param relayState 0 queued, 1 ended, 2 held, 3 abandoned; null for an intent its caller sends
   *     itself
   * @param hold why it is held, or null
   * @param orderingKey its ordering key, or null
   * @param leaseOwner the owner of its lease, or null
   * @param leaseEnd when that lease ends, or null
   * @param note the last note, or null
   */
  public record OutboxState(
      Integer relayState,
      RelayCodes.Hold hold,
      String orderingKey,
      String leaseOwner,
      Instant leaseEnd,
      String note) {}

  /** What the outbox holds of an intent, or empty when the table has no such intent. */
  public Optional<OutboxState> outboxState(Connection c, IntentScope scope, String intentId)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.outboxState)) {
      IntentRows.bindPk(ps, 1, scope, intentId);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        int state = rs.getInt(1);
        Integer relayState = rs.wasNull() ? null : state;
        int hold = rs.getInt(2);
        RelayCodes.Hold reason = rs.wasNull() ? null : RelayCodes.reason(hold);
        long end = rs.getLong(5);
        Instant leaseEnd = rs.wasNull() ? null : IntentRows.instant(end);
        return Optional.of(
            new OutboxState(
                relayState, reason, rs.getString(3), rs.getString(4), leaseEnd, rs.getString(6)));
      }
    }
  }

  /**
   * The latest abandonment of an intent, as the audit records it.
   *
   * @param actor who abandoned it
   * @param why the reason recorded
   * @param at when, by the database's clock
   */
  public record Abandonment(String actor, String why, Instant at) {}

  /** The latest abandonment of an intent in the audit, or empty when none is recorded. */
  public Optional<Abandonment> lastAbandonment(Connection c, IntentScope scope, String intentId)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.lastAbandon)) {
      ps.setMaxRows(1);
      IntentRows.bindPk(ps, 1, scope, intentId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next()
            ? Optional.of(
                new Abandonment(
                    rs.getString(1), rs.getString(2), IntentRows.instant(rs.getLong(3))))
            : Optional.empty();
      }
    }
  }

  /** Every pending record, oldest first. */
  public List<IntentRecord> pending(Connection c) throws SQLException {
    List<IntentRecord> out = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(sql.pending);
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(IntentRows.read(rs));
      }
    }
    return out;
  }

  /**
   * Records an outcome if the stored record has the completion's key. On PostgreSQL in auto-commit
   * mode the commit does not wait for its WAL flush (see {@link IntentSql}).
   */
  public void complete(Connection c, IntentRecord completed) throws SQLException {
    boolean async = dialect == Dialect.POSTGRESQL && c.getAutoCommit();
    try (PreparedStatement ps = c.prepareStatement(async ? sql.completeAsync : sql.complete)) {
      ps.setInt(1, IntentRows.code(completed.state()));
      ps.setInt(2, completed.status());
      ps.setString(
          3, ColumnText.check("resource id", completed.resourceId(), IntentRows.MAX_RESOURCE_ID));
      IntentRows.bindPk(ps, 4, completed.scope(), completed.intentId());
      ps.setString(7, completed.key().value());
      ps.execute();
    }
  }

  /** Deletes an intent's record; returns whether there was one. */
  public boolean abandon(Connection c, IntentScope scope, String intentId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.abandon)) {
      IntentRows.bindPk(ps, 1, scope, intentId);
      return ps.executeUpdate() > 0;
    }
  }

  /**
   * Deletes the rows of {@code {table}_order} whose ordering key no intent in the table uses any
   * more, looking at up to {@code limit} keys after {@code after} (null: from the first), in key
   * order, locked and skipping keys an enqueue holds; run in a transaction. A key is deleted only
   * while no intent of its tenant and key is left, in any state (so numbers never restart below an
   * intent that has one); the next enqueue of it starts again at 1.
   *
   * @return the last key looked at (tenant, key) when there may be more, else null
   */
  public String[] purgeOrderBatch(Connection c, String[] after, int limit) throws SQLException {
    List<String[]> keys = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(after == null ? sql.orderKeysFirst : sql.orderKeysAfter)) {
      int at = 1;
      if (after != null) {
        ps.setString(at++, after[0]);
        ps.setString(at++, after[0]);
        ps.setString(at++, after[1]);
      }
      ps.setInt(at, limit);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          keys.add(new String[] {rs.getString(1), rs.getString(2)});
        }
      }
    }
    if (keys.isEmpty()) {
      return null;
    }
    try (PreparedStatement ps = c.prepareStatement(sql.orderDeleteUnused)) {
      for (String[] key : keys) {
        ps.setString(1, key[0]);
        ps.setString(2, key[1]);
        ps.setString(3, key[0]);
        ps.setString(4, key[1]);
        ps.executeUpdate();
      }
    }
    return keys.size() < limit ? null : keys.get(keys.size() - 1);
  }

  /**
   * Deletes up to {@code limit} completed records expired at {@code now}, skipping rows another
   * transaction holds (so purges from many instances do not wait for each other) and intents held
   * for a person. Run in a transaction; returns how many rows it found, all of which it deleted.
   */
  public int purgeBatch(Connection c, Instant now, int limit) throws SQLException {
    long bound = IntentRows.nanos("now", now);
    return dialect == Dialect.POSTGRESQL
        ? Purge.batch(c, sql.purgePostgres, bound, limit)
        : Purge.batch(c, sql.expiredBatch, sql.deleteExpired, bound, limit);
  }
}
