package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.ProviderPreset;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.testing.FakeTime;
import dev.saferetry.testing.provider.Dialect;
import dev.saferetry.testing.provider.FakeProvider;
import dev.saferetry.testing.provider.Fault;
import dev.saferetry.testing.provider.Received;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link StripeStyle} against a fake Stripe: every step succeeds, and a charge whose answer is lost
 * after it was made is retried with the same key and replayed — one charge, not two.
 */
class StripeStyleTest {
  private static String printing(Runnable run) {
    PrintStream original = System.out;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      run.run();
    } finally {
      System.setOut(original);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  private static String runLosing(FakeProvider fake, int lose, boolean[] passed) {
    FakeTime time = new FakeTime();
    try (SafeRetryClient client =
        SafeRetryClient.builder()
            .preset(ProviderPreset.stripe())
            .baseUrl(fake.baseUrl())
            .apiKey("sk_test_stripestyle")
            .clock(time)
            .sleeper(time)
            .build()) {
      Fault loss = Fault.loseAnswer().on("POST /v1/charges").times(lose);
      return printing(() -> passed[0] = StripeStyle.run(client, "acct_1", () -> fake.arm(loss)));
    }
  }

  private static List<Received> received(FakeProvider fake, String operation) {
    return fake.received().stream().filter(r -> r.operation().equals(operation)).toList();
  }

  @Test
  void everyStepSucceedsAndALostChargeAnswerIsReplayedNotRepeated() {
    boolean[] passed = {false};
    try (FakeProvider fake = FakeProvider.builder().dialect(Dialect.STRIPE).start()) {
      String printed = runLosing(fake, 1, passed);

      assertThat(passed[0]).as(printed).isTrue();
      assertThat(fake.effectsPerOperation())
          .containsEntry("POST /v1/customers", 1)
          .containsEntry("POST /v1/charges", 1) // despite the retry
          .containsEntry("POST /v1/refunds", 1);
      fake.assertOneEffectPerKey();
      List<Received> charges = received(fake, "POST /v1/charges");
      assertThat(charges).hasSize(2);
      assertThat(charges.get(0).fault()).isNotNull();
      assertThat(charges.get(1).replayed()).as("same key, same bytes: replayed").isTrue();
      assertThat(charges)
          .extracting(Received::key)
          .doesNotContainNull()
          .containsOnly(charges.get(0).key());
      assertThat(charges.get(1).parameters()).containsKey("metadata").containsKey("expand");
      List<Received> deletes =
          fake.received().stream().filter(r -> r.method().equals("DELETE")).toList();
      assertThat(deletes).hasSize(1).extracting(Received::key).containsOnlyNulls();
      assertThat(printed.lines()).hasSize(4).allMatch(l -> l.startsWith("OK"));
      assertThat(printed).contains("replayed=true", "deleted=true", "request-ids=[-, req_");
    }
  }

  @Test
  void aStepThatFailsIsPrintedAndTheRunIsNotPassed() {
    boolean[] passed = {true};
    try (FakeProvider fake = FakeProvider.builder().dialect(Dialect.STRIPE).start()) {
      // Every answer from the charge on is lost: the charge ends UNKNOWN after its attempts.
      String printed = runLosing(fake, 100, passed);
      assertThat(passed[0]).isFalse();
      assertThat(fake.effectsPerOperation()).containsEntry("POST /v1/charges", 1);
      assertThat(printed).contains("FAIL").contains("UNKNOWN");
    }
  }

  @Test
  void theMainRunsAgainstItsOwnFakeByDefault() {
    String printed = printing(() -> StripeStyle.main(new String[0]));
    assertThat(printed)
        .contains("OK   1 create charge")
        .contains("replayed=true")
        .doesNotContain("FAIL");
  }
}
