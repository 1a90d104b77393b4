package dev.saferetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.resilience.RetryClassifier;
import dev.saferetry.resilience.RetryPolicy;
import dev.saferetry.resilience.TransportFailure;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The retry decision, one row per case: what the attempt produced (a status or a transport
 * failure), the replay marker, the should-retry hint, {@code Retry-After}, the attempts left, the
 * time left before the deadline, whether an earlier attempt of the call may have been executed, and
 * the breaker and budget; and what follows: {@code succeed}, {@code retry <delay>} (with {@code
 * hint} when the server's), or the reason the call ends with.
 */
class DecisionTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  /** The common contract with the retry policy's defaults; backoff is 100 ms per retry number. */
  private static final Decision.Rules RULES =
      new Decision.Rules(
          RetryPolicy.defaults(),
          ResponseRules.COMMON,
          RetryClassifier.standard(),
          n -> Duration.ofMillis(100L * n));

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      textBlock =
          """
          # case                                   | answer         | replay | hint  | after | left | deadline | earlier | limit   | next
          2xx                                      | 200            | false  | -     | -     | 3    | 60       | false   | -       | succeed
          2xx replayed                             | 201            | true   | false | -     | 3    | 60       | true    | -       | succeed
          503 retried with backoff                 | 503            | false  | -     | -     | 3    | 60       | false   | -       | retry PT0.1S
          503 Retry-After 2 s                      | 503            | false  | -     | 2     | 3    | 60       | false   | -       | retry PT2S hint
          503 Retry-After past the ceiling         | 503            | false  | -     | 120   | 3    | 60       | false   | -       | RETRY_AFTER_TOO_LONG
          503 no attempts left                     | 503            | false  | -     | -     | 0    | 60       | false   | -       | RETRIES_EXHAUSTED
          503 deadline before the next attempt     | 503            | false  | -     | -     | 3    | 0        | false   | -       | DEADLINE_EXCEEDED
          503 budget spent                         | 503            | false  | -     | -     | 3    | 60       | false   | budget  | RETRY_BUDGET_EXHAUSTED
          503 breaker open                         | 503            | false  | -     | -     | 3    | 60       | false   | breaker | CIRCUIT_OPEN_AFTER_SEND
          503 replayed                             | 503            | true   | -     | -     | 3    | 60       | false   | -       | PROVIDER_STORED_ERROR
          503 replayed, should-retry true          | 503            | true   | true  | -     | 3    | 60       | false   | -       | PROVIDER_STORED_ERROR
          503 should-retry false                   | 503            | false  | false | -     | 3    | 60       | false   | -       | SERVER_SAID_DO_NOT_RETRY
          503 should-retry true                    | 503            | false  | true  | -     | 3    | 60       | false   | -       | retry PT0.1S
          409 in progress, no attempts left        | 409            | false  | -     | -     | 0    | 60       | false   | -       | IN_PROGRESS
          429 Retry-After 1 s                      | 429            | false  | -     | 1     | 3    | 60       | false   | -       | retry PT1S hint
          501 not retried                          | 501            | false  | -     | -     | 3    | 60       | false   | -       | SERVER_ERROR_NOT_RETRIED
          501 should-retry true                    | 501            | false  | true  | -     | 3    | 60       | false   | -       | retry PT0.1S
          400                                      | 400            | false  | -     | -     | 3    | 60       | false   | -       | REJECTED
          400 should-retry true                    | 400            | false  | true  | -     | 3    | 60       | false   | -       | retry PT0.1S
          400 should-retry false                   | 400            | false  | false | -     | 3    | 60       | false   | -       | REJECTED
          400 replayed                             | 400            | true   | -     | -     | 3    | 60       | false   | -       | REJECTED
          422 key reused                           | 422            | false  | -     | -     | 3    | 60       | false   | -       | KEY_REUSED
          401 after an ambiguous attempt           | 401            | false  | -     | -     | 3    | 60       | true    | -       | REJECTED_AFTER_AMBIGUOUS_ATTEMPT
          422 after an ambiguous attempt           | 422            | false  | -     | -     | 3    | 60       | true    | -       | REJECTED_AFTER_AMBIGUOUS_ATTEMPT
          400 replayed after an ambiguous attempt  | 400            | true   | -     | -     | 3    | 60       | true    | -       | REJECTED
          302                                      | 302            | false  | -     | -     | 3    | 60       | false   | -       | REDIRECTED
          304 replayed                             | 304            | true   | -     | -     | 3    | 60       | false   | -       | REDIRECTED
          read timeout                             | READ_TIMEOUT   | false  | -     | -     | 3    | 60       | false   | -       | retry PT0.1S
          read timeout, no attempts left           | READ_TIMEOUT   | false  | -     | -     | 0    | 60       | false   | -       | RETRIES_EXHAUSTED
          connect failed, no attempts left         | CONNECT_FAILED | false  | -     | -     | 0    | 60       | false   | -       | NOT_SENT
          connect failed after a read timeout      | CONNECT_FAILED | false  | -     | -     | 0    | 60       | true    | -       | RETRIES_EXHAUSTED
          connect failed, breaker open             | CONNECT_FAILED | false  | -     | -     | 3    | 60       | false   | breaker | CIRCUIT_OPEN
          protocol error                           | OTHER          | false  | -     | -     | 3    | 60       | false   | -       | TRANSPORT_FAILURE
          """)
  void everyCaseDecidesAsTheTableSays(
      String name,
      String answer,
      boolean replay,
      String hint,
      Integer retryAfter,
      int attemptsLeft,
      int secondsToDeadline,
      boolean earlier,
      String limit,
      String expected) {
    RawResponse a = null;
    TransportFailure failure = null;
    if (Character.isDigit(answer.charAt(0))) {
      Map<String, List<String>> headers = new LinkedHashMap<>();
      if (replay) {
        headers.put("Idempotent-Replayed", List.of("true"));
      }
      if (hint != null) {
        headers.put("X-Should-Retry", List.of(hint));
      }
      if (retryAfter != null) {
        headers.put("Retry-After", List.of(retryAfter.toString()));
      }
      int status = Integer.parseInt(answer);
      a = new RawResponse(status, headers, status == 422 ? "{\"error\":{\"type\":\"x\"}}" : "");
    } else {
      failure = TransportFailure.valueOf(answer);
    }
    boolean arrived = earlier || a != null || failure.mayHaveReachedServer();
    Decision.Facts facts =
        new Decision.Facts(
            1,
            1 + attemptsLeft,
            a,
            failure,
            true,
            earlier,
            arrived,
            NOW,
            NOW.plusSeconds(secondsToDeadline),
            "breaker".equals(limit),
            !"budget".equals(limit));

    Decision.Next next = Decision.decide(facts, RULES);

    assertThat(describe(next)).isEqualTo(expected);
  }

  @org.junit.jupiter.api.Test
  void aBackoffBeyondWhatAnInstantHoldsEndsAtTheDeadline() {
    Decision.Rules huge =
        new Decision.Rules(
            RetryPolicy.defaults(),
            ResponseRules.COMMON,
            RetryClassifier.standard(),
            n -> Duration.ofSeconds(Long.MAX_VALUE));
    Decision.Facts facts =
        new Decision.Facts(
            1,
            4,
            new RawResponse(503, Map.of(), ""),
            null,
            true,
            false,
            true,
            NOW,
            NOW.plusSeconds(60),
            false,
            true);

    assertThat(describe(Decision.decide(facts, huge))).isEqualTo("DEADLINE_EXCEEDED");
  }

  private static String describe(Decision.Next next) {
    if (next instanceof Decision.Succeed) {
      return "succeed";
    }
    if (next instanceof Decision.Retry r) {
      return "retry " + r.delay() + (r.serverHint() ? " hint" : "");
    }
    return ((Decision.End) next).reason().toString();
  }
}
