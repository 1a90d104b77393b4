package dev.saferetry.jdbc.outbox;

import static dev.saferetry.jdbc.outbox.OutboxRelayTest.answer;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.relay;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.withRelay;
import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.drain;
import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.testing.HostileTargets;
import java.util.List;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A stored target reaches only the path it names under the relay's base URL: one that an HTTP
 * client or server would normalise, decode or split into another path is never sent.
 */
class OutboxRelayTargetTest {

  @ParameterizedTest
  @EnumSource(Db.class)
  void aRowWhoseTargetWasRewrittenToLeaveTheBasePathIsHeldEvenWithItsFingerprintRecomputed(Db db)
      throws Exception {
    withRelay(
        db,
        (database, store, server, time, ignored) -> {
          String base = server.url("/api/").toString();
          try (SafeRetryClient client =
              RelayRows.client(server, time, store, b -> b.baseUrl(base))) {
            List<String> hostile = HostileTargets.HOSTILE;
            for (int i = 0; i < hostile.size(); i++) {
              RelayRows.enqueue(
                  database, store, client, time, "t-" + i, 100, RequestOptions.none());
              RelayRows.set(database, "t-" + i, "request_target", hostile.get(i));
              RelayRows.reseal(database, store, "t-" + i);
            }
            RelayRows.enqueue(database, store, client, time, "good", 100, RequestOptions.none());
            answer(server, n -> charge());

            RelayPass pass = relay(store, client, time).batchSize(200).build().runOnce();
            assertThat(pass.held()).isEqualTo(hostile.size());
            assertThat(pass.succeeded()).isEqualTo(1);
          }
          List<RecordedRequest> wire = drain(server);
          assertThat(wire)
              .extracting(r -> r.getUrl().encodedPath())
              .containsExactly("/api/v1/charges");
          assertThat(JdbcOutbox.of(store).held())
              .hasSize(HostileTargets.HOSTILE.size())
              .allSatisfy(h -> assertThat(h.reason()).isEqualTo(HoldReason.TAMPERED));
        });
  }
}
