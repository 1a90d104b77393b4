package dev.saferetry.jdbc.outbox;

import static dev.saferetry.jdbc.outbox.OutboxRelayTest.elapse;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.enqueue;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.relay;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.withRelay;
import static dev.saferetry.testing.Answers.charge;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.jdbc.TestDatabase.Db;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * How old an outbox intent may get is the table's rule, set on its store with a floor of an hour,
 * and every relay and admin of the store follows it: no relay can park a table's backlog with an
 * age of its own.
 */
class OutboxMaxAgeTest {

  @ParameterizedTest
  @EnumSource(Db.class)
  void theMaximumAgeIsTheTablesAndAtLeastAnHour(Db db) throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          assertThatThrownBy(() -> database.builder().outboxMaxAge(Duration.ofSeconds(1)))
              .isInstanceOf(IllegalArgumentException.class)
              .hasMessageContaining("PT1H");
          assertThatThrownBy(() -> database.builder().outboxMaxAge(Duration.ofMinutes(59)))
              .isInstanceOf(IllegalArgumentException.class);
          assertThat(JdbcOutbox.of(store).maxAge()).isEqualTo(Duration.ofDays(1));

          // A backlog two hours old (an outage): the table keeps intents a day, so it is sent.
          enqueue(database, store, client, time, true, 1, 2);
          elapse(database, time, Duration.ofHours(2));
          server.enqueue(charge());
          server.enqueue(charge());
          RelayPass pass = relay(store, client, time).build().runOnce();
          assertThat(pass.expired()).isZero();
          assertThat(pass.succeeded()).isEqualTo(2);
          assertThat(JdbcOutbox.of(store).held()).isEmpty();
        });
  }
}
