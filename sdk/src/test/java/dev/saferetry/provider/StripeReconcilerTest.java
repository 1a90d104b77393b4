package dev.saferetry.provider;

import static dev.saferetry.Answers.charge;
import static dev.saferetry.Answers.dropAfterRequest;
import static dev.saferetry.Answers.json;
import static dev.saferetry.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.CallResult;
import dev.saferetry.Reconciliation;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.payments.ChargeCreateParams;
import dev.saferetry.payments.Charges;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.testing.FakeTime;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Stripe preset's reconciler resolves unknown intents with the charges search endpoint. */
class StripeReconcilerTest {
  private static final String KEY = "sk_test_reconcile_0123456789";
  private final FakeTime time = new FakeTime();
  private MockWebServer server;
  private SafeRetryClient client;
  private StripeReconciler reconciler;

  @BeforeEach
  void start() throws Exception {
    server = new MockWebServer();
    server.start(0);
    client =
        SafeRetryClient.builder()
            .baseUrl(server.url("/").toString())
            .apiKey(KEY)
            .clock(time)
            .sleeper(time)
            .jitter(() -> 0.5)
            .breakerPolicy(BreakerPolicy.disabled())
            .build();
    reconciler = StripeReconciler.charges("intent_id").withSearchLag(Duration.ofMinutes(5), time);
  }

  @AfterEach
  void stop() throws Exception {
    client.close();
    server.close();
  }

  /** A charge whose four attempts all lost their answer: UNKNOWN, its intent pending. */
  private IntentRecord unknownIntent(String intentId) throws Exception {
    for (int i = 0; i < 4; i++) {
      server.enqueue(dropAfterRequest());
    }
    RequestOptions options = RequestOptions.builder().intentId(intentId).build();
    assertThatThrownBy(() -> client.execute(Charges.CREATE, params(), options))
        .isInstanceOf(OutcomeUnknownException.class);
    for (int i = 0; i < 4; i++) {
      server.takeRequest(1, TimeUnit.SECONDS);
    }
    return client.pendingIntents().get(0);
  }

  private static ChargeCreateParams params() {
    return new ChargeCreateParams(1000, "eur", "order 1", null);
  }

  private static String searchResult(String charges) {
    return "{\"object\":\"search_result\",\"url\":\"/v1/charges/search\",\"has_more\":false,"
        + "\"data\":["
        + charges
        + "]}";
  }

  @Test
  void aChargeFoundByItsIntentIdCompletesTheIntent() throws Exception {
    IntentRecord intent = unknownIntent("order-1/charge");
    server.enqueue(json(200, searchResult("{\"id\":\"ch_9\",\"status\":\"succeeded\"}")));

    Reconciliation found = client.reconcile(intent, reconciler);

    assertThat(found).isEqualTo(Reconciliation.succeeded("ch_9"));
    RecordedRequest lookup = server.takeRequest(1, TimeUnit.SECONDS);
    assertThat(lookup.getMethod()).isEqualTo("GET");
    assertThat(lookup.getUrl().encodedPath()).isEqualTo("/v1/charges/search");
    assertThat(lookup.getUrl().queryParameter("query"))
        .isEqualTo("metadata['intent_id']:'order-1/charge'");
    assertThat(lookup.getHeaders().get("Authorization")).isEqualTo("Bearer " + KEY);
    assertThat(lookup.getHeaders().get("Idempotency-Key")).isNull();
    IntentRecord stored = client.keyStore().find(intent.scope(), intent.intentId()).orElseThrow();
    assertThat(stored.state()).isEqualTo(IntentState.SUCCEEDED);
    assertThat(stored.resourceId()).isEqualTo("ch_9");
    assertThat(stored.key()).isEqualTo(intent.key());
    assertThat(client.pendingIntents()).isEmpty();
  }

  @Test
  void aFailedChargeCompletesTheIntentAsFailed() throws Exception {
    IntentRecord intent = unknownIntent("order-1/charge");
    server.enqueue(
        json(
            200,
            searchResult(
                "{\"id\":\"ch_7\",\"status\":\"failed\",\"failure_code\":\"card_declined\"}")));
    Reconciliation found = client.reconcile(intent, reconciler);
    assertThat(found.finding()).isEqualTo(Reconciliation.Finding.FAILED);
    assertThat(found.note()).contains("card_declined");
    assertThat(client.keyStore().find(intent.scope(), intent.intentId()).orElseThrow().state())
        .isEqualTo(IntentState.FAILED);
  }

  @Test
  void nothingFoundForAnOldIntentLetsANewKeyBeMintedExplicitly() throws Exception {
    IntentRecord intent = unknownIntent("order-1/charge");
    time.advance(Duration.ofMinutes(6));
    server.enqueue(json(200, searchResult("")));

    assertThat(client.reconcile(intent, reconciler)).isEqualTo(Reconciliation.nothingExists());
    assertThat(client.pendingIntents()).containsExactly(intent); // nothing recorded by itself

    assertThat(client.abandonIntent(intent)).isTrue(); // the explicit step
    server.takeRequest(1, TimeUnit.SECONDS);
    server.enqueue(charge());
    CallResult<?> again =
        client.execute(
            Charges.CREATE, params(), RequestOptions.builder().intentId("order-1/charge").build());
    assertThat(again.key()).isNotEqualTo(intent.key());
    assertThat(server.takeRequest(1, TimeUnit.SECONDS).getHeaders().get("Idempotency-Key"))
        .isEqualTo(again.key().value());
  }

  @Test
  void nothingFoundForAYoungIntentProvesNothing() throws Exception {
    IntentRecord intent = unknownIntent("order-1/charge");
    server.enqueue(json(200, searchResult("")));
    Reconciliation found = client.reconcile(intent, reconciler);
    assertThat(found.finding()).isEqualTo(Reconciliation.Finding.UNRESOLVED);
    assertThat(client.pendingIntents()).containsExactly(intent);
  }

  @Test
  void aFailedLookupOrTwoChargesProveNothing() throws Exception {
    IntentRecord intent = unknownIntent("order-1/charge");
    time.advance(Duration.ofHours(1));
    for (int i = 0; i < 4; i++) {
      server.enqueue(status(500));
    }
    assertThat(client.reconcile(intent, reconciler).finding())
        .isEqualTo(Reconciliation.Finding.UNRESOLVED);
    server.enqueue(
        json(200, searchResult("{\"id\":\"ch_1\",\"status\":\"succeeded\"},{\"id\":\"ch_2\"}")));
    Reconciliation two = client.reconcile(intent, reconciler);
    assertThat(two.finding()).isEqualTo(Reconciliation.Finding.UNRESOLVED);
    assertThat(two.note()).contains("2 charges");
    assertThat(client.pendingIntents()).containsExactly(intent);
  }

  @Test
  void quotesInTheIntentIdAreEscapedInTheQuery() throws Exception {
    IntentRecord intent = unknownIntent("o'1");
    server.enqueue(json(200, searchResult("")));
    client.reconcile(intent, reconciler);
    assertThat(server.takeRequest(1, TimeUnit.SECONDS).getUrl().queryParameter("query"))
        .isEqualTo("metadata['intent_id']:'o\\'1'");
  }
}
