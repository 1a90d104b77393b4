package dev.saferetry.jdbc.internal.keystore;

import dev.saferetry.idempotency.BeginResult;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.jdbc.internal.Combiner;
import dev.saferetry.jdbc.internal.SqlNames;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntFunction;

/**
 * Begins and completions of many intents in one PostgreSQL statement each, for group commit (see
 * {@link Combiner}): one {@code INSERT ... SELECT ... FROM unnest(...) ON CONFLICT ... RETURNING}
 * names the rows this statement recorded, so every intent of the batch still learns, from the
 * statement that decided it, whether it was created; one {@code UPDATE ... FROM unnest(...)}
 * completes many. Values are bound as one array per column, so each statement has one text whatever
 * the batch size: the driver prepares it on the server once per connection and the server plans it
 * once, instead of parsing and planning a statement of up to a thousand parameters per batch. Rows
 * are written in key order, so that two batches never wait for each other in opposite orders; an
 * intent that appears twice in a batch, or whose record vanished between the two steps, takes the
 * single-row path afterwards.
 *
 * <p>Thread-safe.
 */
public final class PostgresBatch {
  /** The most rows one statement writes. */
  public static final int MAX_ROWS = 64;

  /**
   * Settings, local to the statement's transaction, under which a statement that joins the table
   * with an array of keys looks each key up in the primary key. A plan the server caches for any
   * values is made once per connection and kept until the table's statistics change, so a plan made
   * while the table was young could otherwise go on scanning all of it as it grows; under these
   * settings the cached plan is the index lookup, and the statement is not planned again for every
   * batch.
   */
  private static final String BY_KEY =
      "set_config('enable_seqscan', 'off', true), set_config('enable_hashjoin', 'off', true),"
          + " set_config('enable_mergejoin', 'off', true)";

  private static final List<String> KEY_ARRAYS = List.of("varchar", "varchar", "varchar");

  private final IntentTable single;
  private final String upsert;
  private final String find;
  private final String complete;
  private final String completeAsync;

  public PostgresBatch(IntentTable single, String schema, String name) {
    this.single = single;
    String table = SqlNames.qualify(schema, name);
    List<String> inserted = new ArrayList<>();
    IntentRows.INSERTED.forEach(k -> inserted.add(k.arrayType));
    this.upsert =
        IntentSql.postgresUpsertArrays(table, inserted) + " RETURNING tenant, operation, intent_id";
    String find =
        "SELECT "
            + qualified("t.", IntentSql.RECORD)
            + " FROM "
            + table
            + " AS t JOIN unnest("
            + IntentSql.arrayParameters(KEY_ARRAYS)
            + ") AS k (tenant, operation, intent_id)"
            + " ON t.tenant = k.tenant AND t.operation = k.operation AND t.intent_id = k.intent_id";
    this.find = "SELECT " + BY_KEY + "; " + find;
    String update = completeSql(table);
    this.complete = "SELECT " + BY_KEY + "; " + update;
    this.completeAsync =
        "SELECT set_config('synchronous_commit', 'off', true), " + BY_KEY + "; " + update;
  }

  /** Begins every row; results in the rows' order. In auto-commit mode, or in a transaction. */
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
    int columns = IntentRows.INSERTED.size();
    Object[][] values = new Object[columns][unique.size()];
    int at = 0;
    for (int i : unique.values()) {
      Object[] row = IntentRows.insertValues(rows.get(i), IntentTable.nonce());
      for (int col = 0; col < columns; col++) {
        values[col][at] = row[col];
      }
      at++;
    }
    Set<String> created = new HashSet<>();
    try (PreparedStatement ps = c.prepareStatement(upsert)) {
      for (int col = 0; col < columns; col++) {
        bindArray(c, ps, col + 1, IntentRows.INSERTED.get(col), values[col]);
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
    String[][] keys = new String[3][wanted.size()];
    for (int i = 0; i < wanted.size(); i++) {
      IntentRecord r = wanted.get(i);
      keys[0][i] = r.scope().tenant();
      keys[1][i] = r.scope().operation();
      keys[2][i] = r.intentId();
    }
    try (PreparedStatement ps = c.prepareStatement(find)) {
      for (int col = 0; col < 3; col++) {
        bindArray(c, ps, col + 1, IntentRows.Kind.TEXT, keys[col]);
      }
      ps.execute(); // the settings' row first, then the records
      if (!ps.getMoreResults()) {
        throw new SQLException("the batch lookup returned no rows");
      }
      try (ResultSet rs = ps.getResultSet()) {
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
    int n = unique.size();
    Object[][] values = new Object[COMPLETED.size()][n];
    int at = 0;
    for (int i : unique.values()) {
      IntentRecord r = records.get(i);
      values[0][at] = r.scope().tenant();
      values[1][at] = r.scope().operation();
      values[2][at] = r.intentId();
      values[3][at] = r.key().value();
      values[4][at] = IntentRows.code(r.state());
      values[5][at] = r.status();
      values[6][at] = r.resourceId();
      at++;
    }
    try (PreparedStatement ps = c.prepareStatement(c.getAutoCommit() ? completeAsync : complete)) {
      for (int col = 0; col < COMPLETED.size(); col++) {
        bindArray(c, ps, col + 1, COMPLETED.get(col), values[col]);
      }
      ps.execute();
    }
    Set<Integer> written = new HashSet<>(unique.values());
    for (int i = 0; i < records.size(); i++) {
      if (!written.contains(i)) {
        single.complete(c, records.get(i)); // the same intent twice in one batch: in order
      }
    }
  }

  /** What a completion binds: key, idempotency key, state, status, resource id. */
  private static final List<IntentRows.Kind> COMPLETED =
      List.of(
          IntentRows.Kind.TEXT,
          IntentRows.Kind.TEXT,
          IntentRows.Kind.TEXT,
          IntentRows.Kind.TEXT,
          IntentRows.Kind.INTEGER,
          IntentRows.Kind.INTEGER,
          IntentRows.Kind.TEXT);

  private static String completeSql(String table) {
    List<String> types = new ArrayList<>();
    COMPLETED.forEach(k -> types.add(k.arrayType));
    return "UPDATE "
        + table
        + " AS t SET state = v.state, status = v.status, resource_id = v.resource_id,"
        + " relay_state = CASE WHEN t.relay_state IS NULL THEN NULL WHEN t.relay_state = 3 THEN 3"
        + " ELSE 1 END,"
        + " lease_owner = NULL, lease_expires_ns = NULL, lease_token = t.lease_token + 1"
        + " FROM unnest("
        + IntentSql.arrayParameters(types)
        + ") AS v (tenant, operation, intent_id, idempotency_key, state, status, resource_id)"
        + " WHERE t.tenant = v.tenant AND t.operation = v.operation"
        + " AND t.intent_id = v.intent_id AND t.idempotency_key = v.idempotency_key";
  }

  /** Every name in a comma-separated list, with {@code prefix}. */
  private static String qualified(String prefix, String names) {
    StringBuilder out = new StringBuilder();
    for (String name : names.split(", ")) {
      out.append(out.length() == 0 ? "" : ", ").append(prefix).append(name.trim());
    }
    return out.toString();
  }

  /** Binds one column's values as a SQL array of its kind's type. */
  private static void bindArray(
      Connection c, PreparedStatement ps, int at, IntentRows.Kind kind, Object[] values)
      throws SQLException {
    Object[] typed =
        switch (kind) {
          case TEXT -> Arrays.copyOf(values, values.length, String[].class);
          case INTEGER -> Arrays.copyOf(values, values.length, Integer[].class);
          case BIGINT -> Arrays.copyOf(values, values.length, Long[].class);
          case BYTES -> Arrays.copyOf(values, values.length, byte[][].class);
        };
    Array array = c.createArrayOf(kind.arrayType, typed);
    ps.setArray(at, array);
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
