package dev.saferetry;

import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.drain;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.call.Outcome;
import dev.saferetry.error.Reason;
import dev.saferetry.event.AttemptStarted;
import dev.saferetry.event.CallFinished;
import dev.saferetry.event.CallStarted;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.resilience.RetryPolicy;
import java.time.Duration;
import java.util.List;
import mockwebserver3.RecordedRequest;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import org.junit.jupiter.api.Test;

/**
 * What observability needs: one start and one end per call with its outcome and total latency, the
 * attempt as a typed OkHttp tag (a tracing header per attempt), an optional attempt number.
 */
class CallEventsTest extends BothPaths {
  private static final ChargeCreateParams PARAMS = ChargeCreateParams.of(1000, "eur");

  private final EventLog log = new EventLog();
  private final List<Object> events = log.events();

  @Test
  void aSuccessfulCallReportsItsStartAndItsEndWithTheTotalLatency() {
    server.enqueue(status(503));
    server.enqueue(charge());
    try (SafeRetryClient c = builder().listener(log).build()) {
      CallResult<?> result =
          call(c, Charges.CREATE, PARAMS, RequestOptions.none().withIntentId("o-1"));

      assertThat(log.names())
          .containsExactly(
              "CallStarted",
              "AttemptStarted",
              "AttemptFinished",
              "RetryScheduled",
              "AttemptStarted",
              "AttemptFinished",
              "CallFinished");
      CallStarted start = (CallStarted) events.get(0);
      assertThat(start.operation()).isEqualTo(Charges.CREATE.name());
      assertThat(start.method()).isEqualTo("POST");
      assertThat(start.intentId()).isEqualTo("o-1");
      CallFinished end = (CallFinished) events.get(6);
      assertThat(end.callId()).isEqualTo(start.callId()).startsWith("call_");
      assertThat(end.outcome()).isEqualTo(Outcome.SUCCEEDED);
      assertThat(end.reason()).isNull();
      assertThat(end.status()).isEqualTo(200);
      assertThat(end.attempts()).isEqualTo(2);
      assertThat(end.key()).isEqualTo(result.key());
      // Fake time: the only time that passed is the 250 ms wait before the retry.
      assertThat(end.duration()).isEqualTo(Duration.ofMillis(250));
    }
  }

  @Test
  void aCallThatGivesUpReportsItsReason() {
    server.enqueue(status(503));
    try (SafeRetryClient c = builder().listener(log).retryPolicy(RetryPolicy.noRetries()).build()) {
      assertThatThrownBy(() -> call(c, Charges.CREATE, PARAMS));
    }
    CallFinished end = (CallFinished) events.get(events.size() - 1);
    assertThat(end.outcome()).isEqualTo(Outcome.UNKNOWN);
    assertThat(end.reason()).isEqualTo(Reason.RETRIES_EXHAUSTED);
    assertThat(end.status()).isEqualTo(503);
  }

  @Test
  void anInterceptorSeesEachAttemptAsATypedTagAndCanAddATracingHeader() throws Exception {
    server.enqueue(status(503));
    server.enqueue(charge());
    OkHttpClient traced =
        new OkHttpClient.Builder()
            .addInterceptor(
                chain -> {
                  AttemptStarted attempt = chain.request().tag(AttemptStarted.class);
                  Request.Builder r = chain.request().newBuilder();
                  if (attempt != null) {
                    r.header("traceparent", "00-" + attempt.callId() + "-" + attempt.attempt());
                  }
                  return chain.proceed(r.build());
                })
            .build();
    try (SafeRetryClient c = builder().okHttpClient(traced).listener(log).build()) {
      call(c, Charges.CREATE, PARAMS);
    }
    String callId = ((CallStarted) events.get(0)).callId();
    assertThat(drain(server))
        .extracting(r -> r.getHeaders().get("traceparent"))
        .containsExactly("00-" + callId + "-1", "00-" + callId + "-2");
  }

  @Test
  void theAttemptNumberHeaderIsSentOnlyWhenConfigured() throws Exception {
    server.enqueue(status(503));
    server.enqueue(charge());
    server.enqueue(charge());
    try (SafeRetryClient c = builder().attemptHeader("Idempotency-Attempt").build()) {
      call(c, Charges.CREATE, PARAMS);
    }
    call(client, Charges.CREATE, PARAMS);
    List<RecordedRequest> sent = drain(server);
    assertThat(sent)
        .extracting(r -> r.getHeaders().get("Idempotency-Attempt"))
        .containsExactly("1", "2", null);
    assertThat(sent.get(0).getHeaders().get("Idempotency-Key"))
        .isEqualTo(sent.get(1).getHeaders().get("Idempotency-Key"));
  }

  @Test
  void theAttemptNumberHeaderCannotBeTheKeysOrBeSetPerCall() {
    assertThatThrownBy(() -> builder().attemptHeader("Idempotency-Key").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("attemptHeader");
    assertThatThrownBy(() -> builder().attemptHeader("bad header").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("attemptHeader");
    try (SafeRetryClient c = builder().attemptHeader("Idempotency-Attempt").build()) {
      assertThatThrownBy(
              () ->
                  call(
                      c,
                      Charges.CREATE,
                      PARAMS,
                      RequestOptions.none().withHeader("idempotency-attempt", "9")))
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(server.getRequestCount()).isZero();
  }
}
