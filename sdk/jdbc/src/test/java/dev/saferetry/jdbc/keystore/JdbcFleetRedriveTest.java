package dev.saferetry.jdbc.keystore;

import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.drain;
import static dev.saferetry.testing.Answers.dropAfterRequest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.testing.Answers;
import dev.saferetry.testing.FakeTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Two instances of a service, each with its own client, pool and store on one table: intents the
 * first left pending are re-driven by the second, on the wire, with the first one's keys.
 */
class JdbcFleetRedriveTest {
  private static final int ATTEMPTS = 4; // the default retry policy

  @ParameterizedTest
  @EnumSource(Db.class)
  void anotherInstanceReDrivesPendingIntentsWithTheirRecordedKeys(Db db) throws Exception {
    try (TestDatabase database = db.open();
        MockWebServer server = new MockWebServer()) {
      server.start(0);
      FakeTime time = new FakeTime();
      // the store judges a pending intent's expiry by the database's clock too: start at its time
      time.advance(Duration.between(time.instant(), Instant.now()));
      List<IdempotencyKey> keysOfA = new ArrayList<>();
      try (JdbcKeyStore storeA = database.builder().build();
          SafeRetryClient a = client(server, time, storeA)) {
        for (int order = 1; order <= 2; order++) {
          for (int i = 0; i < ATTEMPTS; i++) {
            server.enqueue(dropAfterRequest());
          }
          int n = order;
          OutcomeUnknownException unknown =
              assertThrows(
                  OutcomeUnknownException.class,
                  () -> a.execute(Charges.CREATE, params(n), intent(n)));
          keysOfA.add(unknown.key());
        }
      } // instance A is gone

      try (JdbcKeyStore storeB =
              JdbcKeyStore.builder()
                  .dataSource(database.newPool(2))
                  .outboxSealKey(TestDatabase.SEAL_KEY_ID, TestDatabase.sealSecret())
                  .schema(database.schema)
                  .build();
          SafeRetryClient b = client(server, time, storeB)) {
        List<IntentRecord> pending = b.pendingIntents();
        assertThat(pending).extracting(IntentRecord::key).containsExactlyElementsOf(keysOfA);
        assertThat(pending)
            .extracting(IntentRecord::intentId)
            .containsExactly("order-1/charge", "order-2/charge");

        for (int order = 1; order <= 2; order++) {
          server.enqueue(charge());
          CallResult<?> result = b.execute(Charges.CREATE, params(order), intent(order));
          assertThat(result.key()).isEqualTo(keysOfA.get(order - 1));
        }

        List<RecordedRequest> wire = drain(server);
        List<String> expected = new ArrayList<>();
        for (IdempotencyKey k : keysOfA) {
          expected.addAll(Collections.nCopies(ATTEMPTS, k.value()));
        }
        keysOfA.forEach(k -> expected.add(k.value()));
        assertThat(Answers.keys(wire, "Idempotency-Key")).containsExactlyElementsOf(expected);
        assertThat(b.pendingIntents()).isEmpty();
        assertThat(storeB.find(pending.get(0).scope(), "order-1/charge").orElseThrow().state())
            .isEqualTo(IntentState.SUCCEEDED);
        assertThatThrownBy(() -> b.execute(Charges.CREATE, params(9), intent(1)))
            .hasMessageContaining("order-1/charge");
        assertThat(server.getRequestCount()).isEqualTo(ATTEMPTS * 2 + 2);
      }
    }
  }

  private static SafeRetryClient client(MockWebServer server, FakeTime time, JdbcKeyStore store) {
    return SafeRetryClient.builder()
        .baseUrl(server.url("/").toString())
        .keyStore(store)
        .clock(time)
        .sleeper(time)
        .jitter(() -> 0.5)
        .breakerPolicy(BreakerPolicy.disabled())
        .build();
  }

  private static ChargeCreateParams params(int order) {
    return new ChargeCreateParams(1000 * order, "eur", "order " + order, null);
  }

  private static RequestOptions intent(int order) {
    return RequestOptions.none().withIntentId("order-" + order + "/charge");
  }
}
