package dev.saferetry.jdbc.inbox;

import static dev.saferetry.jdbc.keystore.JdbcBeginRaceTest.SCOPE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.jdbc.outbox.JdbcOutbox;
import java.time.Duration;
import java.time.Instant;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The inbox and the outbox together, as a consumer uses them: a handler records the charge it
 * causes in the outbox on the connection it was given, under the call's deadline, and the intent
 * commits or rolls back with the message's receipt.
 */
class InboxHandlerRecordsAnIntentTest {
  private static final ChargeCreateParams PARAMS =
      new ChargeCreateParams(1000, "eur", "order 1", null);

  @ParameterizedTest
  @EnumSource(Db.class)
  void anIntentRecordedOnTheHandlersConnectionCommitsAndRollsBackWithTheReceipt(Db db)
      throws Exception {
    try (InboxFixture f = new InboxFixture(db);
        MockWebServer server = new MockWebServer();
        JdbcKeyStore store = f.database.builder().build()) {
      server.start(0);
      try (SafeRetryClient client =
          SafeRetryClient.builder().baseUrl(server.url("/").toString()).keyStore(store).build()) {
        InboxHandler recordsCharge =
            tx ->
                JdbcOutbox.of(store)
                    .enqueue(
                        tx.connection(),
                        client,
                        Charges.CREATE,
                        PARAMS,
                        RequestOptions.none()
                            .withIntentId("charge-for-" + tx.messageId())
                            .withDeadline(Duration.ofSeconds(5)),
                        Instant.now());

        assertThatThrownBy(
                () ->
                    f.inbox.receive(
                        "billing",
                        "evt_1",
                        tx -> {
                          recordsCharge.handle(tx);
                          throw new IllegalStateException("then the handler fails");
                        }))
            .hasMessage("then the handler fails");
        assertThat(store.find(SCOPE, "charge-for-evt_1")).isEmpty();
        assertThat(f.outcome("evt_1")).isNull();

        assertThat(f.inbox.receive("billing", "evt_1", recordsCharge))
            .isEqualTo(InboxResult.APPLIED);
        assertThat(store.find(SCOPE, "charge-for-evt_1").orElseThrow().state())
            .isEqualTo(IntentState.PENDING);
        assertThat(f.inbox.receive("billing", "evt_1", recordsCharge))
            .isEqualTo(InboxResult.DUPLICATE);
        assertThat(store.pending()).hasSize(1);
        assertThat(server.getRequestCount()).isZero();
      }
    }
  }
}
