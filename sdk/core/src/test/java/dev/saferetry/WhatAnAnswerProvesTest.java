package dev.saferetry;

import static dev.saferetry.testing.Answers.CHARGE_JSON;
import static dev.saferetry.testing.Answers.drain;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.saferetry.call.Attempt;
import dev.saferetry.call.Outcome;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.error.Reason;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.examples.payments.Charge;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What an answer proves decides how a call ends; a retry hint or a replay marker only decides
 * whether another attempt follows. FAILED keeps one meaning — the server certainly did nothing — so
 * an answer that proves nothing (a 5xx, or a status the SDK retries: 408, 409, 429) never ends
 * FAILED, whatever a should-retry header says; a replayed error is the key's stored result and is
 * never re-sent. Each row is run over the wire, on both paths, with an intent recorded in the
 * store.
 */
class WhatAnAnswerProvesTest extends BothPaths {
  private static final ChargeCreateParams PARAMS = ChargeCreateParams.of(1000, "eur");
  private static final IntentScope SCOPE = new IntentScope("default", "POST /v1/charges");
  private static final String STRIPE = "stripe";
  private static final String OWN_MARKER = "preset with its own replay marker";

  /**
   * One row of the decision table.
   *
   * @param name what the server answers
   * @param preset null for the common contract (and {@code X-Should-Retry}), or a preset's name
   * @param answers the server's answers, in order
   * @param requests how many requests reach the server
   * @param reason how the call ends: a reason, or null for a result
   * @param state the intent's state in the store afterwards
   */
  record Row(
      String name,
      String preset,
      List<MockResponse> answers,
      int requests,
      Reason reason,
      IntentState state) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static MockResponse answer(int status, String... headers) {
    MockResponse.Builder b = new MockResponse.Builder().code(status);
    for (int i = 0; i < headers.length; i += 2) {
      b.addHeader(headers[i], headers[i + 1]);
    }
    boolean ok = status >= 200 && status < 300;
    return b.setHeader("Content-Type", "application/json")
        .body(
            ok ? CHARGE_JSON : "{\"error\":{\"type\":\"api_error\",\"code\":\"c" + status + "\"}}")
        .build();
  }

  private static List<MockResponse> times(int n, MockResponse a) {
    List<MockResponse> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(a);
    }
    return out;
  }

  private static Row row(String name, MockResponse a, int requests, Reason why, IntentState s) {
    return new Row(name, null, times(4, a), requests, why, s);
  }

  static Stream<Row> rows() {
    Reason noRetry = Reason.SERVER_SAID_DO_NOT_RETRY;
    Reason stored = Reason.PROVIDER_STORED_ERROR;
    Reason exhausted = Reason.RETRIES_EXHAUSTED;
    IntentState pending = IntentState.PENDING;
    IntentState failed = IntentState.FAILED;
    IntentState succeeded = IntentState.SUCCEEDED;
    String hint = "X-Should-Retry";
    String replay = "Idempotent-Replayed";
    MockResponse ok = answer(200);
    Reason afterAmbiguous = Reason.REJECTED_AFTER_AMBIGUOUS_ATTEMPT;
    Reason redirected = Reason.REDIRECTED;
    return Stream.of(
        // A should-retry header stops the retries; it never proves that nothing happened.
        row("503 should-retry false", answer(503, hint, "false"), 1, noRetry, pending),
        row("500 should-retry FALSE", answer(500, hint, "FALSE"), 1, noRetry, pending),
        row("502 should-retry ' false '", answer(502, hint, " false "), 1, noRetry, pending),
        row("504 should-retry false", answer(504, hint, "false"), 1, noRetry, pending),
        row("409 in progress, should-retry false", answer(409, hint, "false"), 1, noRetry, pending),
        row("429 should-retry false", answer(429, hint, "false"), 1, noRetry, pending),
        row("408 should-retry false", answer(408, hint, "false"), 1, noRetry, pending),
        row("505 should-retry false", answer(505, hint, "false"), 1, noRetry, pending),
        row(
            "503 should-retry sent twice, false",
            answer(503, hint, "false", hint, "false"),
            1,
            noRetry,
            pending),
        row(
            "503 lower-case header name",
            answer(503, "x-should-retry", "false"),
            1,
            noRetry,
            pending),
        new Row(
            "503 Stripe-Should-Retry false",
            STRIPE,
            times(4, answer(503, "Stripe-Should-Retry", "false")),
            1,
            noRetry,
            pending),
        new Row(
            "500 Stripe-Should-Retry false",
            STRIPE,
            times(4, answer(500, "Stripe-Should-Retry", "false")),
            1,
            noRetry,
            pending),
        new Row(
            "409 Stripe-Should-Retry false",
            STRIPE,
            times(4, answer(409, "Stripe-Should-Retry", "false")),
            1,
            noRetry,
            pending),
        // A hint that cannot be read is no hint: the status decides.
        row(
            "503 should-retry 'false, true'",
            answer(503, hint, "false, true"),
            4,
            exhausted,
            pending),
        row(
            "503 should-retry false and true",
            answer(503, hint, "false", hint, "true"),
            4,
            exhausted,
            pending),
        row("503 should-retry 'no'", answer(503, hint, "no"), 4, exhausted, pending),
        new Row(
            "503 the two hint headers disagree",
            STRIPE,
            times(4, answer(503, "Stripe-Should-Retry", "false", hint, "true")),
            4,
            exhausted,
            pending),
        // On an answer that proves nothing happened, a hint only says whether to try again.
        row("400 should-retry false", answer(400, hint, "false"), 1, Reason.REJECTED, failed),
        new Row(
            "400 should-retry true, then 200",
            null,
            List.of(answer(400, hint, "true"), ok),
            2,
            null,
            succeeded),
        row("400 should-retry true every time", answer(400, hint, "true"), 4, exhausted, pending),
        row("200 should-retry false", answer(200, hint, "false"), 1, null, succeeded),
        new Row(
            "503 should-retry true, then 200",
            null,
            List.of(answer(503, hint, "true"), ok),
            2,
            null,
            succeeded),
        // A server error never proves that nothing happened, retried or not.
        row("501", answer(501), 1, Reason.SERVER_ERROR_NOT_RETRIED, pending),
        row("524 from a gateway", answer(524), 1, Reason.SERVER_ERROR_NOT_RETRIED, pending),
        new Row(
            "501 should-retry true, then 200",
            null,
            List.of(answer(501, hint, "true"), ok),
            2,
            null,
            succeeded),
        // A replayed answer is the key's stored result: a retry gets it again.
        row("200 replayed", answer(200, replay, "true"), 1, null, succeeded),
        row("503 replayed", answer(503, replay, "true"), 1, stored, pending),
        row(
            "500 replayed, should-retry true",
            answer(500, replay, "true", hint, "true"),
            1,
            stored,
            pending),
        row(
            "500 replayed, should-retry false",
            answer(500, replay, "true", hint, "false"),
            1,
            stored,
            pending),
        row("501 replayed", answer(501, replay, "true"), 1, stored, pending),
        row("409 replayed", answer(409, replay, "true"), 1, stored, pending),
        row("429 replayed", answer(429, replay, "true"), 1, stored, pending),
        row("503 replayed ' TRUE '", answer(503, replay, " TRUE "), 1, stored, pending),
        row("503 replayed 'false, true'", answer(503, replay, "false, true"), 1, stored, pending),
        row(
            "503 replay header twice",
            answer(503, replay, "false", replay, "true"),
            1,
            stored,
            pending),
        row("503 replayed false", answer(503, replay, "false"), 4, exhausted, pending),
        new Row(
            "503, then 503 replayed",
            null,
            List.of(answer(503), answer(503, replay, "true")),
            2,
            stored,
            pending),
        new Row(
            "500 replayed, Stripe preset",
            STRIPE,
            times(4, answer(500, replay, "true")),
            1,
            stored,
            pending),
        new Row(
            "503 with the preset's own marker",
            OWN_MARKER,
            times(4, answer(503, "X-Replay", "yes")),
            1,
            stored,
            pending),
        new Row(
            "503 with the common marker, preset has its own",
            OWN_MARKER,
            times(4, answer(503, replay, "true")),
            4,
            exhausted,
            pending),
        // A replayed rejection is a stored rejection: nothing was created for the key.
        row("400 replayed", answer(400, replay, "true"), 1, Reason.REJECTED, failed),
        row(
            "400 replayed, should-retry true",
            answer(400, replay, "true", hint, "true"),
            1,
            Reason.REJECTED,
            failed),
        row("402 replayed", answer(402, replay, "true"), 1, Reason.REJECTED, failed),
        row("422 replayed", answer(422, replay, "true"), 1, Reason.KEY_REUSED, failed),
        // A rejection proves only that its own attempt did nothing: an earlier attempt of the call
        // that may have been executed leaves the outcome unknown.
        new Row(
            "503, then 401", null, List.of(answer(503), answer(401)), 2, afterAmbiguous, pending),
        new Row(
            "429, then 400", null, List.of(answer(429), answer(400)), 2, afterAmbiguous, pending),
        new Row(
            "409, then 422", null, List.of(answer(409), answer(422)), 2, afterAmbiguous, pending),
        new Row(
            "400 should-retry true, then 401",
            null,
            List.of(answer(400, hint, "true"), answer(401)),
            2,
            Reason.REJECTED,
            failed),
        new Row(
            "503, then 400 replayed",
            null,
            List.of(answer(503), answer(400, replay, "true")),
            2,
            Reason.REJECTED,
            failed),
        // The SDK never follows a redirect, and a redirect proves nothing.
        row("302", answer(302, "Location", "/v1/elsewhere"), 1, redirected, pending),
        row("301", answer(301, "Location", "/v1/elsewhere"), 1, redirected, pending),
        row("307", answer(307, "Location", "/v1/elsewhere"), 1, redirected, pending),
        row("304", answer(304), 1, redirected, pending),
        new Row("503, then 303", null, List.of(answer(503), answer(303)), 2, redirected, pending));
  }

  private SafeRetryClient clientFor(String preset) {
    if (preset == null) {
      return client;
    }
    SafeRetryClientBuilder b = builder().preset(ProviderPreset.stripe());
    if (OWN_MARKER.equals(preset)) {
      b.replayMarker("X-Replay", "yes");
    }
    return b.build();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void everyAnswerEndsAsTheDecisionTableSays(Row row) throws Exception {
    row.answers().forEach(server::enqueue);
    SafeRetryClient c = clientFor(row.preset());
    Throwable thrown;
    try {
      thrown =
          catchThrowable(
              () -> call(c, Charges.CREATE, PARAMS, RequestOptions.none().withIntentId("o-1")));
    } finally {
      if (c != client) {
        c.close();
      }
    }
    List<RecordedRequest> wire = drain(server);
    assertThat(wire).as("requests on the wire").hasSize(row.requests());
    IntentRecord intent = c.keyStore().find(SCOPE, "o-1").orElseThrow();
    assertThat(wire)
        .extracting(r -> r.getHeaders().get("Idempotency-Key"))
        .as("the intent's key on every attempt")
        .containsOnly(intent.key().value());
    assertThat(intent.state()).as("intent state").isEqualTo(row.state());
    if (row.reason() == null) {
      assertThat(thrown).isNull();
      return;
    }
    assertThat(thrown).isInstanceOf(SafeRetryException.class);
    SafeRetryException e = (SafeRetryException) thrown;
    assertThat(e.reason()).isEqualTo(row.reason());
    assertThat(e.key()).isEqualTo(intent.key());
    assertThat(e.attempts()).hasSize(row.requests());
    if (e instanceof OutcomeUnknownException u && u.reason().mustReconcile()) {
      assertThat(e.getMessage())
          .contains("reconcile the intent with the provider")
          .doesNotContain("retry the same intent");
    }
  }

  @Test
  void aReplayedServerErrorEndsUnknownAtOnceAndEveryRedriveSendsItOnlyOnce() throws Exception {
    MockResponse stored = answer(500, "Idempotent-Replayed", "true");
    for (int i = 0; i < 8; i++) {
      server.enqueue(stored);
    }
    RequestOptions o2 = RequestOptions.none().withIntentId("o-2");
    List<OutcomeUnknownException> endings = new ArrayList<>();
    for (int redrive = 0; redrive < 2; redrive++) {
      endings.add(
          catchThrowableOfType(
              OutcomeUnknownException.class, () -> call(client, Charges.CREATE, PARAMS, o2)));
    }
    IntentRecord intent = client.keyStore().find(SCOPE, "o-2").orElseThrow();
    assertThat(intent.state()).isEqualTo(IntentState.PENDING);
    assertThat(client.pendingIntents()).extracting(IntentRecord::intentId).containsExactly("o-2");
    for (OutcomeUnknownException e : endings) {
      assertThat(e.reason()).isEqualTo(Reason.PROVIDER_STORED_ERROR);
      assertThat(e.reason().mustReconcile()).isTrue();
      assertThat(e.key()).isEqualTo(intent.key());
      assertThat(e.attempts())
          .singleElement()
          .satisfies(a -> assertThat(a.status()).isEqualTo(500));
      assertThat(e.response().orElseThrow().replayed()).isTrue();
      assertThat(e.getMessage())
          .contains("HTTP 500 marked as a replay (Idempotent-Replayed)")
          .contains("stored this error as the result of the idempotency key")
          .contains("reconcile the intent with the provider")
          .doesNotContain("retry the same intent");
    }
    List<RecordedRequest> wire = drain(server);
    assertThat(wire)
        .extracting(r -> r.getHeaders().get("Idempotency-Key"))
        .containsExactly(intent.key().value(), intent.key().value());
  }

  @Test
  void aDoNotRetryHintOnAServerErrorIsNeverStoredAsFailed() throws Exception {
    server.enqueue(answer(503, "X-Should-Retry", "false"));
    OutcomeUnknownException e =
        catchThrowableOfType(
            OutcomeUnknownException.class,
            () -> call(client, Charges.CREATE, PARAMS, RequestOptions.none().withIntentId("o-3")));
    assertThat(e.outcome()).isEqualTo(Outcome.UNKNOWN);
    assertThat(e.reason()).isEqualTo(Reason.SERVER_SAID_DO_NOT_RETRY);
    assertThat(e.getMessage())
        .contains("HTTP 503 with a should-retry header of false")
        .contains("reconcile the intent with the provider");
    assertThat(client.keyStore().find(SCOPE, "o-3").orElseThrow().state())
        .isEqualTo(IntentState.PENDING);
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void aReplayMarkerOnACallWithoutAKeyIsNoStoredResult() throws Exception {
    // A read carries no key, so nothing is stored for it: a marked 503 is retried like any 503.
    server.enqueue(answer(503, "Idempotent-Replayed", "true"));
    server.enqueue(answer(200));
    CallResult<Charge> r =
        call(client, Charges.RETRIEVE, null, RequestOptions.none().withPathParam("id", "ch_1"));
    assertThat(r.value().id()).isEqualTo("ch_1");
    assertThat(r.attempts()).extracting(Attempt::status).containsExactly(503, 200);
    assertThat(drain(server))
        .extracting(q -> q.getHeaders().get("Idempotency-Key"))
        .containsOnlyNulls();
  }
}
