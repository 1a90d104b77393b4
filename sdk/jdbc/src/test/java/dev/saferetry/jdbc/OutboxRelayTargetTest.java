package dev.saferetry.jdbc;

import static dev.saferetry.jdbc.OutboxRelayTest.answer;
import static dev.saferetry.jdbc.OutboxRelayTest.relay;
import static dev.saferetry.jdbc.OutboxRelayTest.withRelay;
import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.drain;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.internal.jdbc.StoredTargets;
import dev.saferetry.jdbc.TestDatabase.Db;
import java.util.List;
import mockwebserver3.RecordedRequest;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;
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
                  database, store, client, time, "t-" + i, 100, RequestOptions.builder());
              RelayRows.set(database, "t-" + i, "request_target", hostile.get(i));
              RelayRows.reseal(database, store, "t-" + i);
            }
            RelayRows.enqueue(database, store, client, time, "good", 100, RequestOptions.builder());
            answer(server, n -> charge());

            RelayPass pass = relay(store, client, time).batchSize(200).build().runOnce();
            assertThat(pass.held()).isEqualTo(hostile.size());
            assertThat(pass.succeeded()).isEqualTo(1);
          }
          List<RecordedRequest> wire = drain(server);
          assertThat(wire)
              .extracting(r -> r.getUrl().encodedPath())
              .containsExactly("/api/v1/charges");
          assertThat(store.outbox().held())
              .hasSize(HostileTargets.HOSTILE.size())
              .allSatisfy(h -> assertThat(h.reason()).isEqualTo(HoldReason.TAMPERED));
        });
  }

  @Test
  void aTargetIsSentUnderTheRelaysOwnBaseUrlAfterTheHttpClientsNormalisation() {
    for (String base :
        List.of(
            "http://pay.example:8443/api/v2/",
            "http://pay.example:8443/api/v2",
            "http://pay.example:8443/api/v2/?tenant=1",
            "https://pay.example/")) {
      HttpUrl b = HttpUrl.get(base);
      String prefix = b.encodedPath().endsWith("/") ? b.encodedPath() : b.encodedPath() + "/";
      for (String target : HostileTargets.HOSTILE) {
        assertThatThrownBy(() -> StoredTargets.resolve(b, target))
            .as(base + " + " + target)
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("target");
      }
      for (String target : HostileTargets.HARMLESS) {
        HttpUrl url = StoredTargets.resolve(b, target);
        assertThat(url.host()).isEqualTo(b.host());
        assertThat(url.port()).isEqualTo(b.port());
        assertThat(url.scheme()).isEqualTo(b.scheme());
        assertThat(url.encodedPath()).as(target).startsWith(prefix);
        assertThat(url.encodedPathSegments().size())
            .isEqualTo(
                prefix.split("/", -1).length - 2 + target.split("\\?")[0].split("/", -1).length);
      }
      HttpUrl charges = StoredTargets.resolve(b, "v1/charges?expand[]=customer");
      assertThat(charges.encodedPath()).isEqualTo(prefix + "v1/charges");
      assertThat(charges.queryParameter("expand[]")).isEqualTo("customer");
      assertThat(charges.querySize()).isEqualTo(1); // the base URL's own query is not added
    }
  }
}
