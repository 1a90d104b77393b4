package dev.saferetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.call.Attempt;
import dev.saferetry.call.Outcome;
import dev.saferetry.error.ApiException;
import dev.saferetry.error.CallFailedException;
import dev.saferetry.error.IdempotencyKeyReusedException;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.error.Reason;
import dev.saferetry.error.ResponseBodyException;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.idempotency.BeginResult;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.testing.Answers;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The type tells the outcome: three sealed branches, one per outcome, each with its reasons; a
 * caller who catches the three branches has handled every way a call ends.
 */
class OutcomeBranchesTest extends BothPaths {
  private static final ChargeCreateParams PARAMS = ChargeCreateParams.of(1000, "eur");

  @Test
  void theHierarchyHasOneBranchPerOutcome() {
    assertThat(SafeRetryException.class.getPermittedSubclasses())
        .containsExactlyInAnyOrder(
            CallFailedException.class, OutcomeUnknownException.class, ResponseBodyException.class);
    assertThat(EnumSet.allOf(Reason.class).stream().filter(r -> r.outcome() == Outcome.FAILED))
        .containsExactlyInAnyOrder(
            Reason.REJECTED,
            Reason.KEY_REUSED,
            Reason.NOT_SENT,
            Reason.CIRCUIT_OPEN,
            Reason.INTENT_MISMATCH,
            Reason.INTENT_KEY_CONFLICT,
            Reason.CANCELLED);
    assertThat(EnumSet.allOf(Reason.class).stream().filter(r -> r.outcome() == Outcome.SUCCEEDED))
        .containsExactlyInAnyOrder(Reason.BODY_UNREADABLE, Reason.BODY_TOO_LARGE);
    assertThat(EnumSet.allOf(Reason.class).stream().filter(r -> r.outcome() == Outcome.UNKNOWN))
        .hasSize(Reason.values().length - 9)
        .contains(Reason.CIRCUIT_OPEN_AFTER_SEND, Reason.CANCELLED_AFTER_SEND);
    assertThat(EnumSet.allOf(Reason.class).stream().filter(Reason::mustReconcile))
        .allMatch(r -> r.outcome() == Outcome.UNKNOWN);
  }

  @Test
  void anExceptionTakesOnlyTheReasonsOfItsOutcome() {
    List<Attempt> none = List.of();
    assertThatThrownBy(
            () ->
                new CallFailedException(
                    Reason.RETRIES_EXHAUSTED, "x", null, null, none, null, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> new CallFailedException(Reason.REJECTED, "x", null, null, none, null, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () ->
                new OutcomeUnknownException(
                    Reason.NOT_SENT, "x", null, null, null, none, null, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () ->
                new ResponseBodyException(
                    Reason.CANCELLED_AFTER_SEND, "x", 200, null, null, none, null, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(new ApiException(400, null, null, null, null, null, null, none, null).reason())
        .isEqualTo(Reason.REJECTED);
    assertThat(
            new IdempotencyKeyReusedException(422, null, null, null, null, null, null, none, null)
                .reason())
        .isEqualTo(Reason.KEY_REUSED);
    assertThat(
            new CallFailedException(Reason.CANCELLED, "cancelled", null, "i-1", none, null, null))
        .hasMessage("cancelled [intent i-1, 0 attempts]")
        .extracting(SafeRetryException::outcome)
        .isEqualTo(Outcome.FAILED);
  }

  @Test
  void aKeyStoreThatCannotRecordTheIntentIsAnUnknownOutcomeAndNothingIsSent() {
    KeyStore broken =
        new ForwardingKeyStore(KeyStore.inMemory()) {
          @Override
          public BeginResult begin(IntentRecord candidate) {
            throw new KeyStoreException("disk full");
          }
        };
    try (SafeRetryClient c = builder().keyStore(broken).build()) {
      assertThatThrownBy(
              () -> call(c, Charges.CREATE, PARAMS, RequestOptions.none().withIntentId("o-1")))
          .isInstanceOfSatisfying(
              OutcomeUnknownException.class,
              e -> {
                assertThat(e.reason()).isEqualTo(Reason.KEY_STORE_FAILED);
                assertThat(e.getMessage())
                    .contains("could not confirm the intent's state")
                    .doesNotContain("could not record")
                    .doesNotContain("failed");
                assertThat(e.getCause()).isInstanceOf(KeyStoreException.class);
                assertThat(e.attempts()).isEmpty();
                assertThat(e.intentId()).isEqualTo("o-1");
              });
    }
    assertThat(server.getRequestCount()).isZero();
  }

  @Test
  void catchingTheThreeBranchesHandlesEveryEnding() {
    server.enqueue(Answers.status(400)); // FAILED
    server.enqueue(Answers.status(503)); // UNKNOWN after retries
    server.enqueue(Answers.status(503));
    server.enqueue(Answers.status(503));
    server.enqueue(Answers.status(503));
    server.enqueue(Answers.json(200, "not json")); // SUCCEEDED, unreadable
    List<Outcome> seen = new java.util.ArrayList<>();
    for (int i = 0; i < 3; i++) {
      try {
        call(client, Charges.CREATE, PARAMS);
      } catch (OutcomeUnknownException e) {
        seen.add(e.outcome());
      } catch (CallFailedException e) {
        seen.add(e.outcome());
      } catch (ResponseBodyException e) {
        seen.add(e.outcome());
      }
    }
    assertThat(seen).containsExactly(Outcome.FAILED, Outcome.UNKNOWN, Outcome.SUCCEEDED);
  }
}
