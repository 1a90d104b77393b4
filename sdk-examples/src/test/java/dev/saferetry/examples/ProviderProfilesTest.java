package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.SafeRetryClient;
import dev.saferetry.error.ApiException;
import dev.saferetry.payments.ChargeCreateParams;
import dev.saferetry.payments.PaymentsClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ProviderProfilesTest {
  private final Sandbox paypal = Sandbox.inProcess(b -> b.keyHeader("PayPal-Request-Id"));
  private final Sandbox square = Sandbox.inProcess(b -> b.keyBodyField("idempotency_key"));

  @AfterEach
  void close() {
    paypal.close();
    square.close();
  }

  @Test
  void eachProfileSurvivesALostResponseWithOneCharge() {
    FakeTime time = new FakeTime();
    Report report = ProviderProfiles.run(paypal, square, time.clock(), time, new Output().stream);

    assertThat(report.intended()).isEqualTo(2);
    assertThat(report.sideEffects()).isEqualTo(2);
    assertThat(report.passed()).isTrue();
    assertThat(Output.results(report))
        .containsExactly("UNEXPECTED_EOF", "201", "UNEXPECTED_EOF", "201");
    var attempts = Output.attempts(report);
    assertThat(attempts.get(1).key()).isEqualTo(attempts.get(0).key());
    assertThat(attempts.get(3).key()).isEqualTo(attempts.get(2).key());
  }

  @Test
  void serversReallyReadTheKeyWhereTheirProfileSays() {
    // A client with the default Idempotency-Key header is refused by both: the key the examples
    // use is the one the server looks at.
    for (Sandbox api : new Sandbox[] {paypal, square}) {
      try (SafeRetryClient client =
          SafeRetryClient.builder().baseUrl(api.baseUrl()).apiKey("sk_test_demo").build()) {
        assertThatThrownBy(
                () ->
                    new PaymentsClient(client).charges().create(ChargeCreateParams.of(100, "usd")))
            .isInstanceOfSatisfying(
                ApiException.class, e -> assertThat(e.getMessage()).contains("400"));
      }
    }
  }
}
