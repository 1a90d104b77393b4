package dev.saferetry.jdbc.outbox;

import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.drain;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.internal.DatabaseTime;
import dev.saferetry.jdbc.internal.Dialect;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.jdbc.keystore.JdbcKeyStoreBuilder;
import dev.saferetry.jdbc.keystore.JdbcRetentionClockSkewTest;
import dev.saferetry.provider.StripeReconciler;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.resilience.RetryPolicy;
import dev.saferetry.testing.Answers;
import dev.saferetry.testing.FakeTime;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The relay sends outbox intents through the client with their stored key and bytes, records the
 * outcome under its lease, backs off, holds what needs a person, and never records under a lost
 * lease.
 */
public class OutboxRelayTest {
  public static final String API_KEY = "sk_test_relay_0123456789";

  /** Enqueues a charge for each order in one transaction, committed or rolled back. */
  public static void enqueue(
      TestDatabase database,
      JdbcKeyStore store,
      SafeRetryClient client,
      FakeTime time,
      boolean commit,
      int... n)
      throws Exception {
    try (Connection c = database.pool().getConnection()) {
      c.setAutoCommit(false);
      for (int order : n) {
        JdbcOutbox.of(store)
            .enqueue(
                c,
                client,
                Charges.CREATE,
                new ChargeCreateParams(1000L * order, "eur", "order " + order, null),
                RequestOptions.none()
                    .withIntentId("order-" + order)
                    .withHeader("Stripe-Account", "acct_" + order),
                time.instant());
      }
      if (commit) {
        c.commit();
      } else {
        c.rollback();
      }
    }
  }

  /** One relay case: a database, its store, a server, fake time and a client on them. */
  interface RelayCase {
    void run(
        TestDatabase database,
        JdbcKeyStore store,
        MockWebServer server,
        FakeTime time,
        SafeRetryClient client)
        throws Exception;
  }

  /** Runs {@code body} on a fresh database of kind {@code db}, closing everything afterwards. */
  public static void withRelay(Db db, RelayCase body) throws Exception {
    try (TestDatabase database = db.open();
        JdbcKeyStore store = database.builder().build();
        MockWebServer server = new MockWebServer()) {
      server.start(0);
      FakeTime time = atDatabaseTime();
      try (SafeRetryClient client = client(server, time, store)) {
        body.run(database, store, server, time, client);
      }
    }
  }

  /**
   * Fake time starting at the real time: a pending intent's expiry is judged at the later of the
   * client's clock and the database's.
   */
  public static FakeTime atDatabaseTime() {
    FakeTime time = new FakeTime();
    time.advance(Duration.between(time.instant(), Instant.now()));
    return time;
  }

  /** Answers the server's requests with {@code byRequest}, given each request's number from 1. */
  public static void answer(MockWebServer server, IntFunction<MockResponse> byRequest) {
    AtomicInteger n = new AtomicInteger();
    server.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            return byRequest.apply(n.incrementAndGet());
          }
        });
  }

  /**
   * Lets {@code d} go by for the relays and the database alike. The relays' fake clock moves on;
   * the database's clock cannot be moved, so every time stored in the table moves back by {@code d}
   * instead, which is the same to every lease, due-time and age decision made at the database's
   * clock.
   */
  public static void elapse(TestDatabase database, FakeTime time, Duration d) {
    time.advance(d);
    long ns = d.toNanos();
    try {
      // Rows the SDK sealed stay sealed: their sealed times move with the clock (see RowSeal).
      List<IntentRecord> sealed = RelayRows.validlySealed(database);
      database.execute(
          "UPDATE "
              + database.table(JdbcKeyStoreBuilder.DEFAULT_TABLE)
              + " SET created_at_ns = created_at_ns - "
              + ns
              + ", expires_at_ns = expires_at_ns - "
              + ns
              + ", next_attempt_ns = next_attempt_ns - "
              + ns
              + ", lease_expires_ns = lease_expires_ns - "
              + ns);
      RelayRows.resealMoved(database, sealed);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot move the stored times", e);
    }
  }

  /**
   * The database's clock now, read with a query of its own at the call (never a store's cached
   * reading advanced by this process's clock, which can run ahead of the database by as long as
   * that reading's round trip took: under load, long enough to break a comparison). A reading taken
   * before an action is a lower bound of the database's time during it, one taken after an upper
   * bound.
   */
  public static Instant databaseTime(TestDatabase database) {
    try (Connection c = database.pool().getConnection()) {
      return DatabaseTime.query(c, Dialect.valueOf(database.db.name()));
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the database's clock", e);
    }
  }

  /** A stored time column of one intent, or null. */
  public static Instant stored(TestDatabase database, String column, String intentId)
      throws SQLException {
    String ns =
        database.text(
            "SELECT "
                + column
                + " FROM "
                + database.table(JdbcKeyStoreBuilder.DEFAULT_TABLE)
                + " WHERE intent_id = '"
                + intentId
                + "'");
    return ns == null ? null : Instant.EPOCH.plusNanos(Long.parseLong(ns));
  }

  /**
   * Another store on the table of {@code database}, whose outbox's maximum age is {@code maxAge}
   * (the table's rule is a store's setting).
   */
  public static JdbcKeyStore aged(TestDatabase database, Duration maxAge) {
    return database.builder().outboxMaxAge(maxAge).build();
  }

  public static SafeRetryClient client(MockWebServer server, FakeTime time, JdbcKeyStore store) {
    return SafeRetryClient.builder()
        .baseUrl(server.url("/").toString())
        .apiKey(API_KEY)
        .keyStore(store)
        .clock(time)
        .sleeper(time)
        .jitter(() -> 0.5)
        .breakerPolicy(BreakerPolicy.disabled())
        .retryPolicy(RetryPolicy.defaults().withDeadline(Duration.ofSeconds(55)))
        .build();
  }

  /**
   * A relay at fake time that sends a pass's intents one after another, so that the wire order is
   * the claim order (oldest due first); {@code OutboxRelayFleetTest} sends concurrently.
   */
  public static OutboxRelayBuilder relay(
      JdbcKeyStore store, SafeRetryClient client, FakeTime time) {
    return OutboxRelay.builder()
        .store(store)
        .client(client)
        .concurrency(1)
        .owner("relay-a")
        .clock(time)
        .sleeper(time)
        .leaseFor(Duration.ofSeconds(60))
        .backoff(Duration.ofSeconds(10), Duration.ofMinutes(5));
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void sendsCommittedIntentsOnceWithTheirStoredKeyAndBytes(Db db) throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          enqueue(database, store, client, time, true, 1, 2);
          enqueue(database, store, client, time, false, 3); // rolled back: never sent
          List<IntentRecord> recorded = client.pendingIntents();
          assertThat(recorded)
              .extracting(IntentRecord::intentId)
              .containsExactly("order-1", "order-2");
          List<OutboxIntent> none = JdbcOutbox.of(store).held();
          assertThat(none).isEmpty();

          server.enqueue(charge());
          server.enqueue(charge());
          OutboxRelay relay = relay(store, client, time).build();
          RelayPass pass = relay.runOnce();
          assertThat(pass.claimed()).isEqualTo(2);
          assertThat(pass.succeeded()).isEqualTo(2);

          List<RecordedRequest> wire = drain(server);
          assertThat(wire).hasSize(2);
          for (int i = 0; i < 2; i++) {
            RecordedRequest r = wire.get(i);
            IntentRecord intent = recorded.get(i);
            assertThat(r.getHeaders().get("Idempotency-Key")).isEqualTo(intent.key().value());
            assertThat(r.getHeaders().get("Stripe-Account")).isEqualTo("acct_" + (i + 1));
            assertThat(r.getHeaders().get("Authorization")).isEqualTo("Bearer " + API_KEY);
            assertThat(r.getUrl().encodedPath()).isEqualTo("/v1/charges");
            assertThat(r.getBody().utf8())
                .isEqualTo(
                    "{\"amount\":"
                        + (1000 * (i + 1))
                        + ",\"currency\":\"eur\",\"description\":\"order "
                        + (i + 1)
                        + "\"}");
            IntentRecord done = store.find(intent.scope(), intent.intentId()).orElseThrow();
            assertThat(done.state()).isEqualTo(IntentState.SUCCEEDED);
            assertThat(done.resourceId()).isEqualTo("ch_1");
            assertThat(done.key()).isEqualTo(intent.key());
          }
          assertThat(relay.runOnce().claimed()).isZero();
          elapse(database, time, Duration.ofHours(1));
          assertThat(relay.runOnce().claimed()).isZero();
          assertThat(server.getRequestCount()).isEqualTo(2);
          assertThat(client.pendingIntents()).isEmpty();
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void anUnknownOutcomeBacksOffAndTheNextTryReusesTheKey(Db db) throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          enqueue(database, store, client, time, true, 1);
          IntentRecord intent = client.pendingIntents().get(0);
          for (int i = 0; i < 4; i++) {
            server.enqueue(status(503));
          }
          OutboxRelay relay = relay(store, client, time).build();
          RelayPass first = relay.runOnce();
          assertThat(first.retried()).isEqualTo(1);
          assertThat(server.getRequestCount()).isEqualTo(4); // the client's own retries
          assertThat(relay.runOnce().claimed()).isZero(); // backing off

          elapse(database, time, Duration.ofSeconds(10));
          server.enqueue(charge());
          RelayPass second = relay.runOnce();
          assertThat(second.succeeded()).isEqualTo(1);
          List<RecordedRequest> wire = drain(server);
          assertThat(Answers.keys(wire, "Idempotency-Key"))
              .hasSize(5)
              .containsOnly(intent.key().value());
          assertThat(wire)
              .extracting(r -> r.getBody().utf8())
              .containsOnly(wire.get(0).getBody().utf8());
          assertThat(store.find(intent.scope(), "order-1").orElseThrow().state())
              .isEqualTo(IntentState.SUCCEEDED);
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aDefinitiveRejectionIsHeldForAPersonAndNotSentAgain(Db db) throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          enqueue(database, store, client, time, true, 1);
          server.enqueue(status(402));
          OutboxRelay relay = relay(store, client, time).build();
          assertThat(relay.runOnce().rejected()).isEqualTo(1);
          List<OutboxIntent> held = JdbcOutbox.of(store).held();
          assertThat(held).hasSize(1);
          assertThat(held.get(0).reason()).isEqualTo(HoldReason.REJECTED);
          assertThat(held.get(0).record().state()).isEqualTo(IntentState.FAILED);
          assertThat(held.get(0).record().status()).isEqualTo(402);
          assertThat(held.get(0).note()).contains("402");
          elapse(database, time, Duration.ofHours(1));
          assertThat(relay.runOnce().claimed()).isZero();
          assertThat(server.getRequestCount()).isEqualTo(1);
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void anIntentOlderThanTheMaximumAgeIsHeldExpiredWithoutSending(Db db) throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          enqueue(database, store, client, time, true, 1);
          elapse(database, time, Duration.ofHours(2));
          OutboxRelay relay = relay(aged(database, Duration.ofHours(1)), client, time).build();
          assertThat(relay.runOnce().expired()).isEqualTo(1);
          assertThat(JdbcOutbox.of(store).held())
              .singleElement()
              .satisfies(h -> assertThat(h.reason()).isEqualTo(HoldReason.EXPIRED));
          assertThat(server.getRequestCount()).isZero();
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aRelayWhoseClockRunsBehindDoesNotSendAnIntentTheDatabasesClockCallsExpired(Db db)
      throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          // The intent was enqueued 30 h ago by the database's clock: its 24 h retention has
          // passed. This instance's clock runs 30 h behind the database's: by its own clock the
          // intent is brand new.
          enqueue(database, store, client, time, true, 1);
          JdbcRetentionClockSkewTest.age(database, Duration.ofHours(30));
          time.advance(Duration.ofHours(-30));
          server.enqueue(charge()); // what a stale re-send would get
          RelayPass pass = relay(store, client, time).build().runOnce();
          assertThat(pass.expired()).isEqualTo(1);
          assertThat(server.getRequestCount()).isZero();
          assertThat(JdbcOutbox.of(store).held())
              .singleElement()
              .satisfies(h -> assertThat(h.reason()).isEqualTo(HoldReason.EXPIRED));
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void heldIntentsAreReconciledWithTheProviderWhenTheOperationHasAReconciler(Db db)
      throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          enqueue(database, store, client, time, true, 1, 2);
          elapse(database, time, Duration.ofHours(2));
          server.enqueue(
              Answers.json(
                  200,
                  "{\"object\":\"search_result\",\"has_more\":false,\"data\":[{\"id\":"
                      + "\"ch_found\",\"object\":\"charge\",\"amount\":1000,\"currency\":"
                      + "\"eur\",\"status\":\"succeeded\",\"metadata\":{\"intent_id\":"
                      + "\"order-1\",\"saferetry_tenant\":\"default\"}}]}"));
          server.enqueue(
              Answers.json(200, "{\"object\":\"search_result\",\"has_more\":false,\"data\":[]}"));
          OutboxRelay relay =
              relay(aged(database, Duration.ofHours(1)), client, time)
                  .reconciler(
                      Charges.CREATE,
                      StripeReconciler.charges(
                          r -> {
                            int n = Integer.parseInt(r.intentId().substring("order-".length()));
                            return StripeReconciler.charge("intent_id", 1000L * n, "eur")
                                .onAccount("acct_" + n);
                          }))
                  .build();
          RelayPass pass = relay.runOnce();
          assertThat(pass.expired()).isEqualTo(2);
          assertThat(pass.reconciled()).isEqualTo(1);
          assertThat(pass.claimed()).isZero();
          IntentRecord first = store.find(scope(client), "order-1").orElseThrow();
          assertThat(first.state()).isEqualTo(IntentState.SUCCEEDED);
          assertThat(first.resourceId()).isEqualTo("ch_found");
          assertThat(JdbcOutbox.of(store).held())
              .singleElement()
              .satisfies(h -> assertThat(h.record().intentId()).isEqualTo("order-2"));
          List<RecordedRequest> wire = drain(server);
          assertThat(wire).extracting(RecordedRequest::getMethod).containsExactly("GET", "GET");
          assertThat(wire)
              .extracting(r -> r.getHeaders().get("Stripe-Account"))
              .containsExactly("acct_1", "acct_2");
          assertThat(relay.runOnce().reconciled()).isZero(); // not asked again before the backoff
          assertThat(server.getRequestCount()).isEqualTo(2);
        });
  }

  private static IntentScope scope(SafeRetryClient client) {
    return new IntentScope("default", Charges.CREATE.name());
  }

  @org.junit.jupiter.api.Test
  void aCallWithItsOwnApiKeyOrACredentialHeaderIsNeverStored() throws Exception {
    try (TestDatabase database = Db.H2.open();
        JdbcKeyStore store = database.builder().build();
        MockWebServer server = new MockWebServer();
        Connection c = database.pool().getConnection()) {
      server.start(0);
      FakeTime time = atDatabaseTime();
      c.setAutoCommit(false);
      try (SafeRetryClient client = client(server, time, store)) {
        ChargeCreateParams params = new ChargeCreateParams(1000L, "eur", "order 1", null);
        java.util.function.Function<RequestOptions, ThrowingCallable> enqueue =
            options ->
                () ->
                    JdbcOutbox.of(store)
                        .enqueue(
                            c,
                            client,
                            Charges.CREATE,
                            params,
                            options.withIntentId("order-1"),
                            time.instant());
        assertThatThrownBy(
                enqueue.apply(RequestOptions.none().withApiKey("sk_test_connected_account_key")))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("per-call API key")
            .hasMessageNotContaining("sk_test_connected_account_key");
        assertThatThrownBy(
                enqueue.apply(
                    RequestOptions.none().withHeader("Cookie", "session=secret-session-value")))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageNotContaining("secret-session-value");
        c.rollback();
      }
      assertThat(store.pending()).isEmpty();
    }
  }
}
