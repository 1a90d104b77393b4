package dev.saferetry.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.payments.ChargeCreateParams;
import dev.saferetry.payments.ChargesApi;
import dev.saferetry.payments.PaymentsClient;
import dev.saferetry.resilience.RetryPolicy;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReportTest {
  @Test
  void moreChargesThanIntendedIsADuplicate() {
    Report r = new Report("x", 1, 2, 0, List.of());
    assertThat(r.passed()).isFalse();
    assertThat(r.verdict()).startsWith("FAIL").endsWith("DUPLICATE");
  }

  @Test
  void fewerChargesOrAPendingIntentIsALostIntent() {
    assertThat(new Report("x", 1, 0, 0, List.of()).verdict())
        .startsWith("FAIL")
        .endsWith("LOST INTENT");
    assertThat(new Report("x", 1, 1, 1, List.of()).verdict())
        .startsWith("FAIL")
        .endsWith("LOST INTENT");
  }

  @Test
  void exactlyTheIntendedChargesWithNothingPendingPasses() {
    assertThat(new Report("lost-response", 1, 1, 0, List.of()).verdict())
        .startsWith("PASS lost-response");
  }

  @Test
  void demoExitsNonZeroWhenAnyScenarioFails() {
    Report pass = new Report("a", 1, 1, 0, List.of());
    assertThat(Demo.exitStatus(List.of(pass, pass))).isZero();
    assertThat(Demo.exitStatus(List.of(pass, new Report("b", 1, 2, 0, List.of())))).isOne();
  }

  /** Negative control: the counting the verdicts rely on does see a duplicate charge. */
  @Test
  void aRetryWithANewKeyIsCountedAsADuplicate() {
    try (Sandbox sandbox = Sandbox.start();
        SafeRetryClient client =
            SafeRetryClient.builder()
                .baseUrl(sandbox.baseUrl())
                .apiKey("sk_test_demo")
                .retryPolicy(RetryPolicy.noRetries())
                .build()) {
      String description = "negative control";
      ChargesApi charges = new PaymentsClient(client).charges();
      ChargeCreateParams params =
          ChargeCreateParams.builder()
              .amount(100L)
              .currency("eur")
              .description(description)
              .build();
      sandbox.dropNextResponse();
      assertThatThrownBy(() -> charges.create(params, RequestOptions.none()))
          .isInstanceOf(OutcomeUnknownException.class);
      charges.create(params, RequestOptions.none()); // the naive retry: a new intent, a new key

      Report report = new Report("naive-retry", 1, sandbox.sideEffects(), 0, List.of());
      assertThat(report.sideEffects()).isEqualTo(2);
      assertThat(report.verdict()).startsWith("FAIL").endsWith("DUPLICATE");
    }
  }
}
