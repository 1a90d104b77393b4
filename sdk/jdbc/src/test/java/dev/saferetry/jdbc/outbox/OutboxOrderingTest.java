package dev.saferetry.jdbc.outbox;

import static dev.saferetry.jdbc.outbox.OutboxRelayTest.atDatabaseTime;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.elapse;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.relay;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.stored;
import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.idempotency.BeginResult;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.internal.outbox.LeasedIntent;
import dev.saferetry.jdbc.internal.outbox.RelayLeases;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.resilience.RetryPolicy;
import dev.saferetry.testing.FakeTime;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Intents of one ordering key are sent one at a time, in the order their transactions committed,
 * whichever relay claims them; intents without a key and of other keys are not held up.
 */
class OutboxOrderingTest {
  static final IntentScope SCOPE = new IntentScope("default", Charges.CREATE.name());

  /** Enqueues a charge of {@code intentId} under {@code orderingKey} (null: none) in {@code c}. */
  static BeginResult enqueue(
      Connection c,
      JdbcKeyStore store,
      SafeRetryClient client,
      FakeTime time,
      String orderingKey,
      String intentId,
      long amount) {
    ChargeCreateParams body = new ChargeCreateParams(amount, "eur", intentId, null);
    RequestOptions options = RequestOptions.none().withIntentId(intentId);
    return orderingKey == null
        ? JdbcOutbox.of(store).enqueue(c, client, Charges.CREATE, body, options, time.instant())
        : JdbcOutbox.of(store)
            .enqueue(c, orderingKey, client, Charges.CREATE, body, options, time.instant());
  }

  /** Enqueues and commits one charge. */
  static BeginResult commit(
      TestDatabase database,
      JdbcKeyStore store,
      SafeRetryClient client,
      FakeTime time,
      String orderingKey,
      String intentId,
      long amount)
      throws Exception {
    try (Connection c = database.pool().getConnection()) {
      c.setAutoCommit(false);
      BeginResult r = enqueue(c, store, client, time, orderingKey, intentId, amount);
      c.commit();
      return r;
    }
  }

  /** A client that makes one attempt per send, so that each claim is one request. */
  static SafeRetryClient oneAttempt(MockWebServer server, FakeTime time, JdbcKeyStore store) {
    return RelayRows.client(
        server,
        time,
        store,
        b ->
            b.retryPolicy(
                RetryPolicy.defaults().withMaxAttempts(1).withDeadline(Duration.ofSeconds(55))));
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void twoRelaysSendAKeysIntentsInCommitOrderAndTheSecondNeverBeforeTheFirstSucceeded(Db db)
      throws Exception {
    try (TestDatabase database = db.open();
        JdbcKeyStore store = database.builder().build();
        MockWebServer server = new MockWebServer()) {
      server.start(0);
      FakeTime time = atDatabaseTime();
      try (SafeRetryClient client = oneAttempt(server, time, store)) {
        // order-2 commits first, due 30 s after its enqueue; order-1 is enqueued afterwards, due
        // at once: it is due 30 s before order-2, yet it committed last.
        try (Connection c = database.pool().getConnection()) {
          c.setAutoCommit(false);
          JdbcOutbox.of(store)
              .enqueue(
                  c,
                  "order-42",
                  client,
                  Charges.CREATE,
                  new ChargeCreateParams(2000, "eur", "order-2", null),
                  RequestOptions.none().withIntentId("order-2"),
                  time.instant().plusSeconds(30));
          c.commit();
        }
        commit(database, store, client, time, "order-42", "order-1", 1000);
        commit(database, store, client, time, null, "free-1", 10);
        commit(database, store, client, time, "order-43", "other-1", 20);
        assertThat(stored(database, "next_attempt_ns", "order-1"))
            .isBefore(stored(database, "next_attempt_ns", "order-2"));
        elapse(database, time, Duration.ofMinutes(1)); // both due

        String first = store.find(SCOPE, "order-2").orElseThrow().key().value();
        List<String> wire = new CopyOnWriteArrayList<>();
        Map<String, AtomicInteger> sends = new ConcurrentHashMap<>();
        List<LeasedIntent> intruder = new CopyOnWriteArrayList<>();
        server.setDispatcher(
            new Dispatcher() {
              @Override
              public MockResponse dispatch(RecordedRequest request) {
                String key = request.getHeaders().get("Idempotency-Key");
                String intent = intentOf(store, key);
                wire.add(intent);
                int n = sends.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
                if (key.equals(first) && n == 1) {
                  // A third relay claims while order-2 is on the wire: order-1 is not its to take.
                  intruder.addAll(
                      RelayLeases.of(store).claim("relay-c", Duration.ofSeconds(60), 10));
                }
                return key.equals(first) && n <= 3 ? status(503) : charge();
              }
            });

        OutboxRelay a = relay(store, client, time).owner("relay-a").build();
        OutboxRelay b = relay(store, client, time).owner("relay-b").build();
        List<Integer> claimsByB = new ArrayList<>();
        for (int pass = 0; pass < 8 && pending(store) > 0; pass++) {
          RelayPass p = (pass % 2 == 0 ? a : b).runOnce();
          if (pass % 2 == 1) {
            claimsByB.add(p.claimed());
          }
          elapse(database, time, Duration.ofMinutes(5));
        }

        assertThat(pending(store)).isZero();
        assertThat(intruder).extracting(l -> l.record().intentId()).doesNotContain("order-1");
        assertThat(claimsByB).anySatisfy(n -> assertThat(n).isPositive());
        // order-2 failed three times and succeeded on its fourth send; order-1 only after that.
        assertThat(wire.stream().filter("order-2"::equals).count()).isEqualTo(4);
        assertThat(wire.stream().filter("order-1"::equals).count()).isEqualTo(1);
        assertThat(wire.indexOf("order-1")).isGreaterThan(wire.lastIndexOf("order-2"));
        // The intents of no key and of another key went out in the first pass, not held up.
        assertThat(wire.subList(0, 3)).containsExactlyInAnyOrder("order-2", "free-1", "other-1");
        assertThat(store.find(SCOPE, "order-1").orElseThrow().state())
            .isEqualTo(IntentState.SUCCEEDED);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aSecondTransactionOfAKeyWaitsForTheFirstToCommitAndTakesTheNextNumber(Db db)
      throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try (TestDatabase database = db.open();
        JdbcKeyStore store = database.builder().build();
        MockWebServer server = new MockWebServer();
        Connection first = database.connect();
        Connection second = database.connect()) {
      server.start(0);
      FakeTime time = atDatabaseTime();
      try (SafeRetryClient client = oneAttempt(server, time, store)) {
        first.setAutoCommit(false);
        second.setAutoCommit(false);
        // Both create the key's first row: the second waits for the first's transaction.
        enqueue(first, store, client, time, "order-7", "order-7-charge", 700);
        Future<BeginResult> waiting =
            pool.submit(() -> enqueue(second, store, client, time, "order-7", "order-7-fee", 7));
        assertThatThrownBy(() -> waiting.get(300, TimeUnit.MILLISECONDS))
            .isInstanceOf(TimeoutException.class);
        first.commit();
        assertThat(waiting.get(10, TimeUnit.SECONDS).created()).isTrue();
        second.commit();

        assertThat(seq(database, "order-7-charge")).isEqualTo(1);
        assertThat(seq(database, "order-7-fee")).isEqualTo(2);

        // A transaction that rolls back gives its number back; no gap blocks the next.
        enqueue(first, store, client, time, "order-7", "order-7-void", 1);
        first.rollback();
        commit(database, store, client, time, "order-7", "order-7-refund", 70);
        assertThat(seq(database, "order-7-refund")).isEqualTo(3);
        assertThat(store.find(SCOPE, "order-7-void")).isEmpty();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void anOrderedEnqueueOfAnIntentRecordedWithoutItsKeyOrWithAnotherIsRefusedAndChangesNothing(Db db)
      throws Exception {
    try (TestDatabase database = db.open();
        JdbcKeyStore store = database.builder().build();
        MockWebServer server = new MockWebServer()) {
      server.start(0);
      FakeTime time = atDatabaseTime();
      try (SafeRetryClient client = oneAttempt(server, time, store)) {
        commit(database, store, client, time, "order-9", "order-9-charge", 900);
        // The same intent under its own key again: nothing changes, as for any enqueue.
        BeginResult again = commit(database, store, client, time, "order-9", "order-9-charge", 900);
        assertThat(again.created()).isFalse();
        // Under another key, it would be sent outside that key's order: refused.
        assertThatThrownBy(
                () -> commit(database, store, client, time, "order-10", "order-9-charge", 900))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("already in the outbox with ordering key order-9")
            .hasMessageContaining("nothing was enqueued");
        // Queued without a key, or recorded by a call of its own: refused too.
        commit(database, store, client, time, null, "free-charge", 901);
        assertThatThrownBy(
                () -> commit(database, store, client, time, "order-9", "free-charge", 901))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("without an ordering key");
        store.begin(
            IntentRecord.pending(
                SCOPE,
                "direct-charge",
                dev.saferetry.idempotency.IdempotencyKey.random(),
                "fp",
                time.instant(),
                Duration.ofDays(1)));
        assertThatThrownBy(
                () -> commit(database, store, client, time, "order-9", "direct-charge", 902))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("by a call of its own");
        assertThat(RelayRows.text(database, "order-9-charge", "ordering_key")).isEqualTo("order-9");
        assertThat(seq(database, "order-9-charge")).isEqualTo(1);
        assertThat(RelayRows.text(database, "free-charge", "ordering_key")).isNull();
        assertThat(
                database.count("SELECT COUNT(*) FROM " + database.table("saferetry_intents_order")))
            .isEqualTo(1);
        assertThat(server.getRequestCount()).isZero();
      }
    }
  }

  @org.junit.jupiter.api.Test
  void anOrderingKeyThatCannotBeStoredExactlyIsRefusedAndNothingIsStored() throws Exception {
    try (TestDatabase database = Db.H2.open();
        JdbcKeyStore store = database.builder().build();
        MockWebServer server = new MockWebServer();
        Connection c = database.pool().getConnection()) {
      server.start(0);
      FakeTime time = atDatabaseTime();
      c.setAutoCommit(false);
      try (SafeRetryClient client = oneAttempt(server, time, store)) {
        for (String bad :
            new String[] {
              "", " ", "\t", "a".repeat(256), "a\u0000b", "a\nb", "a\u001bb", "\uD800x"
            }) {
          assertThatThrownBy(() -> enqueue(c, store, client, time, bad, "order-1", 1))
              .as("ordering key %s", bad.length() > 10 ? bad.length() + " characters" : bad)
              .isInstanceOf(IllegalArgumentException.class)
              .hasMessageContaining("orderingKey");
        }
        assertThatThrownBy(
                () ->
                    JdbcOutbox.of(store)
                        .enqueue(
                            c,
                            (String) null,
                            client,
                            Charges.CREATE,
                            new ChargeCreateParams(1L, "eur", "x", null),
                            RequestOptions.none().withIntentId("order-1"),
                            time.instant()))
            .isInstanceOf(NullPointerException.class)
            .hasMessageContaining("orderingKey");
        // The longest key and any well-formed text are stored exactly.
        String longest = "\uD83D\uDE00".repeat(127) + "k";
        enqueue(c, store, client, time, longest, "order-2", 2);
        c.commit();
        assertThat(RelayRows.text(database, "order-2", "ordering_key")).isEqualTo(longest);
        assertThat(store.pending()).extracting(r -> r.intentId()).containsExactly("order-2");
      }
    }
  }

  static long seq(TestDatabase database, String intentId) throws Exception {
    return Long.parseLong(RelayRows.text(database, intentId, "ordering_seq"));
  }

  static int pending(JdbcKeyStore store) {
    return store.pending().size();
  }

  /** The intent a request was sent for, by its key. */
  static String intentOf(JdbcKeyStore store, String key) {
    return store.pending().stream()
        .filter(r -> r.key().value().equals(key))
        .map(r -> r.intentId())
        .findFirst()
        .orElse("?");
  }
}
