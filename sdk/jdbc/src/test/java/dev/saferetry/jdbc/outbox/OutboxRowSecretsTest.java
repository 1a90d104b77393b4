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
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.jdbc.keystore.JdbcKeyStoreBuilder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Whatever the enqueuing client knows to be a secret — its API key, its credential headers' values,
 * its base URL's query — reaches no outbox row in any shape: not as the row's target, not copied
 * into another header, a query parameter, the path, the body or the intent id. A row carrying one
 * is refused naming where, and nothing is written.
 */
class OutboxRowSecretsTest {
  private static final String ENQUEUER_KEY = "sk_enqueuer_key_0123456789abcdef";
  private static final String ENQUEUER_URL_TOKEN = "tok_enqueuer_url_5a5a5a5a5a";
  private static final String RELAY_URL_TOKEN = "tok_relay_url_a5a5a5a5a5";

  @ParameterizedTest
  @EnumSource(Db.class)
  void aTokenInTheBaseUrlsQueryNeverReachesARowAndTheRelaySendsItsOwn(Db db) throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          try (SafeRetryClient enqueuer =
              RelayRows.client(
                  server,
                  time,
                  store,
                  b -> b.baseUrl(server.url("/?token=" + ENQUEUER_URL_TOKEN).toString()))) {
            RelayRows.enqueue(
                database, store, enqueuer, time, "order-1", 1000, RequestOptions.none());
          }
          assertThat(RelayRows.text(database, "order-1", "request_target")).isEqualTo("v1/charges");
          assertThat(row(database, "order-1")).doesNotContain(ENQUEUER_URL_TOKEN);

          answer(server, n -> charge());
          try (SafeRetryClient relayClient =
              RelayRows.client(
                  server,
                  time,
                  store,
                  b -> b.baseUrl(server.url("/?token=" + RELAY_URL_TOKEN).toString()))) {
            assertThat(relay(store, relayClient, time).build().runOnce().succeeded()).isEqualTo(1);
          }
          RecordedRequest sent = drain(server).get(0);
          assertThat(sent.getUrl().encodedPath()).isEqualTo("/v1/charges");
          assertThat(sent.getUrl().queryParameterValues("token")).containsExactly(RELAY_URL_TOKEN);
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void theClientsSecretsPlacedElsewhereRefuseTheRowNamingWhereAndWriteNothing(Db db)
      throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          Map<String, RequestOptions> refused = new LinkedHashMap<>();
          refused.put("X-Merchant", RequestOptions.none().withHeader("X-Merchant", bearer()));
          refused.put(
              "X-Forwarded-For-Merchant",
              RequestOptions.none().withHeader("X-Forwarded-For-Merchant", ENQUEUER_URL_TOKEN));
          refused.put("ref", RequestOptions.none().withQueryParam("ref", ENQUEUER_KEY));
          refused.put("access_token", RequestOptions.none().withQueryParam("access_token", "a1b2"));
          try (SafeRetryClient enqueuer =
              RelayRows.client(
                  server,
                  time,
                  store,
                  b ->
                      b.baseUrl(server.url("/?token=" + ENQUEUER_URL_TOKEN).toString())
                          .apiKeyStyle(ApiKeyStyle.header("X-Api-Key"))
                          .apiKey(ENQUEUER_KEY))) {
            refused.forEach(
                (where, options) ->
                    assertThatThrownBy(
                            () ->
                                RelayRows.enqueue(
                                    database, store, enqueuer, time, "order-1", 1000, options))
                        .as(where)
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining(where)
                        .hasMessageNotContaining(ENQUEUER_KEY)
                        .hasMessageNotContaining(ENQUEUER_URL_TOKEN)
                        .hasMessageNotContaining("a1b2"));
            assertThatThrownBy(() -> enqueueCharge(database, store, enqueuer, "order-2", bearer()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("body")
                .hasMessageNotContaining(ENQUEUER_KEY);
            assertThatThrownBy(
                    () ->
                        RelayRows.enqueue(
                            database,
                            store,
                            enqueuer,
                            time,
                            "order-" + ENQUEUER_KEY,
                            1000,
                            RequestOptions.none()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("intent id")
                .hasMessageNotContaining(ENQUEUER_KEY);
          }
          assertThat(
                  database.count(
                      "SELECT COUNT(*) FROM " + database.table(JdbcKeyStoreBuilder.DEFAULT_TABLE)))
              .isZero();
          assertThat(store.pending()).isEmpty();
          assertThat(server.getRequestCount()).isZero();
        });
  }

  private static String bearer() {
    return "Bearer " + ENQUEUER_KEY;
  }

  /** Enqueues a charge whose description is {@code description}, in a committed transaction. */
  private static void enqueueCharge(
      TestDatabase database,
      JdbcKeyStore store,
      SafeRetryClient client,
      String intentId,
      String description)
      throws Exception {
    try (Connection c = database.pool().getConnection()) {
      c.setAutoCommit(false);
      JdbcOutbox.of(store)
          .enqueue(
              c,
              client,
              Charges.CREATE,
              new ChargeCreateParams(1000, "eur", description, null),
              RequestOptions.none().withIntentId(intentId),
              Instant.now());
      c.commit();
    }
  }

  /** Every text column of an intent's row, joined. */
  private static String row(TestDatabase database, String intentId) throws Exception {
    StringBuilder all = new StringBuilder();
    for (String column :
        new String[] {
          "intent_id", "request_target", "request_headers", "request_type", "request_fingerprint"
        }) {
      all.append(RelayRows.text(database, intentId, column)).append('\n');
    }
    try (Connection c = database.pool().getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT request_body FROM "
                    + database.table(JdbcKeyStoreBuilder.DEFAULT_TABLE)
                    + " WHERE intent_id = ?")) {
      ps.setString(1, intentId);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        return all.append(new String(rs.getBytes(1), StandardCharsets.UTF_8)).toString();
      }
    }
  }
}
