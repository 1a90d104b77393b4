package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.examples.demo.Report;
import dev.saferetry.examples.demo.Scenarios;
import dev.saferetry.testing.FakeTime;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class OutageTest {
  @Test
  void intentStaysPendingThroughTheOutageAndCompletesOnceAfterwards() throws Exception {
    FakeTime time = new FakeTime();
    Report report = new Scenarios(time, time).outage();

    assertThat(report.sideEffects()).isEqualTo(1);
    assertThat(report.passed()).isTrue();
    // Round 1: two attempts, both 503; round 2: one 503 opens the breaker; round 3: nothing sent
    // while it is open; round 4: the half-open probe succeeds.
    assertThat(Rows.results(report)).containsExactly("503", "503", "503", "201");
    assertThat(Rows.keys(report)).containsOnly(Rows.keys(report).get(0));
    // Retry-After: 1 was honoured inside round 1, then the caller waited between rounds.
    assertThat(Rows.attempts(report).get(1).delayBefore()).isEqualTo(Duration.ofSeconds(1));
    assertThat(Rows.attempts(report).get(1).serverHint()).isTrue();
    assertThat(time.sleeps())
        .containsExactly(
            Duration.ofSeconds(1),
            Outage.BETWEEN_ROUNDS,
            Outage.BETWEEN_ROUNDS,
            Outage.BETWEEN_ROUNDS);
    assertThat(Rows.notes(report))
        .containsExactly(
            "circuit breaker CLOSED -> OPEN",
            "circuit breaker OPEN -> HALF_OPEN",
            "circuit breaker HALF_OPEN -> CLOSED");
  }
}
