package dev.saferetry;

import static dev.saferetry.testing.Answers.drain;
import static dev.saferetry.testing.Answers.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.saferetry.codec.BodyCodec;
import dev.saferetry.codec.Fields;
import dev.saferetry.idempotency.IntentClaim;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.StoredIntent;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/**
 * Whatever a client knows to be a secret — its API key, the values of its credential headers, its
 * base URL's query — never reaches a request prepared for storing, in whatever shape the caller put
 * it: the call is refused naming the header, parameter or part, never quoting the value.
 */
class PreparedSecretsTest extends ClientFixture {
  private static final String API_KEY = "sk_live_enqueuer_0123456789abcdef";
  private static final String PARTNER_SECRET = "ps_partner_secret_fedcba9876";
  private static final String URL_TOKEN = "tok_in_base_url_5a5a5a5a5a";

  private static final Operation<Map<String, Object>, JsonNode> PAY =
      Operation.post("/v1/accounts/{account}/payments", mapType(), JsonNode.class);

  @SuppressWarnings("unchecked")
  private static Class<Map<String, Object>> mapType() {
    return (Class<Map<String, Object>>) (Class<?>) Map.class;
  }

  private SafeRetryClient enqueuer(Function<SafeRetryClientBuilder, SafeRetryClientBuilder> more) {
    return more.apply(
            builder()
                .baseUrl(server.url("/api/?token=" + URL_TOKEN).toString())
                .apiKey(API_KEY)
                .header("X-Partner-Secret", PARTNER_SECRET)
                .header("Stripe-Version", "2024-06-20"))
        .build();
  }

  private static RequestOptions intent(String id) {
    return RequestOptions.none().withIntentId(id).withPathParam("account", "acct_1");
  }

  private static Map<String, Object> payment(String description) {
    return Fields.of("amount", 1000, "currency", "eur", "description", description);
  }

  @Test
  void theBaseUrlsQueryIsLeftOutOfTheStoredTargetAndNoSecretIsInTheStoredIntent() {
    try (SafeRetryClient c = enqueuer(b -> b)) {
      StoredIntent stored =
          c.prepare(PAY, payment("order 1"), intent("order-1").withQueryParam("expand[]", "x"));
      assertThat(stored.request().target()).isEqualTo("v1/accounts/acct_1/payments?expand[]=x");
      assertThat(stored.request().headers()).containsOnlyKeys("Stripe-Version");
      String everything =
          stored.request().target()
              + stored.request().headers()
              + new String(stored.request().body(), StandardCharsets.UTF_8)
              + stored.record()
              + stored;
      assertThat(everything).doesNotContain(API_KEY, PARTNER_SECRET, URL_TOKEN, "token");
    }
    assertThat(server.getRequestCount()).isZero();
  }

  @Test
  void aSecretTheClientKnowsIsRefusedInAnyHeaderQueryParameterPathBodyOrIntentIdNamingWhere() {
    Map<String, RequestOptions> namedPlaces =
        Map.of(
            "X-Merchant",
            intent("o").withHeader("X-Merchant", "Bearer " + API_KEY),
            "X-Note",
            intent("o").withHeader("X-Note", "ref-" + PARTNER_SECRET + "-end"),
            "X-Forwarded-Copy",
            intent("o").withHeader("X-Forwarded-Copy", URL_TOKEN),
            "ref",
            intent("o").withQueryParam("ref", API_KEY),
            "callback",
            intent("o").withQueryParam("callback", "https://shop.example/?t=" + URL_TOKEN),
            "path",
            intent("o").withPathParam("account", "acct_" + API_KEY),
            "intent id",
            RequestOptions.none()
                .withIntentId("order-" + API_KEY)
                .withPathParam("account", "acct_1"));
    try (SafeRetryClient c = enqueuer(b -> b)) {
      namedPlaces.forEach(
          (where, options) ->
              assertThatThrownBy(() -> c.prepare(PAY, payment("order"), options))
                  .as(where)
                  .isInstanceOf(IllegalArgumentException.class)
                  .hasMessageContaining(where)
                  .hasMessageContaining("secret")
                  .hasMessageNotContaining(API_KEY)
                  .hasMessageNotContaining(PARTNER_SECRET)
                  .hasMessageNotContaining(URL_TOKEN));
      for (String secret : List.of(API_KEY, PARTNER_SECRET, URL_TOKEN)) {
        assertThatThrownBy(() -> c.prepare(PAY, payment("pay " + secret), intent("o")))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("body")
            .hasMessageNotContaining(secret);
      }
    }
    assertThat(server.getRequestCount()).isZero();
  }

  @Test
  void aSecretInAFormBodyIsFoundInItsEncodedForm() {
    String keyNeedingEscapes = "sk/live+key=with&marks_0123456789";
    BodyCodec form = BodyCodec.form();
    try (SafeRetryClient c = enqueuer(b -> b.apiKey(keyNeedingEscapes).codec(form))) {
      assertThatThrownBy(
              () -> c.prepare(PAY, payment("k " + keyNeedingEscapes), intent("form-order")))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("body")
          .hasMessageNotContaining(keyNeedingEscapes);
    }
  }

  @Test
  void aCallQueryParameterNamedAsACredentialIsRefusedAsACredentialHeaderIs() {
    try (SafeRetryClient c = enqueuer(b -> b)) {
      for (String name : List.of("access_token", "api_key", "Signature", "client_secret")) {
        assertThatThrownBy(
                () -> c.prepare(PAY, payment("o"), intent("o").withQueryParam(name, "abc123")))
            .as(name)
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining(name)
            .hasMessageNotContaining("abc123");
      }
    }
  }

  @Test
  void theSenderPutsItsOwnBaseUrlsQueryFirstAndNeverTheEnqueuers() throws Exception {
    StoredIntent stored;
    try (SafeRetryClient c = enqueuer(b -> b)) {
      stored =
          c.prepare(PAY, payment("order 2"), intent("order-2").withQueryParam("expand[]", "x"));
    }
    server.enqueue(json(200, "{\"id\":\"pay_1\"}"));
    IntentRecord record = stored.record();
    IntentClaim claim =
        new IntentClaim() {
          @Override
          public IntentRecord intent() {
            return record;
          }

          @Override
          public boolean stillOwned() {
            return true;
          }

          @Override
          public void complete(IntentRecord outcome) {}
        };
    try (SafeRetryClient sender =
        builder()
            .baseUrl(server.url("/api/?token=relays_own_token").toString())
            .apiKeyStyle(ApiKeyStyle.bearer())
            .apiKey("sk_relay_0000000000")
            .build()) {
      sender.send(stored.request(), claim);
    }
    RecordedRequest sent = drain(server).get(0);
    assertThat(sent.getUrl().encodedPath()).isEqualTo("/api/v1/accounts/acct_1/payments");
    assertThat(sent.getUrl().encodedQuery()).isEqualTo("token=relays_own_token&expand[]=x");
    assertThat(sent.getHeaders().get("Authorization")).isEqualTo("Bearer sk_relay_0000000000");
    assertThat(sent.getHeaders().toString()).doesNotContain(API_KEY, PARTNER_SECRET, URL_TOKEN);
  }
}
