package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LostResponseTest {
  @Test
  void retryWithTheSameKeyLeavesExactlyOneCharge() {
    FakeTime time = new FakeTime();
    Output out = new Output();
    try (Sandbox sandbox = Sandbox.inProcess(b -> b)) {
      Report report = LostResponse.run(sandbox, time.clock(), time, out.stream);

      assertThat(report.sideEffects()).isEqualTo(1);
      assertThat(report.passed()).isTrue();
      assertThat(Output.results(report)).containsExactly("UNEXPECTED_EOF", "201");
      assertThat(Output.attempts(report))
          .extracting(WireLog.Row::key)
          .containsOnly(Output.attempts(report).get(0).key());
      assertThat(Output.attempts(report))
          .extracting(WireLog.Row::requestId)
          .doesNotHaveDuplicates();
      assertThat(time.sleeps()).hasSize(1);
      assertThat(out.text()).contains("after 2 attempts, replayed by the server: true");
    }
  }
}
