package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QuickStartTest {
  @Test
  void createsOneChargeAndReadsItBack() {
    Output out = new Output();
    try (Sandbox sandbox = Sandbox.inProcess(b -> b)) {
      Report report = QuickStart.run(sandbox, out.stream);

      assertThat(report.sideEffects()).isEqualTo(1);
      assertThat(report.passed()).isTrue();
      assertThat(Output.results(report)).containsExactly("201", "200");
      String key = Output.attempts(report).get(0).key();
      assertThat(key).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}");
      assertThat(out.text())
          .contains("idempotency key " + key, "1 attempt(s)", "read back ch_")
          .containsPattern("attempt 1: HTTP 201, request id req_\\w+, server request id req_");
    }
  }
}
