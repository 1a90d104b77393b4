package dev.saferetry;

import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.drain;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.call.Attempt;
import dev.saferetry.call.Outcome;
import dev.saferetry.error.Reason;
import dev.saferetry.event.AttemptFinished;
import dev.saferetry.event.AttemptStarted;
import dev.saferetry.event.CallFinished;
import dev.saferetry.event.RetryScheduled;
import dev.saferetry.event.SafeRetryListener;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.testing.Answers;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

class RequestIdsAndEventsTest extends BothPaths {
  private static final ChargeCreateParams PARAMS = ChargeCreateParams.of(1000, "eur");

  @Test
  void everyAttemptSendsAFreshRequestIdThatIsNeverTheKey() throws Exception {
    server.enqueue(status(503));
    server.enqueue(status(503));
    server.enqueue(charge());

    CallResult<?> result = call(client, Charges.CREATE, PARAMS);

    List<RecordedRequest> requests = drain(server);
    List<String> sent = requests.stream().map(r -> r.getHeaders().get("X-Request-Id")).toList();
    assertThat(sent)
        .doesNotContainNull()
        .doesNotHaveDuplicates()
        .doesNotContain(result.key().value());
    assertThat(result.attempts()).extracting(Attempt::requestId).containsExactlyElementsOf(sent);
  }

  @Test
  void theServersRequestIdAndReplayFlagAreCaptured() {
    server.enqueue(
        new MockResponse.Builder()
            .code(200)
            .setHeader("Request-Id", "req_srv_1")
            .setHeader("Idempotent-Replayed", "true")
            .body(Answers.CHARGE_JSON)
            .build());

    CallResult<?> result = call(client, Charges.CREATE, PARAMS);

    assertThat(result.serverRequestId()).isEqualTo("req_srv_1");
    assertThat(result.replayed()).isTrue();
  }

  @Test
  void xRequestIdResponseHeaderIsAlsoCaptured() {
    server.enqueue(
        new MockResponse.Builder()
            .code(200)
            .setHeader("X-Request-Id", "abc")
            .body(Answers.CHARGE_JSON)
            .build());
    CallResult<?> result = call(client, Charges.CREATE, PARAMS);
    assertThat(result.serverRequestId()).isEqualTo("abc");
    assertThat(result.replayed()).isFalse();
  }

  @Test
  void listenerSeesAttemptsRetriesAndGivingUpInOrder() {
    EventLog log = new EventLog();
    List<Object> events = log.events();
    server.enqueue(status(503));
    server.enqueue(status(400));
    try (SafeRetryClient c = builder().listener(log).build()) {
      org.junit.jupiter.api.Assertions.assertThrows(
          RuntimeException.class, () -> call(c, Charges.CREATE, PARAMS));
    }
    assertThat(log.names())
        .containsExactly(
            "CallStarted",
            "AttemptStarted",
            "AttemptFinished",
            "RetryScheduled",
            "AttemptStarted",
            "AttemptFinished",
            "CallFinished");
    RetryScheduled retry = (RetryScheduled) events.get(3);
    assertThat(retry.nextAttempt()).isEqualTo(2);
    assertThat(retry.delay()).isEqualTo(Duration.ofMillis(250));
    CallFinished end = (CallFinished) events.get(6);
    // The 503 may have been executed: the 400 proves only that the second attempt did nothing.
    assertThat(end.outcome()).isEqualTo(Outcome.UNKNOWN);
    assertThat(end.reason()).isEqualTo(Reason.REJECTED_AFTER_AMBIGUOUS_ATTEMPT);
    assertThat(end.status()).isEqualTo(400);
    assertThat(end.attempts()).isEqualTo(2);
    assertThat(end.key()).isEqualTo(retry.key());
    assertThat(events)
        .allSatisfy(e -> assertThat(e).hasFieldOrPropertyWithValue("callId", end.callId()));
  }

  @Test
  void aCompositeListenerFeedsEveryListenerEvenWhenOneThrows() {
    List<String> seen = new CopyOnWriteArrayList<>();
    SafeRetryListener broken =
        new SafeRetryListener() {
          @Override
          public void onAttemptEnd(AttemptFinished e) {
            throw new IllegalStateException("broken metrics");
          }
        };
    SafeRetryListener logs =
        new SafeRetryListener() {
          @Override
          public void onAttemptEnd(AttemptFinished e) {
            seen.add("attempt " + e.attempt().number());
          }
        };
    server.enqueue(status(503));
    server.enqueue(charge());
    try (SafeRetryClient c =
        builder().listener(SafeRetryListener.composite(broken, logs)).build()) {
      call(c, Charges.CREATE, PARAMS);
    }
    assertThat(seen).containsExactly("attempt 1", "attempt 2");
  }

  @Test
  void aThrowingListenerDoesNotBreakTheCall() {
    server.enqueue(charge());
    try (SafeRetryClient c =
        builder()
            .listener(
                new SafeRetryListener() {
                  @Override
                  public void onAttemptStart(AttemptStarted e) {
                    throw new IllegalStateException("listener bug");
                  }
                })
            .build()) {
      assertThat(call(c, Charges.CREATE, PARAMS).status()).isEqualTo(200);
    }
  }
}
