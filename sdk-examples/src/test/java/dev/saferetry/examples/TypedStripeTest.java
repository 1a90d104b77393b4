package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@link TypedStripe} run as the README says: its own fake Stripe loses the charge's answer. */
class TypedStripeTest {
  @Test
  void theLostChargeAnswerIsReplayedUnderOneKeyAndTheListExpandsTheCustomer() {
    PrintStream original = System.out;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try {
      TypedStripe.main(new String[0]);
    } finally {
      System.setOut(original);
    }
    String out = bytes.toString(StandardCharsets.UTF_8);

    assertThat(out)
        .containsPattern("charge ch_\\S+: 2 attempt\\(s\\), one key \\S+, replayed true");
    assertThat(out).containsPattern("refund re_\\S+: succeeded");
    assertThat(out.lines().filter(l -> l.startsWith("listed ch_"))).hasSize(1);
    assertThat(out).contains("object=customer", "POST /v1/charges=1", "POST /v1/refunds=1");
  }
}
