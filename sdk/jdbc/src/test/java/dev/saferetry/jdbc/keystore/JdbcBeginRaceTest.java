package dev.saferetry.jdbc.keystore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.idempotency.BeginResult;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** 32 threads, one store per database pool of 16 connections, racing to begin the same intents. */
public class JdbcBeginRaceTest {
  public static final IntentScope SCOPE = new IntentScope("default", "POST /v1/charges");
  public static final Instant T0 = Instant.parse("2026-03-01T12:00:00.000000001Z");
  private static final int THREADS = 32;

  public static IntentRecord candidate(String intentId, String fingerprint, Instant at) {
    return IntentRecord.pending(
        SCOPE, intentId, IdempotencyKey.random(), fingerprint, at, Duration.ofHours(1));
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void thirtyTwoThreadsBeginningTheSameIntentsRecordEachExactlyOnce(Db db) throws Exception {
    int intents = 25;
    try (TestDatabase database = db.open();
        JdbcKeyStore store = storeWith16Connections(database)) {
      List<List<BeginResult>> perThread =
          race(
              t -> {
                List<Integer> order = new ArrayList<>();
                for (int i = 0; i < intents; i++) {
                  order.add(i);
                }
                Collections.shuffle(order, new Random(t));
                List<BeginResult> results = new ArrayList<>();
                for (int i : order) {
                  results.add(store.begin(candidate("order-" + i, "fp-" + i, T0)));
                }
                return results;
              });
      Map<String, List<BeginResult>> byIntent =
          perThread.stream()
              .flatMap(List::stream)
              .collect(Collectors.groupingBy(r -> r.record().intentId()));
      assertThat(byIntent).hasSize(intents);
      byIntent.forEach(
          (id, results) -> {
            assertThat(results).hasSize(THREADS);
            assertThat(results.stream().filter(BeginResult::created)).as(id).hasSize(1);
            IdempotencyKey winner = store.find(SCOPE, id).orElseThrow().key();
            assertThat(results).allSatisfy(r -> assertThat(r.record().key()).isEqualTo(winner));
          });
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void racersWithAnotherPayloadGetTheWinnersRecordNeverASecondKey(Db db) throws Exception {
    try (TestDatabase database = db.open();
        JdbcKeyStore store = storeWith16Connections(database)) {
      List<BeginResult> results =
          race(t -> store.begin(candidate("order-1", t % 2 == 0 ? "fp-a" : "fp-b", T0)));
      assertThat(results.stream().filter(BeginResult::created)).hasSize(1);
      IntentRecord stored = store.find(SCOPE, "order-1").orElseThrow();
      assertThat(results)
          .allSatisfy(
              r -> {
                assertThat(r.record().key()).isEqualTo(stored.key());
                assertThat(r.record().fingerprint()).isEqualTo(stored.fingerprint());
              });
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void racingReplacementsOfAnExpiredCompletedIntentMintExactlyOneNewKey(Db db) throws Exception {
    try (TestDatabase database = db.open();
        JdbcKeyStore store = storeWith16Connections(database)) {
      IntentRecord old = candidate("order-1", "fp", T0);
      store.begin(old);
      store.complete(old.complete(IntentState.SUCCEEDED, 201, "ch_1"));
      JdbcRetentionClockSkewTest.age(database, Duration.ofHours(2)); // expired by its clock
      Instant later = T0.plus(Duration.ofHours(2));

      List<BeginResult> results = race(t -> store.begin(candidate("order-1", "fp", later)));

      assertThat(results.stream().filter(BeginResult::created)).hasSize(1);
      IntentRecord stored = store.find(SCOPE, "order-1").orElseThrow();
      assertThat(stored.key()).isNotEqualTo(old.key());
      assertThat(stored.state()).isEqualTo(IntentState.PENDING);
      assertThat(results).allSatisfy(r -> assertThat(r.record().key()).isEqualTo(stored.key()));
    }
  }

  private static JdbcKeyStore storeWith16Connections(TestDatabase database) {
    return JdbcKeyStore.builder()
        .dataSource(database.newPool(16))
        .schema(database.schema)
        .createSchema(true)
        .build();
  }

  /** Work one racing thread does. */
  @FunctionalInterface
  public interface Racer<T> {
    T run(int thread) throws Exception;
  }

  /** Runs {@code work(thread)} on 32 threads released at once; returns the results in order. */
  public static <T> List<T> race(Racer<T> work) throws Exception {
    return race(THREADS, work);
  }

  /** Runs {@code work(thread)} on {@code threads} threads released at once, results in order. */
  public static <T> List<T> race(int threads, Racer<T> work) throws Exception {
    CyclicBarrier start = new CyclicBarrier(threads);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        futures.add(
            pool.submit(
                () -> {
                  start.await(30, TimeUnit.SECONDS);
                  return work.run(thread);
                }));
      }
      List<T> results = new ArrayList<>();
      for (Future<T> f : futures) {
        results.add(f.get(60, TimeUnit.SECONDS));
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }
}
