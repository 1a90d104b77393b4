package dev.saferetry.jdbc.outbox;

import static dev.saferetry.jdbc.outbox.OutboxRelayTest.answer;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.relay;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.withRelay;
import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.drain;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.ApiKeyStyle;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyPlacement;
import dev.saferetry.jdbc.TestDatabase.Db;
import java.util.List;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * No credential of the enqueuing client ever reaches an outbox row, and no stored header ever
 * replaces the credential the relay's own client sends.
 */
class OutboxRelayCredentialsTest {
  private static final String ENQUEUER_TOKEN = "sk_enqueuer_token_0123456789";
  private static final String ENQUEUER_SECRET = "ps_enqueuer_secret_abcdef";
  private static final String RELAY_TOKEN = "sk_relay_token_9876543210";
  private static final String RELAY_SECRET = "ps_relay_secret_fedcba";

  @ParameterizedTest
  @EnumSource(Db.class)
  void defaultHeadersTheClientTreatsAsCredentialsNeverReachARowAndTheRelaySendsItsOwn(Db db)
      throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          try (SafeRetryClient enqueuer =
              RelayRows.client(
                  server,
                  time,
                  store,
                  b ->
                      b.apiKeyStyle(ApiKeyStyle.header("X-Auth-Token"))
                          .apiKey(ENQUEUER_TOKEN)
                          .header("x-auth-token", ENQUEUER_TOKEN)
                          .header("X-Partner-Secret", ENQUEUER_SECRET)
                          .header("Stripe-Version", "2024-06-20"))) {
            RelayRows.enqueue(
                database, store, enqueuer, time, "order-1", 1000, RequestOptions.none());
          }
          String stored = RelayRows.text(database, "order-1", "request_headers");
          assertThat(stored)
              .contains("Stripe-Version: 2024-06-20")
              .doesNotContainIgnoringCase("x-auth-token")
              .doesNotContain(ENQUEUER_TOKEN, ENQUEUER_SECRET, "X-Partner-Secret");

          answer(server, n -> charge());
          try (SafeRetryClient relayClient =
              RelayRows.client(
                  server,
                  time,
                  store,
                  b ->
                      b.apiKeyStyle(ApiKeyStyle.header("X-Auth-Token"))
                          .apiKey(RELAY_TOKEN)
                          .header("X-Partner-Secret", RELAY_SECRET))) {
            assertThat(relay(store, relayClient, time).build().runOnce().succeeded()).isEqualTo(1);
          }
          RecordedRequest r = drain(server).get(0);
          assertThat(r.getHeaders().values("X-Auth-Token")).containsExactly(RELAY_TOKEN);
          assertThat(r.getHeaders().values("X-Partner-Secret")).containsExactly(RELAY_SECRET);
          assertThat(r.getHeaders().get("Stripe-Version")).isEqualTo("2024-06-20");
          assertThat(r.getHeaders().get("Authorization")).isNull();
          assertThat(r.getHeaders().toString()).doesNotContain(ENQUEUER_TOKEN, ENQUEUER_SECRET);
        });
  }

  @ParameterizedTest
  @EnumSource(
      value = Db.class,
      names = {"H2"})
  void aCallHeaderCarryingACredentialIsRefusedAtEnqueueWhateverItsCase(Db db) throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          try (SafeRetryClient enqueuer =
              RelayRows.client(
                  server, time, store, b -> b.apiKeyStyle(ApiKeyStyle.header("X-Merchant")))) {
            for (String name :
                List.of(
                    "X-Merchant",
                    "x-merchant",
                    "X-MERCHANT",
                    "X-Auth-Token",
                    "x-auth-token",
                    "X-Partner-Secret",
                    "Authorization",
                    "cookie",
                    "X-Api-Key")) {
              assertThatThrownBy(
                      () ->
                          RelayRows.enqueue(
                              database,
                              store,
                              enqueuer,
                              time,
                              "order-1",
                              1000,
                              RequestOptions.none().withHeader(name, ENQUEUER_TOKEN)))
                  .as(name)
                  .isInstanceOf(IllegalArgumentException.class)
                  .hasMessageContaining(name)
                  .hasMessageNotContaining(ENQUEUER_TOKEN);
            }
          }
          assertThat(store.pending()).isEmpty();
          assertThat(server.getRequestCount()).isZero();
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aStoredHeaderOrKeyHeaderTheRelaysClientSetsItselfIsHeldNotSent(Db db) throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          // The enqueuer's key goes in the default header and its credential in Authorization:
          // to it, X-Merchant and Idempotency-Attempt are ordinary headers.
          RelayRows.enqueue(
              database,
              store,
              client,
              time,
              "as-victim",
              1000,
              RequestOptions.none().withHeader("X-Merchant", "acct_victim"));
          RelayRows.enqueue(
              database,
              store,
              client,
              time,
              "as-victim-lower-case",
              1000,
              RequestOptions.none().withHeader("x-MERCHANT", "acct_victim"));
          RelayRows.enqueue(
              database,
              store,
              client,
              time,
              "attempt-header",
              1000,
              RequestOptions.none().withHeader("Idempotency-Attempt", "99"));
          try (SafeRetryClient keyInMerchant =
              RelayRows.client(
                  server, time, store, b -> b.keyPlacement(KeyPlacement.header("X-Merchant")))) {
            RelayRows.enqueue(
                database, store, keyInMerchant, time, "key-header", 1000, RequestOptions.none());
          }
          RelayRows.enqueue(database, store, client, time, "plain", 1000, RequestOptions.none());

          answer(server, n -> charge());
          RelayPass pass;
          try (SafeRetryClient relayClient =
              RelayRows.client(
                  server,
                  time,
                  store,
                  b ->
                      b.apiKeyStyle(ApiKeyStyle.header("X-Merchant"))
                          .apiKey(RELAY_TOKEN)
                          .attemptHeader("Idempotency-Attempt"))) {
            pass = relay(store, relayClient, time).build().runOnce();
          }
          assertThat(pass.held()).isEqualTo(4);
          assertThat(pass.succeeded()).isEqualTo(1);
          List<RecordedRequest> wire = drain(server);
          assertThat(wire).hasSize(1);
          assertThat(wire.get(0).getHeaders().values("X-Merchant")).containsExactly(RELAY_TOKEN);
          assertThat(wire.get(0).getBody().utf8()).contains("\"plain\"");
          assertThat(JdbcOutbox.of(store).held())
              .hasSize(4)
              .allSatisfy(
                  h -> {
                    assertThat(h.reason()).isEqualTo(HoldReason.UNSENDABLE);
                    assertThat(h.record().state()).isEqualTo(IntentState.PENDING);
                    assertThat(h.request()).isNotNull();
                    assertThat(h.note()).doesNotContain("acct_victim", RELAY_TOKEN);
                  });
        });
  }
}
