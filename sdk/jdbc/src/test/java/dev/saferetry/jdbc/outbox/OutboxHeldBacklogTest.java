package dev.saferetry.jdbc.outbox;

import static dev.saferetry.jdbc.outbox.OutboxRelayTest.atDatabaseTime;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.client;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.relay;
import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.Reconciliation;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.jdbc.keystore.JdbcKeyStoreBuilder;
import dev.saferetry.testing.FakeTime;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A backlog of held intents does not sink the relay: a pass with a reconciler reads at most its
 * budget of held rows, records only (never their stored requests), whether 10 or hundreds are held,
 * and the passes walk through them all in turn. What a pass reads is counted at the JDBC driver's
 * boundary, outside the code under test.
 */
class OutboxHeldBacklogTest {
  private static final int BUDGET = 20;
  private static final String BIG = "x".repeat(4096);

  @ParameterizedTest
  @EnumSource(Db.class)
  void aPassReadsTheSameWhetherTenOrHundredsAreHeldAndNeverTheirBodies(Db db) throws Exception {
    Reads few = pass(db, 10);
    Reads many = pass(db, 300);

    // 10 held: all 10 are read; 300 held: the budget, not the backlog.
    assertThat(few.reconciled).isEqualTo(10);
    assertThat(many.reconciled).isEqualTo(BUDGET);
    assertThat(many.rows).isLessThanOrEqualTo(BUDGET + 5);
    // Records only: 20 rows of a few hundred characters, never 20 (let alone 300) 4 KB bodies.
    assertThat(many.bytes).isLessThan(BUDGET * 1024L);
    assertThat(few.bytes).isLessThan(10 * 1024L);
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void passesWalkThroughEveryHeldIntentInTurnThenWaitABackoff(Db db) throws Exception {
    try (TestDatabase database = db.open();
        MockWebServer server = new MockWebServer()) {
      server.start(0);
      CountingDataSource counted = new CountingDataSource(database.pool());
      try (JdbcKeyStore store = database.builder(counted).build()) {
        FakeTime time = atDatabaseTime();
        try (SafeRetryClient client = client(server, time, store)) {
          int n = 7 * BUDGET + 3;
          hold(database, store, client, time, n);
          List<String> seen = new ArrayList<>();
          OutboxRelay relay = relayReconciling(store, client, time, seen);

          int passes = 0;
          while (seen.size() < n && passes < 20) {
            counted.reset();
            relay.runOnce();
            assertThat(counted.rows()).isLessThanOrEqualTo(BUDGET + 5);
            passes++;
          }
          assertThat(passes).isEqualTo(8); // ceil(143 / 20): no page visited twice
          Set<String> distinct = new HashSet<>(seen);
          assertThat(distinct).hasSize(n);
          assertThat(seen).hasSize(n);

          // The walk ended: no held intent is reconciled again before the longest backoff.
          seen.clear();
          counted.reset();
          relay.runOnce();
          assertThat(seen).isEmpty();
          assertThat(relay.heldRowsRead()).isZero();

          time.advance(Duration.ofMinutes(5));
          relay.runOnce();
          assertThat(seen).hasSize(BUDGET).first().isEqualTo("held-0");
        }
      }
    }
  }

  private record Reads(long rows, long bytes, int reconciled) {}

  /** One pass of a relay with a reconciler over {@code n} held intents: what it read. */
  private static Reads pass(Db db, int n) throws Exception {
    try (TestDatabase database = db.open();
        MockWebServer server = new MockWebServer()) {
      server.start(0);
      CountingDataSource counted = new CountingDataSource(database.pool());
      try (JdbcKeyStore store = database.builder(counted).build()) {
        FakeTime time = atDatabaseTime();
        try (SafeRetryClient client = client(server, time, store)) {
          hold(database, store, client, time, n);
          List<String> seen = new ArrayList<>();
          OutboxRelay relay = relayReconciling(store, client, time, seen);
          counted.reset();
          relay.runOnce();
          return new Reads(counted.rows(), counted.bytes(), seen.size());
        }
      }
    }
  }

  private static OutboxRelay relayReconciling(
      JdbcKeyStore store, SafeRetryClient client, FakeTime time, List<String> seen) {
    return relay(store, client, time)
        .reconcileBudget(BUDGET)
        .reconciler(
            Charges.CREATE,
            (intent, c) -> {
              seen.add(intent.intentId());
              return Reconciliation.unresolved("not found yet");
            })
        .build();
  }

  /** Enqueues {@code n} charges with 4 KB bodies and holds them all, UNSETTLED. */
  static void hold(
      TestDatabase database, JdbcKeyStore store, SafeRetryClient client, FakeTime time, int n)
      throws Exception {
    try (Connection c = database.pool().getConnection()) {
      c.setAutoCommit(false);
      for (int i = 0; i < n; i++) {
        JdbcOutbox.of(store)
            .enqueue(
                c,
                client,
                Charges.CREATE,
                new ChargeCreateParams(1000L + i, "eur", BIG, null),
                RequestOptions.none().withIntentId("held-" + i),
                time.instant());
      }
      c.commit();
    }
    database.execute(
        "UPDATE "
            + database.table(JdbcKeyStoreBuilder.DEFAULT_TABLE)
            + " SET relay_state = 2, hold_reason = 5");
  }
}
