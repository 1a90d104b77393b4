package dev.saferetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.error.ApiException;
import dev.saferetry.error.CallFailedException;
import dev.saferetry.error.FailedReason;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.error.Reason;
import dev.saferetry.error.ResponseBodyException;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.error.SucceededReason;
import dev.saferetry.error.UnknownReason;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.idempotency.BeginResult;
import dev.saferetry.idempotency.InMemoryKeyStore;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.testing.Answers;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.util.Arrays;
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
    assertThat(Reason.class.getPermittedSubclasses())
        .containsExactlyInAnyOrder(FailedReason.class, UnknownReason.class, SucceededReason.class);
    assertThat(EnumSet.allOf(FailedReason.class)).allMatch(r -> r.outcome() == Outcome.FAILED);
    assertThat(EnumSet.allOf(UnknownReason.class)).allMatch(r -> r.outcome() == Outcome.UNKNOWN);
    assertThat(EnumSet.allOf(SucceededReason.class))
        .allMatch(r -> r.outcome() == Outcome.SUCCEEDED);
  }

  @Test
  void exceptionConstructorsAreNotApi() {
    for (Class<?> type :
        List.of(
            SafeRetryException.class,
            CallFailedException.class,
            ApiException.class,
            dev.saferetry.error.IdempotencyKeyReusedException.class,
            OutcomeUnknownException.class,
            ResponseBodyException.class)) {
      Constructor<?>[] visible =
          Arrays.stream(type.getDeclaredConstructors())
              .filter(
                  k ->
                      Modifier.isPublic(k.getModifiers()) || Modifier.isProtected(k.getModifiers()))
              .toArray(Constructor<?>[]::new);
      assertThat(visible).as(type.getSimpleName()).isEmpty();
    }
  }

  @Test
  void aKeyStoreThatCannotRecordTheIntentIsAnUnknownOutcomeAndNothingIsSent() {
    KeyStore broken =
        new ForwardingKeyStore(new InMemoryKeyStore()) {
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
                assertThat(e.reason()).isEqualTo(UnknownReason.KEY_STORE_FAILED);
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
