package dev.saferetry.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.Attempt;
import dev.saferetry.event.SafeRetryListener;
import dev.saferetry.resilience.AttemptResponse;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.resilience.RetryBudgetPolicy;
import dev.saferetry.resilience.RetryPolicy;
import dev.saferetry.resilience.Verdict;
import io.github.resilience4j.retry.Retry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * resilience4j's Retry makes every retry decision, so its events and metrics describe the calls:
 * retries scheduled, successes with and without retries, definitive failures, and stops.
 */
class RetryDecisionTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

  private final List<String> events = new CopyOnWriteArrayList<>();

  private RetryDecision decision(RetryPolicy policy, RetryBudgetPolicy budget) {
    Breaker breaker =
        new Breaker(
            "test",
            Breaker.create("test", BreakerPolicy.disabled(), CLOCK),
            new SafeRetryListener() {});
    RetryDecision d =
        new RetryDecision("test", policy, () -> 0.5, breaker, new RetryBudget(budget), CLOCK);
    d.events()
        .onRetry(e -> events.add("retry " + e.getNumberOfRetryAttempts()))
        .onSuccess(e -> events.add("success"))
        .onError(e -> events.add("error"))
        .onIgnoredError(e -> events.add("ignored"));
    return d;
  }

  private static AttemptOutcome answer(int status, Duration retryAfter) {
    Attempt a = new Attempt(1, "req_1", null, status, null, Duration.ZERO, Duration.ZERO);
    AttemptResponse r = new AttemptResponse(status, Map.of(), "");
    Verdict v = status < 300 ? Verdict.SUCCEEDED : Verdict.RETRY;
    return new AttemptOutcome(a, r, null, false, null, v, retryAfter, null, null);
  }

  @Test
  void retriesAndSuccessesAreCountedAsResilience4jCountsThem() {
    RetryDecision d = decision(RetryPolicy.defaults(), RetryBudgetPolicy.unlimited());

    RetryDecision.Context retried = d.start(NOW.plusSeconds(60));
    RetryDecision.Next next = retried.retryable(answer(503, null));
    assertThat(next.retries()).isTrue();
    assertThat(next.delay()).isEqualTo(Duration.ofMillis(250)); // full jitter at 0.5 of 500 ms
    retried.succeeded();

    d.start(NOW.plusSeconds(60)).succeeded();
    d.start(NOW.plusSeconds(60)).failed();

    RetryDecision.Context exhausted = d.start(NOW.plusSeconds(60));
    for (int i = 0; i < 3; i++) {
      assertThat(exhausted.retryable(answer(500, null)).retries()).isTrue();
    }
    assertThat(exhausted.retryable(answer(500, null)).stop())
        .isEqualTo(RetryDecision.Stop.RETRIES_EXHAUSTED);

    Retry.Metrics m = d.metrics();
    assertThat(m.getNumberOfSuccessfulCallsWithRetryAttempt()).isEqualTo(1);
    assertThat(m.getNumberOfSuccessfulCallsWithoutRetryAttempt()).isEqualTo(1);
    assertThat(m.getNumberOfFailedCallsWithoutRetryAttempt()).isEqualTo(1);
    assertThat(m.getNumberOfFailedCallsWithRetryAttempt()).isEqualTo(1);
    assertThat(events)
        .containsExactly("retry 1", "success", "ignored", "retry 1", "retry 2", "retry 3", "error");
  }

  @Test
  void theSdksOwnRulesStopRetriesThroughTheIntervalFunction() {
    RetryDecision d =
        decision(
            RetryPolicy.builder().deadline(Duration.ofSeconds(10)).build(),
            RetryBudgetPolicy.builder().capacity(1).build());

    assertThat(d.start(NOW.plusSeconds(60)).retryable(answer(503, Duration.ofHours(1))).stop())
        .isEqualTo(RetryDecision.Stop.RETRY_AFTER_TOO_LONG);
    assertThat(d.start(NOW.plusSeconds(10)).retryable(answer(503, Duration.ofSeconds(10))).stop())
        .isEqualTo(RetryDecision.Stop.DEADLINE);
    RetryDecision.Next hinted =
        d.start(NOW.plusSeconds(60)).retryable(answer(429, Duration.ofSeconds(3)));
    assertThat(hinted.delay()).isEqualTo(Duration.ofSeconds(3));
    assertThat(hinted.serverHint()).isTrue();
    // The one budget token went to the retry above.
    assertThat(d.start(NOW.plusSeconds(60)).retryable(answer(503, null)).stop())
        .isEqualTo(RetryDecision.Stop.BUDGET);
    assertThat(events).containsExactly("error", "error", "retry 1", "error");
  }
}
