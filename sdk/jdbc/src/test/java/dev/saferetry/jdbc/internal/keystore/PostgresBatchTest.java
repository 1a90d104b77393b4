package dev.saferetry.jdbc.internal.keystore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.saferetry.idempotency.BeginResult;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyPlacement;
import dev.saferetry.idempotency.StoredRequest;
import dev.saferetry.jdbc.internal.Dialect;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The batch statements on real PostgreSQL ({@code SAFERETRY_PG_URL}, default the local server;
 * skipped with a message when it does not answer): a batch gives every intent exactly what the
 * single-row path gives it, leaves the table as the single-row path leaves it, and stores every
 * value it binds through an array exactly.
 */
class PostgresBatchTest {
  private static final RowSeal SEAL =
      RowSeal.none()
          .withKey(
              "batch",
              "saferetry-test-seal-key-32-bytes".getBytes(java.nio.charset.StandardCharsets.UTF_8),
              true);

  private static final IntentScope SCOPE = new IntentScope("default", "POST /v1/charges");
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00.000000001Z");
  private static final Instant T1 = T0.plus(Duration.ofHours(2));
  private static final String BATCHED = "batched";
  private static final String SINGLE = "single";

  private String url;
  private String schema;
  private HikariDataSource pool;
  private IntentTable batchedTable;
  private IntentTable singleTable;
  private PostgresBatch batch;

  @BeforeEach
  void openSchema() throws Exception {
    url =
        System.getenv()
            .getOrDefault(
                "SAFERETRY_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");
    schema = "sr_" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
    DriverManager.setLoginTimeout(3);
    try (Connection c = DriverManager.getConnection(url);
        Statement st = c.createStatement()) {
      st.execute("CREATE SCHEMA " + schema);
    } catch (SQLException e) {
      if (e.getSQLState() != null && e.getSQLState().startsWith("08")) {
        schema = null;
        Assumptions.abort("PostgreSQL does not answer at SAFERETRY_PG_URL; test skipped");
      }
      throw e;
    }
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(2);
    pool = new HikariDataSource(config);
    for (String table : List.of(BATCHED, SINGLE)) {
      JdbcKeyStore.builder()
          .dataSource(pool)
          .schema(schema)
          .table(table)
          .createSchema(true)
          .build()
          .close();
    }
    batchedTable = new IntentTable(Dialect.POSTGRESQL, schema, BATCHED);
    singleTable = new IntentTable(Dialect.POSTGRESQL, schema, SINGLE);
    batch = new PostgresBatch(batchedTable, schema, BATCHED);
  }

  @AfterEach
  void dropSchema() throws Exception {
    if (pool != null) {
      pool.close();
    }
    if (schema != null) {
      try (Connection c = DriverManager.getConnection(url);
          Statement st = c.createStatement()) {
        st.execute("DROP SCHEMA " + schema + " CASCADE");
      }
    }
  }

  private static IntentRecord candidate(String intentId, Instant at) {
    return IntentRecord.pending(
        SCOPE, intentId, IdempotencyKey.random(), "fp-" + intentId, at, Duration.ofHours(1));
  }

  /** The same records, begun (and completed) one by one in both tables. */
  private void seedBoth(List<IntentRecord> begun, List<IntentRecord> completed) throws Exception {
    try (Connection c = pool.getConnection()) {
      for (IntentTable table : List.of(batchedTable, singleTable)) {
        for (IntentRecord r : begun) {
          assertThat(table.begin(c, IntentRow.direct(r)).created()).isTrue();
        }
        for (IntentRecord r : completed) {
          table.complete(c, r);
        }
      }
    }
  }

  @ParameterizedTest(name = "auto-commit {0}")
  @ValueSource(booleans = {true, false})
  void aMixedBatchOfBeginsGivesExactlyWhatTheSingleRowPathGives(boolean autoCommit)
      throws Exception {
    IntentRecord live = candidate("live", T0.plus(Duration.ofMinutes(90)));
    IntentRecord doneFresh = candidate("done-fresh", T0.plus(Duration.ofMinutes(90)));
    IntentRecord doneExpired = candidate("done-expired", T0);
    IntentRecord pendingExpired = candidate("pending-expired", T0);
    seedBoth(
        List.of(live, doneFresh, doneExpired, pendingExpired),
        List.of(
            doneFresh.complete(IntentState.SUCCEEDED, 201, "ch_fresh"),
            doneExpired.complete(IntentState.FAILED, 402, null)));
    StoredRequest request =
        new StoredRequest(
            "POST",
            "v1/charges?x=1",
            KeyPlacement.header(),
            Map.of("Stripe-Account", "acct_1"),
            "application/json",
            new byte[] {'{', '}'});
    List<IntentRow> rows =
        List.of(
            IntentRow.direct(candidate("new-1", T1)),
            IntentRow.direct(candidate("live", T1)),
            IntentRow.direct(candidate("done-fresh", T1)),
            IntentRow.direct(candidate("done-expired", T1)),
            IntentRow.direct(candidate("pending-expired", T1)),
            IntentRow.direct(candidate("new-1", T1)), // twice in one batch, another key
            IntentRow.direct(candidate("done-expired", T1)), // the replaced one, twice
            new IntentRow(candidate("new-2", T1), request, T1.plusSeconds(5), SEAL));

    List<BeginResult> batched;
    List<BeginResult> single = new ArrayList<>();
    try (Connection c = pool.getConnection()) {
      c.setAutoCommit(autoCommit);
      batched = batch.beginAll(c, rows);
      for (IntentRow row : rows) {
        single.add(singleTable.begin(c, row));
      }
      if (!autoCommit) {
        c.commit();
      }
    }

    assertThat(batched).hasSize(rows.size());
    for (int i = 0; i < rows.size(); i++) {
      assertThat(batched.get(i).created())
          .as("row %d created", i)
          .isEqualTo(single.get(i).created());
      assertThat(batched.get(i).record()).as("row %d record", i).isEqualTo(single.get(i).record());
    }
    assertThat(batched.stream().map(BeginResult::created))
        .containsExactly(true, false, false, true, false, false, false, true);
    assertThat(batched.get(5).record().key()).isEqualTo(rows.get(0).record().key());
    assertThat(batched.get(6).record().key()).isEqualTo(rows.get(3).record().key());
    assertThat(contents(BATCHED)).isEqualTo(contents(SINGLE)).hasSize(6);
  }

  @ParameterizedTest(name = "auto-commit {0}")
  @ValueSource(booleans = {true, false})
  void aMixedBatchOfCompletionsLeavesTheTableAsTheSingleRowPathDoes(boolean autoCommit)
      throws Exception {
    IntentRecord a = candidate("a", T0);
    IntentRecord b = candidate("b", T0);
    IntentRecord c1 = candidate("c", T0);
    seedBoth(List.of(a, b, c1), List.of());
    IntentRecord otherKey =
        new IntentRecord(
            SCOPE,
            "b",
            IdempotencyKey.random(),
            b.fingerprint(),
            IntentState.SUCCEEDED,
            b.createdAt(),
            b.expiresAt(),
            200,
            "ch_wrong_key");
    List<IntentRecord> records =
        List.of(
            a.complete(IntentState.SUCCEEDED, 201, "ch_a"),
            otherKey, // not the recorded key: ignored
            candidate("missing", T0).complete(IntentState.SUCCEEDED, 201, "ch_m"), // no record
            c1.complete(IntentState.FAILED, 500, null),
            c1.complete(IntentState.SUCCEEDED, 201, "ch_c")); // the same intent twice, in order

    try (Connection c = pool.getConnection()) {
      c.setAutoCommit(autoCommit);
      batch.completeAll(c, records);
      for (IntentRecord r : records) {
        singleTable.complete(c, r);
      }
      if (!autoCommit) {
        c.commit();
      }
      assertThat(batchedTable.find(c, SCOPE, "c").orElseThrow().resourceId()).isEqualTo("ch_c");
      assertThat(batchedTable.find(c, SCOPE, "b").orElseThrow().state())
          .isEqualTo(IntentState.PENDING);
      assertThat(batchedTable.find(c, SCOPE, "missing")).isEmpty();
    }
    assertThat(contents(BATCHED)).isEqualTo(contents(SINGLE)).hasSize(3);
  }

  @Test
  void textAtTheLimitsAndCharactersArraysQuoteRoundTripThroughABatch() throws Exception {
    String awkward = "{\"a\\b\"}, NULL () ' \uD83D\uDCB3 é";
    IntentScope longest = new IntentScope("t".repeat(127) + "\u00e9", "o".repeat(255));
    IntentScope nonBmp = new IntentScope("\uD83D\uDE00".repeat(64), "POST /v1/\uD834\uDD1E");
    List<IntentRecord> records =
        List.of(
            IntentRecord.pending(
                longest,
                "i".repeat(255),
                IdempotencyKey.random(),
                "f".repeat(512),
                T1,
                Duration.ofHours(1)),
            IntentRecord.pending(
                nonBmp, awkward, IdempotencyKey.random(), awkward, T1, Duration.ofHours(1)),
            IntentRecord.pending(
                SCOPE, "NULL", IdempotencyKey.random(), "NULL", T1, Duration.ofHours(1)),
            IntentRecord.pending(
                SCOPE, " x ", IdempotencyKey.random(), "", T1, Duration.ofHours(1)));
    byte[] body = {0, (byte) 0xff, '\\', 'x', '0', '0', '"', '{', ',', '}'};
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Stripe-Account", "acct_\"1\", {x}");
    headers.put("X-Note", "NULL");
    StoredRequest request =
        new StoredRequest(
            "POST",
            "v1/a%20b?q=%22{}%22,NULL",
            KeyPlacement.header("PayPal-Request-Id"),
            headers,
            "x/y",
            body);
    List<IntentRow> rows = rows(records);
    rows.set(1, new IntentRow(records.get(1), request, T1.plusNanos(1), SEAL));

    try (Connection c = pool.getConnection()) {
      assertThat(batch.beginAll(c, rows)).allSatisfy(r -> assertThat(r.created()).isTrue());
      for (IntentRecord r : records) {
        assertThat(batchedTable.find(c, r.scope(), r.intentId())).contains(r);
      }
      StoredRequest stored = storedRequest(c, records.get(1));
      assertThat(stored.method()).isEqualTo(request.method());
      assertThat(stored.target()).isEqualTo(request.target());
      assertThat(stored.headers()).containsExactlyEntriesOf(headers);
      assertThat(stored.contentType()).isEqualTo("x/y");
      assertThat(stored.body()).isEqualTo(body);
      assertThat(storedRequest(c, records.get(0))).isNull();

      List<IntentRecord> completed = new ArrayList<>();
      for (IntentRecord r : records) {
        completed.add(r.complete(IntentState.SUCCEEDED, 201, awkward + r.intentId()));
      }
      completed.set(2, records.get(2).complete(IntentState.FAILED, 409, null));
      batch.completeAll(c, completed);
      for (IntentRecord r : completed) {
        assertThat(batchedTable.find(c, r.scope(), r.intentId())).contains(r);
      }
    }
  }

  @Test
  void batchesFindRowsByTheirKeysEvenWithPlansCachedWhileTheTableWasYoung() throws Exception {
    try (Connection c = pool.getConnection()) {
      Assumptions.assumeTrue(
          c.getMetaData().getDatabaseMajorVersion() >= 15,
          "reading a connection's own table scans needs PostgreSQL 15; test skipped");
      List<IntentRecord> young = new ArrayList<>();
      for (int i = 0; i < 12; i++) { // past the driver's and the server's thresholds for reuse
        List<IntentRecord> begun = new ArrayList<>();
        for (int k = 0; k < 3; k++) {
          begun.add(candidate("young-" + i + "-" + k, T1));
        }
        young.addAll(begun);
        batch.beginAll(c, rows(begun));
        batch.beginAll(c, rows(begun)); // recorded already: the batch lookup
        List<IntentRecord> done = succeeded(begun);
        batch.completeAll(c, done);
      }
      try (Statement st = c.createStatement()) { // the table grows; no statistics are taken
        st.execute(
            "INSERT INTO "
                + schema
                + "."
                + BATCHED
                + " (tenant, operation, intent_id, idempotency_key, fingerprint, state,"
                + " created_at_ns, expires_at_ns, status, begin_nonce)"
                + " SELECT 'default', 'POST /v1/charges', 'grown-' || g, 'k-' || g, 'fp', 0, 0,"
                + " 0, 0, g FROM generate_series(1, 20000) AS g");
      }
      long[] before = scans(c);
      List<IntentRecord> later = List.of(candidate("later-1", T1), candidate("later-2", T1));
      batch.beginAll(c, rows(later));
      List<BeginResult> again = batch.beginAll(c, rows(young.subList(0, 3)));
      List<IntentRecord> done = succeeded(later);
      batch.completeAll(c, done);
      long[] after = scans(c);

      assertThat(again).allSatisfy(r -> assertThat(r.created()).isFalse());
      for (IntentRecord r : done) {
        assertThat(batchedTable.find(c, r.scope(), r.intentId())).contains(r);
      }
      assertThat(after[0] - before[0]).as("scans of the whole table").isZero();
      assertThat(after[1] - before[1]).as("index scans").isPositive();
    }
  }

  /** Each record completed as SUCCEEDED (201, resource "ch"). */
  private static List<IntentRecord> succeeded(List<IntentRecord> records) {
    List<IntentRecord> done = new ArrayList<>();
    records.forEach(r -> done.add(r.complete(IntentState.SUCCEEDED, 201, "ch")));
    return done;
  }

  /** A direct row (no stored request) for each record, in a list that may be changed. */
  private static List<IntentRow> rows(List<IntentRecord> records) {
    List<IntentRow> rows = new ArrayList<>();
    records.forEach(r -> rows.add(IntentRow.direct(r)));
    return rows;
  }

  /** This connection's sequential and index scans of the batched table so far. */
  private long[] scans(Connection c) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute("SELECT pg_stat_force_next_flush()");
    }
    try (Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT pg_stat_clear_snapshot(), seq_scan, idx_scan FROM pg_stat_user_tables"
                    + " WHERE schemaname = '"
                    + schema
                    + "' AND relname = '"
                    + BATCHED
                    + "'")) {
      assertThat(rs.next()).isTrue();
      return new long[] {rs.getLong(2), rs.getLong(3)};
    }
  }

  @Test
  void aCompletionThatFailsLeavesItsConnectionOutsideAnyTransactionAndItsSettingsUnchanged()
      throws Exception {
    List<IntentRecord> begun = List.of(candidate("a", T1), candidate("b", T1));
    List<IntentRecord> done = succeeded(begun);
    try (Connection c = pool.getConnection();
        Statement st = c.createStatement()) {
      batch.beginAll(c, rows(begun));
      batchedTable.complete(c, done.get(0));
      assertThat(setting(c, "synchronous_commit")).isEqualTo("on");
      st.execute(
          "CREATE FUNCTION "
              + schema
              + ".refuse() RETURNS trigger LANGUAGE plpgsql AS"
              + " $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$");
      st.execute(
          "CREATE TRIGGER refuse BEFORE UPDATE ON "
              + schema
              + "."
              + BATCHED
              + " FOR EACH ROW EXECUTE FUNCTION "
              + schema
              + ".refuse()");
      for (int round = 0; round < 7; round++) { // also once the driver prepares on the server
        assertThatThrownBy(() -> batchedTable.complete(c, done.get(1)))
            .isInstanceOf(SQLException.class)
            .hasMessageContaining("refused by the test");
        assertThatThrownBy(() -> batch.completeAll(c, done))
            .isInstanceOf(SQLException.class)
            .hasMessageContaining("refused by the test");
        assertThat(setting(c, "synchronous_commit")).isEqualTo("on");
        assertThat(setting(c, "enable_seqscan")).isEqualTo("on");
      }
      st.execute("DROP TRIGGER refuse ON " + schema + "." + BATCHED);
      batch.completeAll(c, done);
      assertThat(setting(c, "enable_seqscan")).isEqualTo("on");
      for (IntentRecord r : done) {
        assertThat(batchedTable.find(c, r.scope(), r.intentId())).contains(r);
      }
    }
  }

  /**
   * A setting as the connection sees it outside any transaction (the query fails inside one that
   * failed).
   */
  private static String setting(Connection c, String name) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT current_setting(?)")) {
      ps.setString(1, name);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        return rs.getString(1);
      }
    }
  }

  private StoredRequest storedRequest(Connection c, IntentRecord r) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT "
                + IntentSql.RECORD
                + ", "
                + IntentSql.RELAY
                + " FROM "
                + schema
                + "."
                + BATCHED
                + " WHERE tenant = ? AND operation = ? AND intent_id = ?")) {
      IntentRows.bindPk(ps, 1, r.scope(), r.intentId());
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        IntentRows.Readback stored = IntentRows.readRequest(rs, IntentRows.read(rs), SEAL);
        return stored == null ? null : stored.request();
      }
    }
  }

  /** Every row of a table, every column but the random begin nonce, in key order. */
  private List<List<Object>> contents(String table) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    try (Connection c = pool.getConnection();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT * FROM "
                    + schema
                    + "."
                    + table
                    + " ORDER BY tenant, operation, intent_id")) {
      ResultSetMetaData meta = rs.getMetaData();
      while (rs.next()) {
        List<Object> row = new ArrayList<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
          if (!meta.getColumnName(i).equals("begin_nonce")) {
            Object v = rs.getObject(i);
            row.add(v instanceof byte[] bytes ? Arrays.toString(bytes) : v);
          }
        }
        rows.add(row);
      }
    }
    return rows;
  }
}
