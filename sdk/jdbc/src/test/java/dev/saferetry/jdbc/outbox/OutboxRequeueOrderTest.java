package dev.saferetry.jdbc.outbox;

import static dev.saferetry.jdbc.outbox.OutboxOrderingTest.SCOPE;
import static dev.saferetry.jdbc.outbox.OutboxOrderingTest.commit;
import static dev.saferetry.jdbc.outbox.OutboxOrderingTest.intentOf;
import static dev.saferetry.jdbc.outbox.OutboxOrderingTest.oneAttempt;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.atDatabaseTime;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.elapse;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.relay;
import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.Reconciler;
import dev.saferetry.Reconciliation;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.internal.outbox.LeasedIntent;
import dev.saferetry.jdbc.internal.outbox.RelayLeases;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.testing.FakeTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One intent per ordering key is in flight whatever the operator does. A parked intent whose key
 * was let continue, put back in the queue (requeued, requeued under a new key, or abandoned and
 * then requeued) while a later intent of its key is on the wire, takes its place at the end of its
 * key's queue: no relay claims it while the later one is in flight, and it goes after the intents
 * of its key that were queued before it came back.
 */
class OutboxRequeueOrderTest {
  private static final Reconciler NOTHING = (intent, client) -> Reconciliation.nothingExists();

  /** How the operator puts the parked intent back. */
  enum Back {
    REQUEUE,
    REQUEUE_WITH_NEW_KEY,
    ABANDON_THEN_REQUEUE
  }

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (Db db : Db.values()) {
      for (Back back : Back.values()) {
        out.add(Arguments.of(db, back));
      }
    }
    return out.stream();
  }

  private static void putBack(OutboxAdmin admin, SafeRetryClient client, Back back) {
    OutboxIntent a = admin.find(SCOPE, "order-1").orElseThrow();
    switch (back) {
      case REQUEUE -> admin.requeue(a, "t-2", "provider says it never saw it");
      case REQUEUE_WITH_NEW_KEY -> admin.requeueWithNewKey(a, client, NOTHING, "t-2", "nothing");
      case ABANDON_THEN_REQUEUE -> {
        OutboxIntent abandoned = admin.abandon(a, "t-2", "cancel");
        admin.requeue(abandoned, "t-3", "reinstated");
      }
    }
  }

  @ParameterizedTest(name = "{0}, {1}")
  @MethodSource("cases")
  void aRequeuedIntentWhoseKeyWentOnNeverOvertakesTheIntentOfItsKeyInFlight(Db db, Back back)
      throws Exception {
    try (TestDatabase database = db.open();
        JdbcKeyStore store = database.builder().build();
        MockWebServer server = new MockWebServer()) {
      server.start(0);
      FakeTime time = atDatabaseTime();
      try (SafeRetryClient client = oneAttempt(server, time, store)) {
        commit(database, store, client, time, "order-42", "order-1", 1000);
        commit(database, store, client, time, "order-42", "order-2", 2000);
        commit(database, store, client, time, "order-42", "order-3", 3000);
        OutboxAdmin admin = JdbcOutbox.of(store).admin("alice");
        List<String> wire = new CopyOnWriteArrayList<>();
        Map<String, String> byKey = new ConcurrentHashMap<>();
        List<List<String>> claimedMeanwhile = new CopyOnWriteArrayList<>();
        boolean[] parked = {true};
        server.setDispatcher(
            new Dispatcher() {
              @Override
              public MockResponse dispatch(RecordedRequest request) {
                String key = request.getHeaders().get("Idempotency-Key");
                String intent = byKey.computeIfAbsent(key, k -> intentOf(store, k));
                wire.add(intent);
                if (intent.equals("order-1") && parked[0]) {
                  return status(503); // order-1 is parked after one claim
                }
                if (intent.equals("order-2") && claimedMeanwhile.isEmpty()) {
                  // order-2 is on the wire: the operator puts order-1 back, and a second relay
                  // claims at once.
                  parked[0] = false;
                  putBack(admin, client, back);
                  List<String> claimed = new ArrayList<>();
                  for (LeasedIntent l :
                      RelayLeases.of(store).claim("relay-2", Duration.ofMinutes(1), 10)) {
                    claimed.add(l.record().intentId());
                  }
                  claimedMeanwhile.add(claimed);
                }
                return charge();
              }
            });

        OutboxRelay relay = relay(store, client, time).owner("relay-1").maxClaims(1).build();
        relay.runOnce(); // order-1 fails once: parked, holding its key
        OutboxIntent a = admin.whereHeld().list(10).get(0);
        assertThat(a.record().intentId()).isEqualTo("order-1");
        admin.releaseKey(a, "t-1", "order-2 and order-3 may go on");
        relay.runOnce(); // sends order-2, during which order-1 is put back

        assertThat(claimedMeanwhile).hasSize(1);
        assertThat(claimedMeanwhile.get(0)).doesNotContain("order-1", "order-3");
        for (int pass = 0; pass < 6; pass++) {
          relay.runOnce();
          elapse(database, time, Duration.ofMinutes(2));
        }
        // One at a time, in the key's order: order-1 came back after order-3 was queued.
        assertThat(wire).containsExactly("order-1", "order-2", "order-3", "order-1");
        for (String id : List.of("order-1", "order-2", "order-3")) {
          assertThat(store.find(SCOPE, id).orElseThrow().state())
              .as(id)
              .isEqualTo(IntentState.SUCCEEDED);
        }
      }
    }
  }

  @ParameterizedTest(name = "{0}, {1}")
  @MethodSource("cases")
  void aRequeuedIntentWhoseKeyWentOnGoesAfterTheIntentsQueuedBeforeItCameBack(Db db, Back back)
      throws Exception {
    try (TestDatabase database = db.open();
        JdbcKeyStore store = database.builder().build();
        MockWebServer server = new MockWebServer()) {
      server.start(0);
      FakeTime time = atDatabaseTime();
      try (SafeRetryClient client = oneAttempt(server, time, store)) {
        commit(database, store, client, time, "order-42", "order-1", 1000);
        commit(database, store, client, time, "order-42", "order-2", 2000);
        List<String> wire = new CopyOnWriteArrayList<>();
        Map<String, String> byKey = new ConcurrentHashMap<>();
        boolean[] parked = {true};
        server.setDispatcher(
            new Dispatcher() {
              @Override
              public MockResponse dispatch(RecordedRequest request) {
                String key = request.getHeaders().get("Idempotency-Key");
                String intent = byKey.computeIfAbsent(key, k -> intentOf(store, k));
                wire.add(intent);
                return intent.equals("order-1") && parked[0] ? status(503) : charge();
              }
            });
        OutboxRelay relay = relay(store, client, time).owner("relay-1").maxClaims(1).build();
        relay.runOnce();
        OutboxAdmin admin = JdbcOutbox.of(store).admin("alice");
        admin.releaseKey(admin.whereHeld().list(10).get(0), "t-1", "let order-2 go on");
        // Between two claims: the operator puts order-1 back before any relay took order-2.
        parked[0] = false;
        putBack(admin, client, back);
        for (int pass = 0; pass < 4; pass++) {
          relay.runOnce();
          elapse(database, time, Duration.ofMinutes(2));
        }
        assertThat(wire).containsExactly("order-1", "order-2", "order-1");
      }
    }
  }
}
