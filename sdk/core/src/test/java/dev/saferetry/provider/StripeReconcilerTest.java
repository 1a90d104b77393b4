package dev.saferetry.provider;

import static dev.saferetry.testing.Answers.dropAfterRequest;
import static dev.saferetry.testing.Answers.json;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.Operation;
import dev.saferetry.ProviderPreset;
import dev.saferetry.Reconciler;
import dev.saferetry.Reconciliation;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.testing.FakeTime;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Stripe preset's reconciler completes an intent only with the charge that provably is the
 * intent's: searched within the intent's account, the intent id exactly in its metadata, the
 * expected amount and currency, a status that says what its request was answered with. Anything
 * else — no hit, several, a hit that differs in any way, a malformed answer — proves nothing.
 */
class StripeReconcilerTest {
  static final String KEY = "sk_test_reconcile_0123456789";
  static final StripeReconciler EUR_10 = StripeReconciler.charge("intent_id", 1000, "EUR");

  @SuppressWarnings("unchecked")
  static final Class<Map<String, Object>> MAP = (Class<Map<String, Object>>) (Class<?>) Map.class;

  static final Operation<Map<String, Object>, Map<String, Object>> CHARGE =
      Operation.post("/v1/charges", MAP, MAP);

  final FakeTime time = new FakeTime();
  MockWebServer server;
  SafeRetryClient client;
  final Reconciler reconciler = StripeReconciler.charges(intent -> EUR_10);

  @BeforeEach
  void start() throws Exception {
    server = new MockWebServer();
    server.start(0);
    client = builder().build();
  }

  @AfterEach
  void stop() {
    client.close();
    server.close();
  }

  SafeRetryClientBuilder builder() {
    return SafeRetryClient.builder()
        .baseUrl(server.url("/").toString())
        .preset(ProviderPreset.stripe())
        .apiKey(KEY)
        .clock(time)
        .sleeper(time)
        .jitter(() -> 0.5)
        .breakerPolicy(BreakerPolicy.disabled());
  }

  /**
   * A charge of 10 EUR carrying the intent id in its metadata, sent with {@code account} (or none)
   * as its Stripe-Account, whose four attempts all lost their answer: UNKNOWN, the intent pending.
   */
  IntentRecord unknownIntent(SafeRetryClient c, String intentId, String account) throws Exception {
    for (int i = 0; i < 4; i++) {
      server.enqueue(dropAfterRequest());
    }
    RequestOptions options =
        account == null
            ? RequestOptions.none().withIntentId(intentId)
            : RequestOptions.none().withIntentId(intentId).withHeader("Stripe-Account", account);
    Map<String, Object> body =
        Map.of("amount", 1000, "currency", "eur", "metadata", Map.of("intent_id", intentId));
    assertThatThrownBy(() -> c.execute(CHARGE, body, options))
        .isInstanceOf(OutcomeUnknownException.class);
    for (int i = 0; i < 4; i++) {
      server.takeRequest(1, TimeUnit.SECONDS);
    }
    return c.pendingIntents().stream()
        .filter(r -> r.intentId().equals(intentId))
        .findFirst()
        .orElseThrow();
  }

  IntentRecord unknownIntent(String intentId) throws Exception {
    return unknownIntent(client, intentId, null);
  }

  static String searchResult(String... charges) {
    return "{\"object\":\"search_result\",\"url\":\"/v1/charges/search\",\"has_more\":false,"
        + "\"data\":["
        + String.join(",", charges)
        + "]}";
  }

  /** A charge as Stripe shows it, with the given fields replacing the defaults. */
  static String charge(String... replacements) {
    Map<String, String> fields = new java.util.LinkedHashMap<>();
    fields.put("id", "\"ch_9\"");
    fields.put("object", "\"charge\"");
    fields.put("amount", "1000");
    fields.put("currency", "\"eur\"");
    fields.put("status", "\"succeeded\"");
    fields.put("metadata", "{\"intent_id\":\"order-1/charge\",\"saferetry_tenant\":\"default\"}");
    for (int i = 0; i < replacements.length; i += 2) {
      if (replacements[i + 1] == null) {
        fields.remove(replacements[i]);
      } else {
        fields.put(replacements[i], replacements[i + 1]);
      }
    }
    StringBuilder out = new StringBuilder("{");
    fields.forEach(
        (k, v) ->
            out.append(out.length() > 1 ? "," : "").append('"').append(k).append("\":").append(v));
    return out.append('}').toString();
  }

  private Reconciliation reconcileWith(IntentRecord intent, String answer) throws Exception {
    server.enqueue(json(200, answer));
    Reconciliation found = client.reconcile(intent, reconciler);
    server.takeRequest(1, TimeUnit.SECONDS);
    return found;
  }

  private void assertStillPending(IntentRecord intent) {
    IntentRecord stored = client.keyStore().find(intent.scope(), intent.intentId()).orElseThrow();
    assertThat(stored.state()).isEqualTo(IntentState.PENDING);
    assertThat(stored.key()).isEqualTo(intent.key());
  }

  @Test
  void theChargeThatMatchesEveryFieldCompletesTheIntent() throws Exception {
    IntentRecord intent = unknownIntent("order-1/charge");
    server.enqueue(json(200, searchResult(charge())));

    Reconciliation found = client.reconcile(intent, reconciler);

    assertThat(found).isEqualTo(Reconciliation.succeeded("ch_9"));
    RecordedRequest lookup = server.takeRequest(1, TimeUnit.SECONDS);
    assertThat(lookup.getMethod()).isEqualTo("GET");
    assertThat(lookup.getUrl().encodedPath()).isEqualTo("/v1/charges/search");
    assertThat(lookup.getUrl().queryParameter("query"))
        .isEqualTo(
            "metadata['intent_id']:'order-1/charge' AND metadata['saferetry_tenant']:'default'");
    assertThat(lookup.getHeaders().get("Authorization")).isEqualTo("Bearer " + KEY);
    assertThat(lookup.getHeaders().get("Idempotency-Key")).isNull();
    assertThat(lookup.getHeaders().get("Stripe-Account")).isNull();
    IntentRecord stored = client.keyStore().find(intent.scope(), intent.intentId()).orElseThrow();
    assertThat(stored.state()).isEqualTo(IntentState.SUCCEEDED);
    assertThat(stored.resourceId()).isEqualTo("ch_9");
    assertThat(stored.key()).isEqualTo(intent.key());
    assertThat(client.pendingIntents()).isEmpty();
  }

  @Test
  void theStatusRuleSucceededAndPendingSucceedFailedFailsAnythingElseProvesNothing()
      throws Exception {
    IntentRecord intent = unknownIntent("order-1/charge");
    for (String status :
        new String[] {
          "\"canceled\"",
          "\"requires_capture\"",
          "\"Succeeded\"",
          "\"succeeded \"",
          "1",
          "true",
          "null",
          "{\"s\":\"succeeded\"}",
          null
        }) {
      assertThat(reconcileWith(intent, searchResult(charge("status", status))).isUnresolved())
          .as("status %s", status)
          .isTrue();
    }
    assertStillPending(intent);
    // pending: the charge request was answered 200 and the charge exists, as for succeeded
    assertThat(reconcileWith(intent, searchResult(charge("status", "\"pending\""))))
        .isEqualTo(Reconciliation.succeeded("ch_9"));
    IntentRecord stored = client.keyStore().find(intent.scope(), intent.intentId()).orElseThrow();
    assertThat(stored.state()).isEqualTo(IntentState.SUCCEEDED);

    IntentRecord declined = unknownIntent("order-2/charge");
    Reconciliation failed =
        reconcileWith(
            declined,
            searchResult(
                charge(
                    "metadata",
                    "{\"intent_id\":\"order-2/charge\",\"saferetry_tenant\":\"default\"}",
                    "status",
                    "\"failed\"",
                    "failure_code",
                    "\"card_declined\\r\\nX: 1\"")));
    assertThat(failed.isFailed()).isTrue();
    assertThat(failed.resourceId()).isEqualTo("ch_9");
    assertThat(failed.note()).isEqualTo("charge failed"); // a code that is not a code is left out
    assertThat(client.keyStore().find(declined.scope(), declined.intentId()).orElseThrow().state())
        .isEqualTo(IntentState.FAILED);
  }

  @Test
  void aFailedChargeNamesItsFailureCode() throws Exception {
    IntentRecord intent = unknownIntent("order-1/charge");
    Reconciliation failed =
        reconcileWith(
            intent,
            searchResult(charge("status", "\"failed\"", "failure_code", "\"card_declined\"")));
    assertThat(failed).isEqualTo(Reconciliation.failed("ch_9", "charge failed: card_declined"));
  }

  @Test
  void aChargeNamingAnotherIntentEvenByPrefixOrCaseProvesNothing() throws Exception {
    IntentRecord intent = unknownIntent("order-1/charge");
    for (String metadata :
        new String[] {
          "{\"intent_id\":\"order-1/charge-2\"}",
          "{\"intent_id\":\"order-1\"}",
          "{\"intent_id\":\"ORDER-1/charge\"}",
          "{\"intent_id\":\" order-1/charge\"}",
          "{\"intent_id\":\"order-1/charge\\u0000\"}",
          "{\"other\":\"order-1/charge\"}",
          "{\"intent_id\":[\"order-1/charge\"]}",
          "{\"intent_id\":null}",
          "{}",
          "\"order-1/charge\"",
          null
        }) {
      assertThat(reconcileWith(intent, searchResult(charge("metadata", metadata))).isUnresolved())
          .as("metadata %s", metadata)
          .isTrue();
    }
    assertStillPending(intent);
  }

  @Test
  void aChargeMadeUnderAnotherTenantOrNamingNoTenantProvesNothing() throws Exception {
    IntentRecord intent = unknownIntent("order-1/charge");
    for (String metadata :
        new String[] {
          "{\"intent_id\":\"order-1/charge\",\"saferetry_tenant\":\"shop-b\"}",
          "{\"intent_id\":\"order-1/charge\",\"saferetry_tenant\":\"DEFAULT\"}",
          "{\"intent_id\":\"order-1/charge\",\"saferetry_tenant\":\"default \"}",
          "{\"intent_id\":\"order-1/charge\",\"saferetry_tenant\":[\"default\"]}",
          "{\"intent_id\":\"order-1/charge\",\"tenant\":\"default\"}",
          "{\"intent_id\":\"order-1/charge\"}"
        }) {
      Reconciliation found = reconcileWith(intent, searchResult(charge("metadata", metadata)));
      assertThat(found.isUnresolved()).as("metadata %s", metadata).isTrue();
      assertThat(found.note()).contains("tenant");
    }
    assertStillPending(intent);

    // Another entry may carry the tenant; the search then asks for it there.
    Reconciler named = StripeReconciler.charges(r -> EUR_10.tenantIn("shop"));
    server.enqueue(
        json(
            200,
            searchResult(
                charge("metadata", "{\"intent_id\":\"order-1/charge\",\"shop\":\"default\"}"))));
    assertThat(client.reconcile(intent, named)).isEqualTo(Reconciliation.succeeded("ch_9"));
    assertThat(server.takeRequest(1, TimeUnit.SECONDS).getUrl().queryParameter("query"))
        .endsWith(" AND metadata['shop']:'default'");
    assertThatThrownBy(() -> EUR_10.tenantIn("intent_id"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> EUR_10.tenantIn("a b")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aChargeForAnotherAmountOrCurrencyProvesNothing() throws Exception {
    IntentRecord intent = unknownIntent("order-1/charge");
    for (String[] field :
        new String[][] {
          {"amount", "999"},
          {"amount", "1001"},
          {"amount", "100000"},
          {"amount", "1000.0"},
          {"amount", "1000.5"},
          {"amount", "\"1000\""},
          {"amount", "-1000"},
          {"amount", "18446744073709552616"},
          {"amount", "null"},
          {"amount", null},
          {"currency", "\"usd\""},
          {"currency", "\"EUR\""},
          {"currency", "\"eur \""},
          {"currency", "\"\u0435ur\""}, // a Cyrillic e
          {"currency", "null"},
          {"currency", null}
        }) {
      Reconciliation found = reconcileWith(intent, searchResult(charge(field[0], field[1])));
      assertThat(found.isUnresolved()).as("%s %s", field[0], field[1]).isTrue();
      assertThat(found.note()).doesNotContain("1001").doesNotContain("usd");
    }
    assertStillPending(intent);
  }

  @Test
  void noHitNeverProvesThatNothingExistsHoweverOldTheIntent() throws Exception {
    IntentRecord intent = unknownIntent("order-1/charge");
    time.advance(Duration.ofDays(30));
    Reconciliation found = reconcileWith(intent, searchResult());
    assertThat(found.isUnresolved()).isTrue();
    assertThat(found.note()).contains("proves nothing");
    assertThat(client.pendingIntents()).containsExactly(intent);
  }

  @Test
  void severalHitsAMalformedAnswerOrAFailedLookupProveNothing() throws Exception {
    IntentRecord intent = unknownIntent("order-1/charge");
    for (String answer :
        new String[] {
          searchResult(charge(), charge("id", "\"ch_10\"")),
          searchResult(charge()).replace("\"has_more\":false", "\"has_more\":true"),
          searchResult(charge()).replace("search_result", "list"),
          searchResult(charge()).replace("\"object\":\"search_result\",", ""),
          "{\"object\":\"search_result\",\"data\":{\"id\":\"ch_9\"}}",
          "{\"object\":\"search_result\"}",
          searchResult("null"),
          searchResult("\"ch_9\""),
          searchResult(charge("object", "\"payment_intent\"")),
          searchResult(charge("id", null)),
          searchResult(charge("id", "\"\"")),
          searchResult(charge("id", "42")),
          searchResult(charge("id", "\"ch_9\\r\\nX-Injected: 1\"")),
          searchResult(charge("id", "\"ch_" + "9".repeat(5000) + "\"")),
          "[]",
          "null",
          "\"search_result\""
        }) {
      Reconciliation found = reconcileWith(intent, answer);
      assertThat(found.isUnresolved()).as(answer).isTrue();
      assertThat(found.note()).doesNotContain("X-Injected").doesNotContain("99999");
    }
    for (int i = 0; i < 4; i++) {
      server.enqueue(status(500));
    }
    assertThat(client.reconcile(intent, reconciler).isUnresolved()).isTrue();
    assertStillPending(intent);
  }

  @Test
  void theSearchIsScopedByTheIntentsConnectedAccount() throws Exception {
    IntentRecord intent = unknownIntent(client, "order-1/charge", "acct_A");
    // Stripe answers from the account the request names: the platform has a charge carrying the
    // same intent id (another tenant's order), the connected account's is not searchable yet.
    server.setDispatcher(
        new mockwebserver3.Dispatcher() {
          @Override
          public mockwebserver3.MockResponse dispatch(RecordedRequest request) {
            String account = request.getHeaders().get("Stripe-Account");
            return json(
                200,
                account == null ? searchResult(charge("id", "\"ch_platform\"")) : searchResult());
          }
        });
    Reconciler scoped =
        StripeReconciler.charges(
            r -> r.intentId().equals(intent.intentId()) ? EUR_10.onAccount("acct_A") : null);

    Reconciliation found = client.reconcile(intent, scoped);

    assertThat(found.isUnresolved()).isTrue();
    RecordedRequest lookup = server.takeRequest(1, TimeUnit.SECONDS);
    assertThat(lookup.getHeaders().get("Stripe-Account")).isEqualTo("acct_A");
    assertThat(lookup.getHeaders().values("Stripe-Account")).hasSize(1);
    assertStillPending(intent);
  }

  @Test
  void theSearchCarriesTheScopeAsTheRequestCombinedIt() throws Exception {
    try (SafeRetryClient withDefault = builder().header("Stripe-Account", "acct_default").build()) {
      IntentRecord intent = unknownIntent(withDefault, "order-1/charge", null);
      server.enqueue(json(200, searchResult(charge())));
      assertThat(withDefault.reconcile(intent, reconciler).isSucceeded()).isTrue();
      assertThat(server.takeRequest(1, TimeUnit.SECONDS).getHeaders().get("Stripe-Account"))
          .as("the client's default, as the charge request carried it")
          .isEqualTo("acct_default");

      IntentRecord other = unknownIntent(withDefault, "order-2/charge", "acct_B");
      server.enqueue(json(200, searchResult()));
      Reconciler onB =
          StripeReconciler.charges(r -> EUR_10.onAccount("acct_B").inContext("ctx_org/acct_B"));
      withDefault.reconcile(other, onB);
      RecordedRequest lookup = server.takeRequest(1, TimeUnit.SECONDS);
      assertThat(lookup.getHeaders().values("Stripe-Account")).containsExactly("acct_B");
      assertThat(lookup.getHeaders().values("Stripe-Context")).containsExactly("ctx_org/acct_B");
    }
  }

  @Test
  void theQueryEscapesQuotesAndRefusesIntentIdsWithABackslash() throws Exception {
    String hostile = "o'1\" AND status:'failed' OR -metadata['x']:'y'";
    IntentRecord intent = unknownIntent(hostile);
    server.enqueue(json(200, searchResult()));
    client.reconcile(intent, reconciler);
    RecordedRequest lookup = server.takeRequest(1, TimeUnit.SECONDS);
    assertThat(lookup.getUrl().queryParameter("query"))
        .isEqualTo(
            "metadata['intent_id']:'o\\'1\" AND status:\\'failed\\' OR -metadata[\\'x\\']:\\'y\\''"
                + " AND metadata['saferetry_tenant']:'default'");
    assertThat(lookup.getUrl().encodedQuery())
        .startsWith("query=metadata%5B%27intent_id%27%5D%3A%27o%5C%271%22%20AND")
        .doesNotContain("'")
        .doesNotContain("+")
        .doesNotContain(" ");

    int before = server.getRequestCount();
    for (String id : new String[] {"o\\'1", "o\\", "\\", "a\\\\b"}) {
      IntentRecord withBackslash = unknownIntent(id);
      before += 4;
      Reconciliation found = client.reconcile(withBackslash, reconciler);
      assertThat(found.isUnresolved()).isTrue();
      assertThat(found.note()).contains("backslash");
    }
    assertThat(server.getRequestCount()).as("nothing searched").isEqualTo(before);
  }

  @Test
  void anIntentWithoutAKnownExpectationProvesNothingAndSendsNothing() throws Exception {
    IntentRecord intent = unknownIntent("order-1/charge");
    int before = server.getRequestCount();
    Reconciliation unknown = client.reconcile(intent, StripeReconciler.charges(r -> null));
    assertThat(unknown.isUnresolved()).isTrue();
    Reconciliation broken =
        client.reconcile(
            intent,
            StripeReconciler.charges(
                r -> {
                  throw new IllegalStateException("orders database down: secret-dsn");
                }));
    assertThat(broken.isUnresolved()).isTrue();
    assertThat(broken.note()).contains("IllegalStateException").doesNotContain("secret-dsn");
    assertThat(server.getRequestCount()).isEqualTo(before);
    assertStillPending(intent);
  }
}
