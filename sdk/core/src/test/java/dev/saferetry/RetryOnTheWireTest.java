package dev.saferetry;

import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.drain;
import static dev.saferetry.testing.Answers.dropAfterRequest;
import static dev.saferetry.testing.Answers.json;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.call.Attempt;
import dev.saferetry.call.Outcome;
import dev.saferetry.error.ApiException;
import dev.saferetry.error.CallFailedException;
import dev.saferetry.error.IdempotencyKeyReusedException;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.error.Reason;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.resilience.RetryClassifier;
import dev.saferetry.resilience.TransportFailure;
import dev.saferetry.testing.Answers;
import java.util.List;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

class RetryOnTheWireTest extends BothPaths {
  private static final ChargeCreateParams PARAMS = ChargeCreateParams.of(1000, "eur");

  @Test
  void droppedConnectionAfterTheServerReadTheRequestIsRetriedWithTheSameKey() throws Exception {
    server.enqueue(dropAfterRequest());
    server.enqueue(charge());

    CallResult<?> result = call(client, Charges.CREATE, PARAMS);

    List<RecordedRequest> requests = drain(server);
    assertThat(requests).hasSize(2);
    assertThat(Answers.keys(requests, "Idempotency-Key")).containsOnly(result.key().value());
    assertThat(result.attempts().get(0).failure()).isEqualTo(TransportFailure.UNEXPECTED_EOF);
    assertThat(result.attempts().get(1).status()).isEqualTo(200);
  }

  @Test
  void conflictWhileInProgressThenSuccess() throws Exception {
    server.enqueue(json(409, "{\"error\":{\"code\":\"request_in_progress\"}}"));
    server.enqueue(charge());

    CallResult<?> result = call(client, Charges.CREATE, PARAMS);

    assertThat(result.status()).isEqualTo(200);
    assertThat(result.attempts()).extracting(Attempt::status).containsExactly(409, 200);
    assertThat(Answers.keys(drain(server), "Idempotency-Key")).containsOnly(result.key().value());
  }

  @Test
  void conflictUntilRetriesRunOutIsRequestInProgress() throws Exception {
    for (int i = 0; i < 4; i++) {
      server.enqueue(status(409));
    }
    OutcomeUnknownException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            OutcomeUnknownException.class, () -> call(client, Charges.CREATE, PARAMS));
    assertThat(e.reason()).isEqualTo(Reason.IN_PROGRESS);
    assertThat(e.attempts()).extracting(Attempt::status).containsExactly(409, 409, 409, 409);
    assertThat(Answers.keys(drain(server), "Idempotency-Key"))
        .hasSize(4)
        .containsOnly(e.key().value());
  }

  @Test
  void unprocessableEntityIsKeyReusedAndNotRetried() throws Exception {
    server.enqueue(
        json(
            422,
            "{\"error\":{\"type\":\"idempotency_error\","
                + "\"code\":\"idempotency_key_reused\",\"message\":\"secret detail\"}}"));

    assertThatThrownBy(() -> call(client, Charges.CREATE, PARAMS))
        .isInstanceOfSatisfying(
            IdempotencyKeyReusedException.class,
            e -> {
              assertThat(e.status()).isEqualTo(422);
              assertThat(e.errorCode()).isEqualTo("idempotency_key_reused");
              assertThat(e.errorType()).isEqualTo("idempotency_error");
              assertThat(e.outcome()).isEqualTo(Outcome.FAILED);
              assertThat(e.getMessage()).doesNotContain("secret detail");
            });
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void stripesBadRequestWithAnIdempotencyErrorIsAlsoKeyReused() {
    server.enqueue(
        json(
            400,
            "{\"error\":{\"type\":\"idempotency_error\","
                + "\"message\":\"Keys for idempotent requests can only be used with the same"
                + " parameters\"}}"));
    assertThatThrownBy(() -> call(client, Charges.CREATE, PARAMS))
        .isInstanceOfSatisfying(
            IdempotencyKeyReusedException.class, e -> assertThat(e.status()).isEqualTo(400));
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void otherClientErrorsAreNotRetried() {
    for (int code : new int[] {400, 401, 403, 404}) {
      server.enqueue(status(code));
      int before = server.getRequestCount();
      assertThatThrownBy(() -> call(client, Charges.CREATE, PARAMS))
          .isExactlyInstanceOf(ApiException.class)
          .satisfies(e -> assertThat(((ApiException) e).status()).isEqualTo(code));
      assertThat(server.getRequestCount()).isEqualTo(before + 1);
    }
  }

  @Test
  void serverErrorsUntilRetriesRunOutAreUnknownNotFailed() throws Exception {
    for (int i = 0; i < 4; i++) {
      server.enqueue(status(500));
    }
    assertThatThrownBy(() -> call(client, Charges.CREATE, PARAMS))
        .isExactlyInstanceOf(OutcomeUnknownException.class)
        .satisfies(
            e -> {
              OutcomeUnknownException u = (OutcomeUnknownException) e;
              assertThat(u.outcome()).isEqualTo(Outcome.UNKNOWN);
              assertThat(u.attempts()).hasSize(4);
              assertThat(u.getMessage()).contains("retry the same intent");
            });
    assertThat(server.getRequestCount()).isEqualTo(4);
  }

  @Test
  void connectFailuresOnlyProveNothingWasSent() throws Exception {
    MockWebServer closed = new MockWebServer();
    closed.start(0);
    String url = closed.url("/").toString();
    closed.close();
    try (SafeRetryClient c = builder().baseUrl(url).build()) {
      assertThatThrownBy(() -> call(c, Charges.CREATE, PARAMS))
          .isInstanceOfSatisfying(
              CallFailedException.class,
              e -> {
                assertThat(e.outcome()).isEqualTo(Outcome.FAILED);
                assertThat(e.reason()).isEqualTo(Reason.NOT_SENT);
                assertThat(e.attempts())
                    .hasSize(4)
                    .allMatch(a -> a.failure() == TransportFailure.CONNECT_FAILED);
              });
    }
  }

  @Test
  void theClassifierIsReplaceable() throws Exception {
    RetryClassifier only409InProgress =
        (status, errorBody) ->
            status == 409
                ? errorBody.contains("request_in_progress")
                : RetryClassifier.standard().retries(status, errorBody);
    server.enqueue(json(409, "{\"error\":{\"code\":\"resource_conflict\"}}"));
    try (SafeRetryClient c = builder().retryClassifier(only409InProgress).build()) {
      assertThatThrownBy(() -> call(c, Charges.CREATE, PARAMS))
          .isInstanceOfSatisfying(
              ApiException.class, e -> assertThat(e.errorCode()).isEqualTo("resource_conflict"));
    }
    assertThat(server.getRequestCount()).isEqualTo(1);
  }
}
