package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.error.ApiException;
import dev.saferetry.examples.demo.Report;
import dev.saferetry.examples.demo.Sandbox;
import dev.saferetry.examples.demo.Scenarios;
import dev.saferetry.payments.ChargeCreateParams;
import dev.saferetry.payments.PaymentsClient;
import dev.saferetry.testing.FakeTime;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProviderProfilesTest {
  @Test
  void eachProfileSurvivesALostResponseWithOneCharge() throws Exception {
    FakeTime time = new FakeTime();
    Report report = new Scenarios(time, time).providerProfiles();

    assertThat(report.intended()).isEqualTo(2);
    assertThat(report.sideEffects()).isEqualTo(2);
    assertThat(report.passed()).isTrue();
    assertThat(Rows.results(report))
        .containsExactly("UNEXPECTED_EOF", "201", "UNEXPECTED_EOF", "201");
    List<String> keys = Rows.keys(report);
    assertThat(keys.get(1)).isEqualTo(keys.get(0));
    assertThat(keys.get(3)).isEqualTo(keys.get(2)).isNotEqualTo(keys.get(0));
  }

  @Test
  void serversReallyReadTheKeyWhereTheirProfileSays() {
    // A client with the default Idempotency-Key header is refused by both: the key the example
    // places is the one the server looks at.
    try (Sandbox paypal = Sandbox.start(b -> b.keyHeader("PayPal-Request-Id"));
        Sandbox square = Sandbox.start(b -> b.keyBodyField("idempotency_key"))) {
      for (Sandbox api : new Sandbox[] {paypal, square}) {
        try (SafeRetryClient client =
            SafeRetryClient.builder().baseUrl(api.baseUrl()).apiKey("sk_test_demo").build()) {
          assertThatThrownBy(
                  () ->
                      new PaymentsClient(client)
                          .charges()
                          .create(
                              ChargeCreateParams.builder().amount(100L).currency("usd").build(),
                              RequestOptions.none()))
              .isInstanceOfSatisfying(
                  ApiException.class, e -> assertThat(e.getMessage()).contains("400"));
        }
      }
    }
  }

  @Test
  void withoutABaseUrlTheExampleStartsAServerThatReadsTheKeyWhereItsProfilePutsIt() {
    // The README's command gives no base URL: the example needs no second server started by hand.
    // A server reading Idempotency-Key would refuse these charges (400): see the test above.
    for (String profile : new String[] {"paypal", "square"}) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      PrintStream out = System.out;
      System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
      try {
        ProviderProfiles.main(new String[] {profile});
      } finally {
        System.setOut(out);
      }
      assertThat(bytes.toString(StandardCharsets.UTF_8))
          .contains("(in-process)")
          .contains("after 1 attempt(s)");
    }
  }
}
