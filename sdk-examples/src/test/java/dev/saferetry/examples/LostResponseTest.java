package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.examples.demo.Report;
import dev.saferetry.examples.demo.Scenarios;
import dev.saferetry.examples.demo.WireLog;
import dev.saferetry.testing.FakeTime;
import org.junit.jupiter.api.Test;

class LostResponseTest {
  @Test
  void retryWithTheSameKeyLeavesExactlyOneCharge() throws Exception {
    FakeTime time = new FakeTime();
    Report report = new Scenarios(time, time).lostResponse();

    assertThat(report.sideEffects()).isEqualTo(1);
    assertThat(report.passed()).isTrue();
    assertThat(Rows.results(report)).containsExactly("UNEXPECTED_EOF", "201");
    assertThat(Rows.keys(report)).hasSize(2).containsOnly(Rows.keys(report).get(0));
    assertThat(Rows.attempts(report)).extracting(WireLog.Row::requestId).doesNotHaveDuplicates();
    assertThat(time.sleeps()).hasSize(1);
  }
}
