package dev.saferetry;

import static dev.saferetry.testing.Answers.CHARGE_JSON;
import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.drain;
import static dev.saferetry.testing.Answers.json;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.call.ResponseView;
import dev.saferetry.error.ApiException;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.error.Reason;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.examples.payments.Charge;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.resilience.TransportFailure;
import dev.saferetry.testing.Answers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/**
 * The answer itself on results and exceptions, client-wide headers, and per-call overrides that
 * change one call of a shared client.
 */
class ResponseViewAndOverridesTest extends ClientFixture {
  private static final ChargeCreateParams PARAMS = ChargeCreateParams.of(1000, "eur");

  @Test
  void aResultCarriesStatusHeadersRequestIdReplayFlagAndTheBodyWhenAsked() {
    server.enqueue(
        new MockResponse.Builder()
            .code(201)
            .setHeader("Content-Type", "application/json")
            .setHeader("Request-Id", "req_srv_1")
            .setHeader("Idempotent-Replayed", "true")
            .addHeader("X-Thing", "a")
            .addHeader("X-Thing", "b")
            .body(CHARGE_JSON)
            .build());
    server.enqueue(charge());
    CallResult<Charge> kept =
        call(client, Charges.CREATE, PARAMS, RequestOptions.none().withKeepBody(true));
    ResponseView view = kept.response();
    assertThat(view.status()).isEqualTo(201);
    assertThat(view.serverRequestId()).isEqualTo("req_srv_1");
    assertThat(view.replayed()).isTrue();
    assertThat(kept.replayed()).isTrue();
    assertThat(view.headers().get("x-thing")).containsExactly("a", "b");
    assertThat(view.header("content-type")).contains("application/json");
    assertThat(new String(view.body().orElseThrow(), StandardCharsets.UTF_8))
        .isEqualTo(CHARGE_JSON);

    CallResult<Charge> plain = call(client, Charges.CREATE, PARAMS);
    assertThat(plain.response().body()).isEmpty();
    assertThat(plain.response().replayed()).isFalse();
  }

  @Test
  void everyErrorCarriesTheLastAnswer() {
    server.enqueue(
        new MockResponse.Builder()
            .code(402)
            .setHeader("Request-Id", "req_declined")
            .body("{\"error\":{\"type\":\"card_error\",\"code\":\"card_declined\"}}")
            .build());
    assertThatThrownBy(
            () -> call(client, Charges.CREATE, PARAMS, RequestOptions.none().withKeepBody(true)))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              ResponseView v = e.response().orElseThrow();
              assertThat(v.status()).isEqualTo(402);
              assertThat(v.serverRequestId()).isEqualTo("req_declined");
              assertThat(new String(v.body().orElseThrow(), StandardCharsets.UTF_8))
                  .contains("card_declined");
            });

    for (int i = 0; i < 4; i++) {
      server.enqueue(status(503));
    }
    assertThatThrownBy(() -> call(client, Charges.CREATE, PARAMS))
        .isInstanceOfSatisfying(
            OutcomeUnknownException.class,
            e -> {
              assertThat(e.response().orElseThrow().status()).isEqualTo(503);
              assertThat(e.response().orElseThrow().body()).isEmpty();
            });
  }

  @Test
  void aCallThatGotNoAnswerHasNoResponseView() {
    for (int i = 0; i < 4; i++) {
      server.enqueue(Answers.dropAfterRequest());
    }
    assertThatThrownBy(() -> call(client, Charges.CREATE, PARAMS))
        .isInstanceOfSatisfying(SafeRetryException.class, e -> assertThat(e.response()).isEmpty());
  }

  @Test
  void defaultHeadersAndTheUserAgentGoOnEveryRequestAndACallHeaderWins() throws Exception {
    try (SafeRetryClient c =
        builder()
            .header("Stripe-Version", "2024-06-20")
            .header("X-Tenant", "t1")
            .userAgent("shop", "1.2.3")
            .build()) {
      server.enqueue(charge());
      server.enqueue(charge());
      call(c, Charges.CREATE, PARAMS);
      call(c, Charges.CREATE, PARAMS, RequestOptions.none().withHeader("X-Tenant", "t2"));
    }
    List<RecordedRequest> sent = drain(server);
    assertThat(sent.get(0).getHeaders().get("Stripe-Version")).isEqualTo("2024-06-20");
    assertThat(sent.get(0).getHeaders().get("User-Agent"))
        .isEqualTo("shop/1.2.3 saferetry-java/0.1");
    assertThat(sent.get(0).getHeaders().get("X-Tenant")).isEqualTo("t1");
    assertThat(sent.get(1).getHeaders().values("X-Tenant")).containsExactly("t2");
    assertThatThrownBy(() -> builder().userAgent("my shop", "1"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void maxAttemptsCanBeLoweredOrRaisedForOneCall() {
    for (int i = 0; i < 8; i++) {
      server.enqueue(status(503));
    }
    server.enqueue(charge());
    assertThatThrownBy(
            () -> call(client, Charges.CREATE, PARAMS, RequestOptions.none().withMaxAttempts(2)))
        .isInstanceOfSatisfying(
            OutcomeUnknownException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.RETRIES_EXHAUSTED));
    assertThat(server.getRequestCount()).isEqualTo(2);
    CallResult<Charge> patient =
        call(client, Charges.CREATE, PARAMS, RequestOptions.none().withMaxAttempts(7));
    assertThat(patient.attempts()).hasSize(7); // 6 more 503s, then the charge
    assertThat(server.getRequestCount()).isEqualTo(9);
  }

  @Test
  void aCallsOwnDeadlineStopsRetriesThatTheClientsWouldAllow() {
    server.enqueue(status(503));
    assertThatThrownBy(
            () ->
                call(
                    client,
                    Charges.CREATE,
                    PARAMS,
                    RequestOptions.none().withDeadline(Duration.ofMillis(100))))
        .isInstanceOfSatisfying(
            OutcomeUnknownException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.DEADLINE_EXCEEDED));
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void anAttemptTimeoutCutsASlowAttemptWhichIsRetriedWithTheSameKey() throws Exception {
    server.enqueue(
        new MockResponse.Builder().headersDelay(10, TimeUnit.SECONDS).body(CHARGE_JSON).build());
    server.enqueue(charge());
    CallResult<Charge> r =
        call(
            client,
            Charges.CREATE,
            PARAMS,
            RequestOptions.none().withAttemptTimeout(Duration.ofMillis(300)));
    assertThat(r.attempts()).hasSize(2);
    assertThat(r.attempts().get(0).failure()).isEqualTo(TransportFailure.CALL_TIMEOUT);
    List<RecordedRequest> sent = drain(server);
    assertThat(sent.get(1).getHeaders().get("Idempotency-Key"))
        .isEqualTo(sent.get(0).getHeaders().get("Idempotency-Key"));
  }

  @Test
  void aCallsOwnApiKeyReplacesTheClientsAndIsNeverPrinted() throws Exception {
    String other = "sk_test_other_key_0123456789";
    try (SafeRetryClient c = builder().apiKey("sk_test_client_key_987654").build()) {
      server.enqueue(charge());
      server.enqueue(
          json(
              400,
              "{\"error\":{\"type\":\"invalid_request_error\",\"message\":\"" + other + "\"}}"));
      call(c, Charges.CREATE, PARAMS, RequestOptions.none().withApiKey(other));
      RequestOptions options = RequestOptions.none().withApiKey(other);
      assertThat(options.toString()).doesNotContain(other);
      assertThatThrownBy(() -> call(c, Charges.CREATE, PARAMS, options))
          .isInstanceOfSatisfying(
              ApiException.class,
              e -> {
                assertThat(e.errorMessage()).doesNotContain(other);
                assertThat(e.errorBody()).doesNotContain(other);
              });
      assertThat(c.circuitBreaker().getState()).isEqualTo(client.circuitBreaker().getState());
    }
    List<RecordedRequest> sent = drain(server);
    assertThat(sent.get(0).getHeaders().get("Authorization")).isEqualTo("Bearer " + other);
  }
}
