package dev.saferetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.error.SafeRetryException;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.resilience.RetryBudgetPolicy;
import dev.saferetry.testing.Answers;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

class RetryBudgetTest extends BothPaths {
  private static final int INTENTS = 40;

  private void alwaysUnavailable() {
    server.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            return Answers.status(503);
          }
        });
  }

  private List<SafeRetryException> runConcurrently(SafeRetryClient c) {
    List<CompletableFuture<CallResult<dev.saferetry.examples.payments.Charge>>> calls =
        new ArrayList<>();
    for (int i = 0; i < INTENTS; i++) {
      calls.add(
          c.executeAsync(
              Charges.CREATE,
              ChargeCreateParams.of(100 + i, "eur"),
              RequestOptions.none().withIntentId("budget-" + i)));
    }
    List<SafeRetryException> failures = new ArrayList<>();
    for (var f : calls) {
      try {
        f.join();
      } catch (CompletionException e) {
        failures.add((SafeRetryException) e.getCause());
      }
    }
    return failures;
  }

  @Test
  void aDeadServerSeesEachIntentOncePlusAtMostTheBudget() {
    alwaysUnavailable();
    try (SafeRetryClient c =
        builder().retryBudget(RetryBudgetPolicy.defaults().withCapacity(10)).build()) {
      List<SafeRetryException> failures = runConcurrently(c);
      assertThat(failures)
          .hasSize(INTENTS)
          .allMatch(SafeRetryException::isOutcomeUnknown)
          .allMatch(e -> e.key() != null);
      assertThat(c.pendingIntents()).hasSize(INTENTS);
    }
    assertThat(server.getRequestCount()).isBetween(INTENTS, INTENTS + 10);
  }

  @Test
  void withoutABudgetEveryIntentSpendsAllItsAttempts() {
    alwaysUnavailable();
    // Concurrent calls must not share the fake clock's advances, or deadlines would pass early.
    try (SafeRetryClient c =
        builder()
            .retryBudget(RetryBudgetPolicy.unlimited())
            .clock(java.time.Clock.systemUTC())
            .sleeper(delay -> {})
            .build()) {
      runConcurrently(c);
    }
    assertThat(server.getRequestCount()).isEqualTo(INTENTS * 4);
  }

  @Test
  void successesEarnTokensBack() {
    server.setDispatcher(
        new Dispatcher() {
          private int n;

          @Override
          public synchronized MockResponse dispatch(RecordedRequest request) {
            // alternate: fail, succeed, fail, succeed ...
            return n++ % 2 == 0 ? Answers.status(503) : Answers.charge();
          }
        });
    try (SafeRetryClient c =
        builder()
            .retryBudget(
                RetryBudgetPolicy.defaults().withCapacity(1).withRetryCost(1).withSuccessCredit(1))
            .build()) {
      for (int i = 0; i < 5; i++) {
        assertThat(call(c, Charges.CREATE, ChargeCreateParams.of(1, "eur")).attempts()).hasSize(2);
      }
    }
    assertThat(server.getRequestCount()).isEqualTo(10);
  }
}
