package dev.saferetry.jdbc.outbox;

import static dev.saferetry.jdbc.outbox.OutboxRelayTest.answer;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.elapse;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.enqueue;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.relay;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.withRelay;
import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.drain;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.internal.outbox.LeasedIntent;
import dev.saferetry.jdbc.internal.outbox.RelayLeases;
import dev.saferetry.testing.Answers;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Leases while the relay sends: renewed between attempts, fencing when lost, takeover after a relay
 * died holding them. The server's dispatcher lets time go by and plays the other relay while an
 * attempt is on the wire.
 */
class OutboxRelayLeaseTest {
  private static final Duration LEASE = Duration.ofSeconds(60);

  @ParameterizedTest
  @EnumSource(Db.class)
  void aCompletionFromALostLeaseIsRefused(Db db) throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          enqueue(database, store, client, time, true, 1);
          List<LeasedIntent> intruder = new CopyOnWriteArrayList<>();
          answer(
              server,
              n -> {
                elapse(database, time, LEASE.plusSeconds(1)); // this attempt outlasts the lease
                intruder.addAll(RelayLeases.of(store).claim("relay-b", LEASE, 10));
                return charge();
              });
          RelayPass pass = relay(store, client, time).build().runOnce();
          assertThat(pass.lost()).isEqualTo(1);
          assertThat(pass.succeeded()).isZero();
          assertThat(intruder).hasSize(1);

          IntentRecord stored = client.pendingIntents().get(0);
          assertThat(stored.state()).isEqualTo(IntentState.PENDING); // relay-a's answer refused
          IntentRecord byB = stored.complete(IntentState.SUCCEEDED, 200, "ch_b");
          assertThat(RelayLeases.of(store).complete(intruder.get(0).lease(), byB, null)).isTrue();
          assertThat(store.find(stored.scope(), "order-1")).contains(byB);
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void theLeaseIsRenewedBetweenAttemptsSoNoOtherRelayTakesItOver(Db db) throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          enqueue(database, store, client, time, true, 1);
          String key = client.pendingIntents().get(0).key().value();
          List<Integer> intruderClaims = new CopyOnWriteArrayList<>();
          answer(
              server,
              n -> {
                elapse(database, time, Duration.ofSeconds(25)); // 3 attempts: 75 s > the lease
                intruderClaims.add(RelayLeases.of(store).claim("relay-b", LEASE, 10).size());
                return n < 3 ? status(503) : charge();
              });
          RelayPass pass = relay(store, client, time).leaseFor(LEASE).build().runOnce();
          assertThat(pass.succeeded()).isEqualTo(1);
          assertThat(intruderClaims).containsExactly(0, 0, 0);
          List<RecordedRequest> wire = drain(server);
          assertThat(Answers.keys(wire, "Idempotency-Key")).hasSize(3).containsOnly(key);
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aRelayThatCannotRenewItsLeaseStopsSending(Db db) throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          enqueue(database, store, client, time, true, 1);
          answer(
              server,
              n -> {
                elapse(database, time, LEASE.plusSeconds(1));
                RelayLeases.of(store).claim("relay-b", LEASE, 10);
                return status(503);
              });
          RelayPass pass = relay(store, client, time).build().runOnce();
          assertThat(pass.lost()).isEqualTo(1);
          assertThat(server.getRequestCount()).isEqualTo(1); // no second attempt under a lost lease
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void intentsOfARelayThatDiedAreTakenOverWithTheirKeysOnceItsLeaseEnds(Db db) throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          enqueue(database, store, client, time, true, 1, 2);
          List<LeasedIntent> dead = RelayLeases.of(store).claim("relay-dead", LEASE, 10);
          assertThat(dead).hasSize(2);

          OutboxRelay survivor = relay(store, client, time).owner("relay-b").build();
          elapse(database, time, LEASE.minusSeconds(10)); // a margin for the test's own time
          assertThat(survivor.runOnce().claimed()).isZero();
          elapse(database, time, Duration.ofSeconds(10));
          server.enqueue(charge());
          server.enqueue(charge());
          assertThat(survivor.runOnce().succeeded()).isEqualTo(2);
          assertThat(Answers.keys(drain(server), "Idempotency-Key"))
              .containsExactly(
                  dead.get(0).record().key().value(), dead.get(1).record().key().value());
          IntentRecord late = dead.get(0).record().complete(IntentState.FAILED, 402, null);
          assertThat(RelayLeases.of(store).complete(dead.get(0).lease(), late, "late")).isFalse();
          assertThat(client.pendingIntents()).isEmpty();
          assertThat(JdbcOutbox.of(store).held()).isEmpty();
        });
  }
}
