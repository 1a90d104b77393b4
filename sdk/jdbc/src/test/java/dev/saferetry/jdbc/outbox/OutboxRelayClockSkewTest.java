package dev.saferetry.jdbc.outbox;

import static dev.saferetry.jdbc.outbox.OutboxRelayTest.answer;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.client;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.databaseTime;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.elapse;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.enqueue;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.relay;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.stored;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.withRelay;
import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.drain;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.SafeRetryClient;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.internal.outbox.LeasedIntent;
import dev.saferetry.jdbc.internal.outbox.RelayLeases;
import dev.saferetry.testing.Answers;
import dev.saferetry.testing.FakeTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Relays on hosts whose clocks run an hour or two ahead of the database's or behind it, working one
 * table: every lease decision — a live or expired lease, a renewal's end, a backoff's due time, an
 * overdue intent — is made at the database's clock, so they decide as a relay with the right clock
 * would.
 */
class OutboxRelayClockSkewTest {
  private static final Duration LEASE = Duration.ofSeconds(60);
  private static final Duration HOUR = Duration.ofHours(1);

  /** Fake time {@code offset} away from the database's clock: a host whose clock is off. */
  private static FakeTime skewed(TestDatabase database, Duration offset) {
    FakeTime time = new FakeTime();
    time.advance(Duration.between(time.instant(), databaseTime(database).plus(offset)));
    return time;
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aRelayWhoseClockRunsAnHourAheadDoesNotTakeOverALiveLease(Db db) throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          enqueue(database, store, client, time, true, 1);
          FakeTime ahead = skewed(database, HOUR);
          try (SafeRetryClient clientAhead = client(server, ahead, store)) {
            OutboxRelay relayAhead = relay(store, clientAhead, ahead).owner("relay-ahead").build();
            List<RelayPass> aheadPasses = new CopyOnWriteArrayList<>();
            answer(
                server,
                n -> {
                  if (n == 1) { // while relay-a's lease is live, relay-ahead runs a pass
                    aheadPasses.add(relayAhead.runOnce());
                  }
                  return charge();
                });
            RelayPass pass = relay(store, client, time).leaseFor(LEASE).build().runOnce();
            assertThat(aheadPasses)
                .singleElement()
                .satisfies(p -> assertThat(p.claimed()).isZero());
            assertThat(server.getRequestCount()).isEqualTo(1); // no concurrent second send
            assertThat(pass.succeeded()).isEqualTo(1); // relay-a kept its lease
          }
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aRelayWhoseClockRunsAnHourBehindTakesOverALeaseExpiredByTheDatabasesClock(Db db)
      throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          enqueue(database, store, client, time, true, 1);
          IntentRecord intent = client.pendingIntents().get(0);
          // relay-dead, whose clock is right, claims it and dies
          List<LeasedIntent> dead =
              RelayLeases.of(store).claim("relay-dead", databaseTime(database), LEASE, 10);
          assertThat(dead).hasSize(1);

          FakeTime behind = skewed(database, HOUR.negated());
          try (SafeRetryClient clientBehind = client(server, behind, store)) {
            OutboxRelay relayBehind = relay(store, clientBehind, behind).owner("relay-b").build();
            assertThat(relayBehind.runOnce().claimed()).isZero(); // the lease is live
            elapse(database, behind, LEASE); // and now it has ended, by the database's clock
            server.enqueue(charge());
            RelayPass pass = relayBehind.runOnce();
            assertThat(pass.claimed()).isEqualTo(1);
            assertThat(pass.succeeded()).isEqualTo(1);
          }
          assertThat(Answers.keys(drain(server), "Idempotency-Key"))
              .containsExactly(intent.key().value());
          assertThat(store.find(intent.scope(), intent.intentId()).orElseThrow().state())
              .isEqualTo(IntentState.SUCCEEDED);
          IntentRecord late = intent.complete(IntentState.FAILED, 402, null);
          assertThat(RelayLeases.of(store).complete(dead.get(0).lease(), late, "late")).isFalse();
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aRenewalExtendsTheLeaseByTheDatabasesClockForARelayWhoseClockRunsBehind(Db db)
      throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          enqueue(database, store, client, time, true, 1);
          FakeTime behind = skewed(database, HOUR.negated());
          OutboxRelay intruder = relay(store, client, time).owner("relay-b").build();
          List<Instant> leaseEnds = new CopyOnWriteArrayList<>();
          List<Instant> databaseTimes = new CopyOnWriteArrayList<>();
          List<Integer> intruderClaims = new CopyOnWriteArrayList<>();
          try (SafeRetryClient clientBehind = client(server, behind, store)) {
            answer(
                server,
                n -> {
                  if (n == 1) { // a slow attempt: 45 s of the 60 s lease go by
                    elapse(database, behind, Duration.ofSeconds(45));
                    return status(503);
                  }
                  if (n == 2) { // the lease was renewed before this attempt
                    try {
                      leaseEnds.add(stored(database, "lease_expires_ns", "order-1"));
                    } catch (java.sql.SQLException e) {
                      throw new IllegalStateException(e);
                    }
                    databaseTimes.add(databaseTime(database));
                    intruderClaims.add(intruder.runOnce().claimed()); // its clock is right
                  }
                  return charge();
                });
            Instant before = databaseTime(database);
            RelayPass pass =
                relay(store, clientBehind, behind)
                    .owner("relay-a")
                    .leaseFor(LEASE)
                    .build()
                    .runOnce();
            assertThat(leaseEnds)
                .singleElement()
                .satisfies(
                    end ->
                        assertThat(end)
                            .isBetween(before.plus(LEASE), databaseTimes.get(0).plus(LEASE)));
            assertThat(intruderClaims).containsExactly(0);
            assertThat(pass.succeeded()).isEqualTo(1);
            assertThat(server.getRequestCount()).isEqualTo(2);
          }
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void backoffDueTimesAreInTheDatabasesTimeForARelayWhoseClockRunsAhead(Db db) throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          enqueue(database, store, client, time, true, 1);
          FakeTime ahead = skewed(database, HOUR);
          for (int i = 0; i < 4; i++) {
            server.enqueue(status(503));
          }
          Instant before = databaseTime(database);
          RelayPass first;
          try (SafeRetryClient clientAhead = client(server, ahead, store)) {
            first = relay(store, clientAhead, ahead).owner("relay-ahead").build().runOnce();
          }
          Instant after = databaseTime(database);
          assertThat(first.retried()).isEqualTo(1);
          // the backoff (10 s) runs from the database's time of the reschedule
          assertThat(stored(database, "next_attempt_ns", "order-1"))
              .isBetween(before.plusSeconds(10), after.plusSeconds(10));

          OutboxRelay right = relay(store, client, time).owner("relay-b").build();
          assertThat(right.runOnce().claimed()).isZero(); // backing off
          elapse(database, time, Duration.ofSeconds(10));
          server.enqueue(charge());
          assertThat(right.runOnce().succeeded()).isEqualTo(1); // due 10 s later, for everyone
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aRelayWhoseClockRunsAheadDoesNotHoldAnIntentTheDatabasesClockCallsYoung(Db db)
      throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          enqueue(database, store, client, time, true, 1);
          FakeTime ahead = skewed(database, HOUR.multipliedBy(2));
          server.enqueue(charge());
          try (SafeRetryClient clientAhead = client(server, ahead, store)) {
            RelayPass pass =
                relay(OutboxRelayTest.aged(database, HOUR), clientAhead, ahead).build().runOnce();
            assertThat(pass.expired()).isZero();
            assertThat(pass.succeeded()).isEqualTo(1);
          }
          assertThat(JdbcOutbox.of(store).held()).isEmpty();
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aRelayWhoseClockRunsBehindHoldsAnIntentTheDatabasesClockCallsTooOld(Db db) throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          enqueue(database, store, client, time, true, 1);
          elapse(database, time, HOUR.multipliedBy(2)); // two hours old by the database's clock
          FakeTime behind = skewed(database, HOUR.multipliedBy(-2));
          server.enqueue(charge()); // what a send past the maximum age would get
          try (SafeRetryClient clientBehind = client(server, behind, store)) {
            RelayPass pass =
                relay(OutboxRelayTest.aged(database, HOUR), clientBehind, behind).build().runOnce();
            assertThat(pass.expired()).isEqualTo(1);
            assertThat(pass.claimed()).isZero();
          }
          assertThat(server.getRequestCount()).isZero();
          assertThat(JdbcOutbox.of(store).held())
              .singleElement()
              .satisfies(h -> assertThat(h.reason()).isEqualTo(HoldReason.EXPIRED));
        });
  }
}
