package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class OutageTest {
  @Test
  void intentStaysPendingThroughTheOutageAndCompletesOnceAfterwards() throws Exception {
    FakeTime time = new FakeTime();
    Output out = new Output();
    try (Sandbox sandbox = Sandbox.inProcess(b -> b)) {
      Report report = Outage.run(sandbox, time.clock(), time, out.stream);

      assertThat(report.sideEffects()).isEqualTo(1);
      assertThat(report.passed()).isTrue();
      assertThat(Output.results(report)).containsExactly("503", "503", "503", "201");
      assertThat(Output.attempts(report))
          .extracting(WireLog.Row::key)
          .containsOnly(Output.attempts(report).get(0).key());
      // Retry-After: 1 was honoured, then the caller waited out the breaker's open period.
      assertThat(Output.attempts(report).get(1).delayBefore()).isEqualTo(Duration.ofSeconds(1));
      assertThat(time.sleeps())
          .containsExactly(Duration.ofSeconds(1), Outage.BREAKER_OPEN.plusMillis(100));
      assertThat(Output.notes(report))
          .containsSubsequence(
              "circuit breaker CLOSED -> OPEN",
              "call 2: breaker opened after 1 attempt(s), retry stopped; outcome UNKNOWN,"
                  + " intent still pending",
              "call 3: breaker open, nothing sent; outcome UNKNOWN, intent still pending",
              "circuit breaker OPEN -> HALF_OPEN",
              "circuit breaker HALF_OPEN -> CLOSED");
      assertThat(Output.notes(report).get(0)).startsWith("call 1: outcome UNKNOWN");
      assertThat(out.text())
          .contains(
              "3 request(s) answered 503, 1 intent(s) pending, " + "breaker OPEN",
              "breaker CLOSED");
    }
  }
}
