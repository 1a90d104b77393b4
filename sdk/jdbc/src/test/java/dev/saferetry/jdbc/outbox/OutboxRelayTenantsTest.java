package dev.saferetry.jdbc.outbox;

import static dev.saferetry.jdbc.outbox.OutboxRelayTest.elapse;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.enqueue;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.relay;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.withRelay;
import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.drain;
import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.SafeRetryClient;
import dev.saferetry.jdbc.TestDatabase.Db;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A relay claims only the intents of the tenants it has a client for: another tenant's intents are
 * neither claimed, nor counted as claims, nor parked by it; a relay with that tenant's client sends
 * them.
 */
class OutboxRelayTenantsTest {

  @ParameterizedTest
  @EnumSource(Db.class)
  void aRelayWithoutATenantsClientLeavesItsIntentsAlone(Db db) throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          try (SafeRetryClient other = client.newBuilder().tenant("tenant-b").build()) {
            enqueue(database, store, other, time, true, 1, 2);
            enqueue(database, store, client, time, true, 3);
            OutboxRelay onlyDefault = relay(store, client, time).maxClaims(1).build();

            server.enqueue(charge());
            for (int i = 0; i < 3; i++) {
              RelayPass pass = onlyDefault.runOnce();
              assertThat(pass.claimed()).isEqualTo(i == 0 ? 1 : 0);
              assertThat(pass.held()).isZero();
              elapse(database, time, Duration.ofMinutes(10));
            }
            assertThat(drain(server)).hasSize(1);
            assertThat(JdbcOutbox.of(store).held()).isEmpty();
            for (String id : new String[] {"order-1", "order-2"}) {
              assertThat(RelayRows.text(database, id, "attempts")).isEqualTo("0");
              assertThat(RelayRows.text(database, id, "relay_state")).isEqualTo("0");
            }

            server.enqueue(charge());
            server.enqueue(charge());
            RelayPass theirs = relay(store, other, time).owner("relay-b").build().runOnce();
            assertThat(theirs.claimed()).isEqualTo(2);
            assertThat(theirs.succeeded()).isEqualTo(2);
          }
        });
  }
}
