package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BringYourOwnPartsTest {
  @Test
  void callersInterceptorAndListenerSeeTheRetryWithTheSameKey() {
    FakeTime time = new FakeTime();
    try (Sandbox sandbox = Sandbox.inProcess(b -> b)) {
      BringYourOwnParts.Result result =
          BringYourOwnParts.run(sandbox, time.clock(), time, new Output().stream);

      assertThat(result.report().sideEffects()).isEqualTo(1);
      assertThat(result.report().passed()).isTrue();
      assertThat(result.keysSeen())
          .hasSize(2)
          .containsOnly(result.keysSeen().get(0))
          .doesNotContain("null");
      assertThat(result.keysSeen().get(0)).isEqualTo(Output.attempts(result.report()).get(0).key());
      assertThat(result.metrics())
          .containsEntry("payments.attempts", 2L)
          .containsEntry("payments.retries", 1L)
          .doesNotContainKey("payments.gave_up.UNKNOWN");
    }
  }
}
