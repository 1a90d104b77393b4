package dev.saferetry.internal.jdbc;

import dev.saferetry.idempotency.BeginResult;
import dev.saferetry.idempotency.IntentRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;

/**
 * Begins and completions of many intents in one PostgreSQL statement each, for group commit (see
 * {@link Combiner}): one multi-row {@code INSERT ... ON CONFLICT ... RETURNING} names the rows this
 * statement recorded, so every intent of the batch still learns, from the statement that decided
 * it, whether it was created; one {@code UPDATE ... FROM (VALUES ...)} completes many. Rows are
 * written in key order, so that two batches never wait for each other in opposite orders; an intent
 * that appears twice in a batch, or whose record vanished between the two steps, takes the
 * single-row path afterwards.
 *
 * <p>Thread-safe.
 */
final class PostgresBatch {
  /** The most rows one statement writes (18 parameters each). */
  public static final int MAX_ROWS = 64;

  private final IntentTable single;
  private final String table;
  private final Map<Integer, String> upserts = new ConcurrentHashMap<>();
  private final Map<Integer, String> finds = new ConcurrentHashMap<>();
  private final Map<Integer, String> completes = new ConcurrentHashMap<>();
  private final Map<Integer, String> asyncCompletes = new ConcurrentHashMap<>();

  public PostgresBatch(IntentTable single, String schema, String name) {
    this.single = single;
    this.table = SqlNames.qualify(schema, name);
  }

  /** Begins every row; results in the rows' order. Run in auto-commit mode. */
  public List<BeginResult> beginAll(Connection c, List<IntentRow> rows) throws SQLException {
    if (rows.size() == 1) {
      return List.of(single.begin(c, rows.get(0)));
    }
    TreeMap<String, Integer> unique = firstOfEachKey(rows.size(), i -> rows.get(i).record());
    Set<String> created = upsert(c, rows, unique);
    List<IntentRecord> others = new ArrayList<>();
    unique.forEach(
        (k, i) -> {
          if (!created.contains(k)) {
            others.add(rows.get(i).record());
          }
        });
    Map<String, IntentRecord> found = find(c, others);
    BeginResult[] out = new BeginResult[rows.size()];
    unique.forEach(
        (k, i) -> {
          IntentRecord existing = found.get(k);
          if (created.contains(k)) {
            out[i] = BeginResult.created(rows.get(i).record());
          } else if (existing != null) {
            out[i] = BeginResult.existing(existing);
          }
        });
    for (int i = 0; i < out.length; i++) {
      if (out[i] == null) {
        out[i] = single.begin(c, rows.get(i));
      }
    }
    return List.of(out);
  }

  /** Inserts (or replaces) the unique rows in one statement; returns the keys it recorded. */
  private Set<String> upsert(Connection c, List<IntentRow> rows, TreeMap<String, Integer> unique)
      throws SQLException {
    String upsert =
        upserts.computeIfAbsent(
            unique.size(),
            n -> IntentSql.postgresUpsert(table, n) + " RETURNING tenant, operation, intent_id");
    Set<String> created = new HashSet<>();
    try (PreparedStatement ps = c.prepareStatement(upsert)) {
      int at = 1;
      for (int i : unique.values()) {
        IntentRows.bindInsert(ps, at, rows.get(i), IntentTable.nonce());
        at += 18;
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          created.add(key(rs.getString(1), rs.getString(2), rs.getString(3)));
        }
      }
    }
    return created;
  }

  private Map<String, IntentRecord> find(Connection c, List<IntentRecord> wanted)
      throws SQLException {
    Map<String, IntentRecord> found = new HashMap<>();
    if (wanted.isEmpty()) {
      return found;
    }
    String select =
        finds.computeIfAbsent(
            wanted.size(),
            n ->
                "SELECT "
                    + IntentSql.RECORD
                    + " FROM "
                    + table
                    + " WHERE (tenant, operation, intent_id) IN ((?, ?, ?)"
                    + ", (?, ?, ?)".repeat(n - 1)
                    + ")");
    try (PreparedStatement ps = c.prepareStatement(select)) {
      int at = 1;
      for (IntentRecord r : wanted) {
        IntentRows.bindPk(ps, at, r.scope(), r.intentId());
        at += 3;
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          IntentRecord r = IntentRows.read(rs);
          found.put(key(r), r);
        }
      }
    }
    return found;
  }

  /**
   * Completes every record whose stored key matches, in one statement; the commit does not wait for
   * its WAL flush when the connection is in auto-commit mode (see {@link IntentSql}).
   */
  public void completeAll(Connection c, List<IntentRecord> records) throws SQLException {
    if (records.size() == 1) {
      single.complete(c, records.get(0));
      return;
    }
    TreeMap<String, Integer> unique = firstOfEachKey(records.size(), records::get);
    boolean async = c.getAutoCommit();
    String update =
        (async ? asyncCompletes : completes)
            .computeIfAbsent(unique.size(), n -> completeSql(n, async));
    try (PreparedStatement ps = c.prepareStatement(update)) {
      int at = 1;
      for (int i : unique.values()) {
        IntentRecord r = records.get(i);
        IntentRows.bindPk(ps, at, r.scope(), r.intentId());
        ps.setString(at + 3, r.key().value());
        ps.setInt(at + 4, IntentRows.code(r.state()));
        ps.setInt(at + 5, r.status());
        ps.setString(at + 6, r.resourceId());
        at += 7;
      }
      IntentTable.executeAsync(c, ps, async);
    }
    Set<Integer> written = new HashSet<>(unique.values());
    for (int i = 0; i < records.size(); i++) {
      if (!written.contains(i)) {
        single.complete(c, records.get(i)); // the same intent twice in one batch: in order
      }
    }
  }

  private String completeSql(int rows, boolean async) {
    String row =
        "(CAST(? AS VARCHAR), CAST(? AS VARCHAR), CAST(? AS VARCHAR), CAST(? AS VARCHAR),"
            + " CAST(? AS SMALLINT), CAST(? AS INTEGER), CAST(? AS TEXT))";
    String update =
        "UPDATE "
            + table
            + " AS t SET state = v.state, status = v.status, resource_id = v.resource_id,"
            + " relay_state = CASE WHEN t.relay_state IS NULL THEN NULL ELSE 1 END,"
            + " lease_owner = NULL, lease_expires_ns = NULL, lease_token = t.lease_token + 1"
            + " FROM (VALUES "
            + row
            + (", " + row).repeat(rows - 1)
            + ") AS v (tenant, operation, intent_id, idempotency_key, state, status, resource_id)"
            + " WHERE t.tenant = v.tenant AND t.operation = v.operation"
            + " AND t.intent_id = v.intent_id AND t.idempotency_key = v.idempotency_key";
    return async ? "BEGIN; SET LOCAL synchronous_commit TO OFF; " + update + "; COMMIT" : update;
  }

  /** The index of each key's first row, in key order. */
  private static TreeMap<String, Integer> firstOfEachKey(
      int size, IntFunction<IntentRecord> record) {
    TreeMap<String, Integer> first = new TreeMap<>();
    for (int i = 0; i < size; i++) {
      first.putIfAbsent(key(record.apply(i)), i);
    }
    return first;
  }

  private static String key(IntentRecord r) {
    return key(r.scope().tenant(), r.scope().operation(), r.intentId());
  }

  /** Parts joined by NUL, which none of them may contain: distinct intents, distinct keys. */
  private static String key(String tenant, String operation, String intentId) {
    return tenant + '\0' + operation + '\0' + intentId;
  }
}
