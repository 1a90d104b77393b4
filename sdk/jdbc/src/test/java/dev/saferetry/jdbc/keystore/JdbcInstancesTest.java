package dev.saferetry.jdbc.keystore;

import static dev.saferetry.jdbc.keystore.JdbcBeginRaceTest.SCOPE;
import static dev.saferetry.jdbc.keystore.JdbcBeginRaceTest.T0;
import static dev.saferetry.jdbc.keystore.JdbcBeginRaceTest.candidate;
import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.internal.outbox.LeasedIntent;
import dev.saferetry.jdbc.internal.outbox.RelayLeases;
import dev.saferetry.jdbc.outbox.JdbcOutboxLeaseTest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Several service instances (each with its own pool and store) working one table at once. */
class JdbcInstancesTest {

  @ParameterizedTest
  @EnumSource(Db.class)
  void concurrentRelaysClaimEveryIntentExactlyOnce(Db db) throws Exception {
    int intents = 120;
    try (TestDatabase database = db.open();
        JdbcKeyStore store = database.builder().build()) {
      String[] ids = new String[intents];
      for (int i = 0; i < intents; i++) {
        ids[i] = "order-" + i;
      }
      Instant now = JdbcOutboxLeaseTest.enqueue(database, store, ids);
      Map<String, Integer> claims = new ConcurrentHashMap<>();
      AtomicInteger done = new AtomicInteger();

      onInstances(
          database,
          4,
          (instance, n) -> {
            for (int round = 0; done.get() < intents && round < 5_000; round++) {
              for (LeasedIntent l :
                  RelayLeases.of(instance).claim("relay-" + n, now, Duration.ofMinutes(10), 7)) {
                claims.merge(l.record().intentId(), 1, Integer::sum);
                IntentRecord ok = l.record().complete(IntentState.SUCCEEDED, 201, "ch_" + n);
                assertThat(RelayLeases.of(instance).complete(l.lease(), ok, null)).isTrue();
                done.incrementAndGet();
              }
            }
          });

      assertThat(claims).hasSize(intents);
      assertThat(claims.values()).containsOnly(1);
      assertThat(store.pending()).isEmpty();
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void twoInstancesPurgingAtOnceDeleteEveryExpiredRecordExactlyOnce(Db db) throws Exception {
    int expired = 600;
    try (TestDatabase database = db.open();
        JdbcKeyStore store = database.builder().build()) {
      for (int i = 0; i < expired; i++) {
        IntentRecord r = candidate("done-" + i, "fp", T0);
        store.begin(r);
        store.complete(r.complete(IntentState.SUCCEEDED, 201, null));
      }
      store.begin(candidate("open", "fp", T0));
      // Two hours go by on the database's clock: the records so far expired an hour ago.
      JdbcRetentionClockSkewTest.age(database, Duration.ofHours(2));
      IntentRecord open = store.find(SCOPE, "open").orElseThrow();
      IntentRecord recent = store.begin(candidate("recent", "fp", T0)).record();
      store.complete(recent.complete(IntentState.FAILED, 400, null));
      Instant now = Instant.parse("2200-01-01T00:00:00Z"); // later than the database's clock
      List<Integer> purged = new ArrayList<>();

      onInstances(
          database,
          2,
          (instance, n) -> {
            int count = instance.purgeExpired(now);
            synchronized (purged) {
              purged.add(count);
            }
          });

      assertThat(purged.stream().mapToInt(Integer::intValue).sum()).isEqualTo(expired);
      assertThat(store.find(SCOPE, "done-0")).isEmpty();
      assertThat(store.find(SCOPE, "open")).contains(open);
      assertThat(store.find(SCOPE, "recent")).isPresent();
      assertThat(store.purgeExpired(now)).isZero();
    }
  }

  interface InstanceWork {
    void run(JdbcKeyStore instance, int n) throws Exception;
  }

  /** Runs {@code work} on {@code count} stores, each with its own 2-connection pool, at once. */
  private static void onInstances(TestDatabase database, int count, InstanceWork work)
      throws Exception {
    CyclicBarrier start = new CyclicBarrier(count);
    ExecutorService threads = Executors.newFixedThreadPool(count);
    List<JdbcKeyStore> stores = new ArrayList<>();
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int n = 0; n < count; n++) {
        JdbcKeyStore instance =
            JdbcKeyStore.builder()
                .dataSource(database.newPool(2))
                .outboxSealKey(TestDatabase.SEAL_KEY_ID, TestDatabase.sealSecret())
                .schema(database.schema)
                .purgeBatchSize(50)
                .build();
        stores.add(instance);
        int id = n;
        futures.add(
            threads.submit(
                () -> {
                  start.await(30, TimeUnit.SECONDS);
                  work.run(instance, id);
                  return null;
                }));
      }
      for (Future<?> f : futures) {
        f.get(120, TimeUnit.SECONDS);
      }
    } finally {
      threads.shutdownNow();
      stores.forEach(JdbcKeyStore::close);
    }
  }
}
