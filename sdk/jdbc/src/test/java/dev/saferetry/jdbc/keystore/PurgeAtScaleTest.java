package dev.saferetry.jdbc.keystore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.SafeRetryClient;
import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.internal.Dialect;
import dev.saferetry.jdbc.internal.keystore.IntentTable;
import dev.saferetry.jdbc.internal.outbox.LeasedIntent;
import dev.saferetry.jdbc.internal.outbox.RelayLeases;
import dev.saferetry.jdbc.outbox.OutboxRelayTest;
import dev.saferetry.testing.FakeTime;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;

/**
 * On PostgreSQL, a key store of a million rows, 99% of them completed and expired: the purge
 * removes exactly those, in transactions of at most {@code purgeBatchSize} rows that take row locks
 * only, and leaves queued and held intents alone; the relay's claim reads an index before and
 * after. Prints what it measured.
 */
class PurgeAtScaleTest {
  private static final int EXPIRED = 990_000;
  private static final int FRESH = 8_700;
  private static final int HELD = 1_000;
  private static final int QUEUED = 300;
  private static final int BATCH = 10_000;

  /** Modes a purge may hold on the table: those of DELETE and SELECT ... FOR UPDATE. */
  private static final Set<String> ROW_LEVEL =
      Set.of("AccessShareLock", "RowShareLock", "RowExclusiveLock");

  @Test
  void aMillionRowsArePurgedInBoundedBatchesThatKeepQueuedAndHeldIntents() throws Exception {
    try (TestDatabase database = Db.POSTGRESQL.open();
        MockWebServer server = new MockWebServer()) {
      Counting counting = new Counting();
      JdbcKeyStore store =
          JdbcKeyStore.builder()
              .dataSource(counting.wrap(database.pool()))
              .outboxSealKey(TestDatabase.SEAL_KEY_ID, TestDatabase.sealSecret())
              .schema(database.schema)
              .createSchema(true)
              .purgeBatchSize(BATCH)
              .build();
      String table = database.table(JdbcKeyStoreBuilder.DEFAULT_TABLE);
      server.start(0);
      FakeTime time = OutboxRelayTest.atDatabaseTime();
      long started = System.nanoTime();
      try (SafeRetryClient client = OutboxRelayTest.client(server, time, store)) {
        int[] orders = new int[QUEUED];
        for (int i = 0; i < QUEUED; i++) {
          orders[i] = i + 1;
        }
        OutboxRelayTest.enqueue(database, store, client, time, true, orders);
      }
      long enqueued = System.nanoTime();
      Instant now = OutboxRelayTest.databaseTime(database);
      long ns = now.getEpochSecond() * 1_000_000_000L + now.getNano();
      long hour = 3_600_000_000_000L;
      String columns =
          " (tenant, operation, intent_id, idempotency_key, fingerprint, state, created_at_ns,"
              + " expires_at_ns, status, begin_nonce, relay_state, hold_reason) ";
      // Loaded as a bulk load is, without the indexes, which the migration then builds again.
      database.execute(
          "ALTER TABLE " + table + " DROP CONSTRAINT saferetry_intents_pkey",
          "DROP INDEX "
              + String.join(
                  ", ",
                  database.table("saferetry_intents_pending"),
                  database.table("saferetry_intents_expiry"),
                  database.table("saferetry_intents_relay"),
                  database.table("saferetry_intents_ordering")));
      database.execute(
          // completed and expired: half of them sent by a relay, half direct calls
          "INSERT INTO "
              + table
              + columns
              + "SELECT 'default', 'POST /v1/charges', 'old-' || g, 'key-old-' || g, 'fp', 1, "
              + (ns - 2 * hour)
              + " + g, "
              + (ns - hour)
              + " + g, 200, g, CASE WHEN g % 2 = 0 THEN 1 END, NULL"
              + " FROM generate_series(1, "
              + EXPIRED
              + ") g",
          // completed, not yet expired
          "INSERT INTO "
              + table
              + columns
              + "SELECT 'default', 'POST /v1/charges', 'new-' || g, 'key-new-' || g, 'fp', 1, "
              + ns
              + ", "
              + (ns + 24 * hour)
              + " + g, 200, g, 1, NULL FROM generate_series(1, "
              + FRESH
              + ") g",
          // held for a person (rejected), expired long ago: never purged
          "INSERT INTO "
              + table
              + columns
              + "SELECT 'default', 'POST /v1/charges', 'held-' || g, 'key-held-' || g, 'fp', 2, "
              + (ns - 2 * hour)
              + ", "
              + (ns - hour)
              + ", 402, g, 2, 2 FROM generate_series(1, "
              + HELD
              + ") g",
          "ALTER TABLE " + table + " ADD PRIMARY KEY (tenant, operation, intent_id)");
      try (Connection c = database.pool().getConnection()) {
        new IntentTable(Dialect.POSTGRESQL, database.schema, JdbcKeyStoreBuilder.DEFAULT_TABLE)
            .script(1)
            .run(c);
      }
      database.execute("ANALYZE " + table);
      assertThat(database.count("SELECT COUNT(*) FROM " + table)).isEqualTo(1_000_000);
      long built = System.nanoTime();

      claimMicros(store, 10); // warms the statement and the connection up
      long claimBefore = claimMicros(store, 100);

      AtomicBoolean purging = new AtomicBoolean(true);
      Set<String> modes = ConcurrentHashMap.newKeySet();
      CompletableFuture<Integer> watcher =
          CompletableFuture.supplyAsync(() -> watchLocks(database, table, purging, modes));
      counting.reset();
      long purgeStart = System.nanoTime();
      int purged;
      try {
        purged = store.purgeExpired(now);
      } finally {
        purging.set(false);
      }
      long purgeMillis = (System.nanoTime() - purgeStart) / 1_000_000;
      int samples = watcher.get(30, TimeUnit.SECONDS);

      assertThat(purged).isEqualTo(EXPIRED);
      assertThat(counting.largestDelete.get()).isEqualTo(BATCH);
      assertThat(counting.commits.get())
          .as("99 full batches, then an empty one, then one for the ordering keys (none)")
          .isEqualTo(101);
      assertThat(modes).isNotEmpty().isSubsetOf(ROW_LEVEL);
      assertThat(database.count("SELECT COUNT(*) FROM " + table + " WHERE intent_id LIKE 'old-%'"))
          .isZero();
      assertThat(database.count("SELECT COUNT(*) FROM " + table + " WHERE state = 0"))
          .as("queued intents")
          .isEqualTo(QUEUED);
      assertThat(database.count("SELECT COUNT(*) FROM " + table + " WHERE relay_state = 2"))
          .as("held intents")
          .isEqualTo(HELD);
      assertThat(database.count("SELECT COUNT(*) FROM " + table)).isEqualTo(QUEUED + FRESH + HELD);

      long claimAfter = claimMicros(store, 100);

      // The statements the store ran walk an index, never the table.
      String purgePlan = plan(database, counting.purge, ns, BATCH, ns);
      assertThat(purgePlan)
          .contains("Tid Scan", "saferetry_intents_expiry")
          .doesNotContain("Seq Scan");
      // PostgreSQL claims in one statement: owner, lease end, then now, now, oldest, now, limit.
      String claimPlan = plan(database, counting.claim, "bench", ns, ns, ns, 0L, ns, 100L);
      assertThat(claimPlan).contains("saferetry_intents_relay").doesNotContain("Seq Scan");
      System.out.printf(
          "PurgeAtScaleTest: enqueued %,d intents in %d ms, loaded the other rows and built the"
              + " indexes in %d ms;"
              + " claim of 100 due intents %d us before"
              + " the purge, %d us after; purge of %d rows in batches of %d: %d ms (%d lock"
              + " samples, modes %s)%n",
          QUEUED,
          (enqueued - started) / 1_000_000,
          (built - enqueued) / 1_000_000,
          claimBefore,
          claimAfter,
          purged,
          BATCH,
          purgeMillis,
          samples,
          modes);
      assertThat(Duration.ofMillis(purgeMillis)).isLessThan(Duration.ofMinutes(2)); // sanity only
    }
  }

  /** Claims {@code n} due intents (leasing them) and returns how long the claim took. */
  private static long claimMicros(JdbcKeyStore store, int n) {
    long start = System.nanoTime();
    List<LeasedIntent> claimed = RelayLeases.of(store).claim("bench", Duration.ofMinutes(5), n);
    long micros = (System.nanoTime() - start) / 1_000;
    assertThat(claimed).hasSize(n);
    return micros;
  }

  /** PostgreSQL's plan of a statement for the given parameters (not run). */
  private static String plan(TestDatabase database, String sql, Object... parameters)
      throws Exception {
    assertThat(sql).isNotNull();
    StringBuilder out = new StringBuilder();
    try (Connection c = database.pool().getConnection();
        PreparedStatement ps = c.prepareStatement("EXPLAIN " + sql)) {
      for (int i = 0; i < parameters.length; i++) {
        if (parameters[i] instanceof Long n && n <= Integer.MAX_VALUE) {
          ps.setInt(i + 1, n.intValue());
        } else {
          ps.setObject(i + 1, parameters[i]);
        }
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.append(rs.getString(1)).append('\n');
        }
      }
    }
    return out.toString();
  }

  /**
   * Samples, until the purge ends, the modes of the locks other transactions hold on the table (the
   * server waits 20 ms between samples); returns how many samples were taken.
   */
  private static int watchLocks(
      TestDatabase database, String table, AtomicBoolean purging, Set<String> modes) {
    int samples = 0;
    try (Connection c = database.connect();
        PreparedStatement locks =
            c.prepareStatement(
                "SELECT mode FROM pg_locks WHERE relation = CAST(? AS regclass)"
                    + " AND pid <> pg_backend_pid()");
        PreparedStatement pause = c.prepareStatement("SELECT pg_sleep(0.02)")) {
      locks.setString(1, table);
      while (purging.get()) {
        try (ResultSet rs = locks.executeQuery()) {
          while (rs.next()) {
            modes.add(rs.getString(1));
          }
        }
        samples++;
        pause.executeQuery().close();
      }
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return samples;
  }

  /**
   * Counts commits and the most rows one DELETE removed, on every connection of a data source, and
   * keeps the text of the purge's DELETE and of the claim's SELECT.
   */
  private static final class Counting {
    final AtomicInteger commits = new AtomicInteger();
    final AtomicInteger largestDelete = new AtomicInteger();
    volatile String purge;
    volatile String claim;

    void reset() {
      commits.set(0);
      largestDelete.set(0);
    }

    DataSource wrap(DataSource pool) {
      return proxy(
          DataSource.class,
          pool,
          (method, result, args) ->
              method.equals("getConnection")
                  ? proxy(Connection.class, result, this::connection)
                  : result);
    }

    private Object connection(String method, Object result, Object[] args) {
      if (method.equals("commit")) {
        commits.incrementAndGet();
      }
      String sql = method.equals("prepareStatement") ? (String) args[0] : "";
      if (sql.contains("relay_state = 0 AND next_attempt_ns") && sql.contains("SKIP LOCKED")) {
        claim = sql;
      }
      if (sql.startsWith("DELETE")) {
        purge = sql;
        return proxy(
            PreparedStatement.class,
            result,
            (m, r, a) -> {
              if (m.equals("executeUpdate")) {
                largestDelete.accumulateAndGet((Integer) r, Math::max);
              }
              return r;
            });
      }
      return result;
    }

    /** What a proxy does with each call's result. */
    interface After {
      Object apply(String method, Object result, Object[] args);
    }

    private static <T> T proxy(Class<T> type, Object target, After after) {
      return type.cast(
          Proxy.newProxyInstance(
              type.getClassLoader(),
              new Class<?>[] {type},
              (p, method, args) -> {
                try {
                  return after.apply(method.getName(), method.invoke(target, args), args);
                } catch (InvocationTargetException e) {
                  throw e.getCause();
                }
              }));
    }
  }
}
