package dev.saferetry.jdbc.outbox;

import static dev.saferetry.jdbc.outbox.OutboxRelayTest.answer;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.elapse;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.enqueue;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.relay;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.withRelay;
import static dev.saferetry.testing.Answers.charge;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.keystore.JdbcKeyStoreBuilder;
import dev.saferetry.testing.FakeTime;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A pass as a unit: its outcomes recorded together, each still fenced by its own lease; the overdue
 * scan on its timer, with the claim passing over overdue intents meanwhile; the pass's settings
 * refused when out of range.
 */
class OutboxRelayPassTest {

  @ParameterizedTest
  @EnumSource(Db.class)
  void outcomesRecordedTogetherAreEachFencedByTheirOwnLease(Db db) throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          enqueue(database, store, client, time, true, 1, 2);
          answer(
              server,
              n -> {
                if (n == 1) { // another relay takes order-1 over while it is on the wire
                  bumpToken(database, "order-1");
                }
                return charge();
              });
          RelayPass pass = relay(store, client, time).build().runOnce();
          assertThat(pass.claimed()).isEqualTo(2);
          assertThat(pass.succeeded()).isEqualTo(1);
          assertThat(pass.lost()).isEqualTo(1);
          assertThat(server.getRequestCount()).isEqualTo(2);
          IntentRecord first = client.pendingIntents().get(0);
          assertThat(first.intentId()).isEqualTo("order-1"); // its answer was refused
          assertThat(store.find(first.scope(), "order-2").orElseThrow().state())
              .isEqualTo(IntentState.SUCCEEDED);
          assertThat(RelayRows.text(database, "order-2", "lease_owner")).isNull();
          assertThat(RelayRows.text(database, "order-1", "relay_state")).isEqualTo("0");
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void theOverdueScanRunsOnItsTimerAndTheClaimNeverSendsAnOverdueIntentMeanwhile(Db db)
      throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          OutboxRelay relay =
              relay(OutboxRelayTest.aged(database, Duration.ofHours(1)), client, time)
                  .overdueEvery(Duration.ofMinutes(1))
                  .build();
          enqueue(database, store, client, time, true, 1);
          answer(server, n -> charge());
          assertThat(relay.runOnce().succeeded()).isEqualTo(1); // scanned, claimed, sent

          enqueue(database, store, client, time, true, 2);
          // two hours go by for the database only: the relay's own clock says no scan is due
          elapse(database, new FakeTime(), Duration.ofHours(2));
          RelayPass meanwhile = relay.runOnce();
          assertThat(meanwhile.expired()).isZero(); // not scanned again
          assertThat(meanwhile.claimed()).isZero(); // and not sent either
          assertThat(server.getRequestCount()).isEqualTo(1);

          time.advance(Duration.ofMinutes(1));
          RelayPass scanned = relay.runOnce();
          assertThat(scanned.expired()).isEqualTo(1);
          assertThat(scanned.claimed()).isZero();
          assertThat(JdbcOutbox.of(store).held())
              .singleElement()
              .satisfies(
                  h -> {
                    assertThat(h.record().intentId()).isEqualTo("order-2");
                    assertThat(h.reason()).isEqualTo(HoldReason.EXPIRED);
                  });
          assertThat(server.getRequestCount()).isEqualTo(1);
        });
  }

  @ParameterizedTest
  @EnumSource(
      value = Db.class,
      names = {"H2"})
  void settingsOutOfRangeAreRefusedByName(Db db) throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          OutboxRelayBuilder b = OutboxRelay.builder().store(store).client(client);
          for (int bad : new int[] {0, -1, 257, Integer.MIN_VALUE, Integer.MAX_VALUE}) {
            assertThatThrownBy(() -> b.concurrency(bad))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("concurrency");
          }
          assertThatThrownBy(() -> b.overdueEvery(null))
              .isInstanceOf(NullPointerException.class)
              .hasMessageContaining("overdueEvery");
          for (Duration bad : new Duration[] {Duration.ZERO, Duration.ofNanos(-1)}) {
            assertThatThrownBy(() -> b.overdueEvery(bad))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("overdueEvery");
          }
          assertThat(b.concurrency(1).concurrency(256).overdueEvery(Duration.ofDays(365)).build())
              .isNotNull();
        });
  }

  /** Changes the row's lease token behind the relay's back, as another relay's claim does. */
  private static void bumpToken(TestDatabase database, String intentId) {
    try {
      database.execute(
          "UPDATE "
              + database.table(JdbcKeyStoreBuilder.DEFAULT_TABLE)
              + " SET lease_token = lease_token + 1 WHERE intent_id = '"
              + intentId
              + "'");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
