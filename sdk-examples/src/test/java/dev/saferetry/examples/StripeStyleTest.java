package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.SafeRetryClient;
import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.examples.support.Steps;
import dev.saferetry.examples.support.Steps.Step;
import dev.saferetry.examples.support.StripeApi;
import dev.saferetry.examples.support.stripe.StripeShapedServer;
import dev.saferetry.testing.FakeTime;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Stripe examples against the in-process Stripe-shaped server: every step succeeds, the list
 * spans several pages, and a charge whose answer is lost after commit is retried with the same key
 * and byte-identical body and replayed — one charge, not two.
 */
class StripeStyleTest {
  private static SafeRetryClientBuilder client(StripeShapedServer server) {
    FakeTime time = new FakeTime();
    return SafeRetryClient.builder()
        .baseUrl(server.baseUrl())
        .apiKey("sk_test_stripestyle")
        .clock(time)
        .sleeper(time);
  }

  private static List<Step> runLosing(
      StripeShapedServer server, int lose, ByteArrayOutputStream out) {
    return StripeStyle.run(
        client(server),
        "acct_1",
        new PrintStream(out, true, StandardCharsets.UTF_8),
        () -> server.loseNextResponses(lose));
  }

  @Test
  void everyStepSucceedsAndALostChargeAnswerIsReplayedNotRepeated() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (StripeShapedServer server = StripeShapedServer.start()) {
      StripeApi.seed(server.baseUrl(), "sk_test_stripestyle", "acct_1", 4);
      List<Step> steps = runLosing(server, 1, out);

      assertThat(Steps.allPassed(steps, 4)).as(out.toString(StandardCharsets.UTF_8)).isTrue();
      assertThat(server.chargesCreated()).isEqualTo(5); // 4 seeded + 1, despite the retry
      assertThat(server.refundsCreated()).isEqualTo(1);
      assertThat(server.customersCreated()).isEqualTo(1);
      assertThat(server.customersDeleted()).isEqualTo(1);
      assertThat(server.lostResponses()).isEqualTo(1);
      assertThat(server.replays()).isEqualTo(1); // same key, same bytes: Stripe replays

      Step charge = steps.get(1);
      assertThat(charge.attempts()).hasSize(2);
      assertThat(charge.detail()).contains("replayed=true");
      assertThat(steps.get(3).key()).as("a DELETE carries no key").isNull();
    }
    String printed = out.toString(StandardCharsets.UTF_8);
    assertThat(printed.lines()).hasSize(4).allMatch(l -> l.startsWith("OK"));
    assertThat(printed).contains("request-ids=[-,req_");
  }

  @Test
  void aStepThatFailsIsPrintedAndTheRunIsNotPassed() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (StripeShapedServer server = StripeShapedServer.start()) {
      // Every answer from the charge on is lost: the charge ends UNKNOWN after its attempts.
      List<Step> steps = runLosing(server, 100, out);
      assertThat(Steps.allPassed(steps, 4)).isFalse();
      assertThat(steps.get(steps.size() - 1).ok()).isFalse();
      assertThat(server.chargesCreated()).isEqualTo(1);
    }
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("FAIL").contains("UNKNOWN");
  }

  @Test
  void theMainRunsAgainstItsOwnServerByDefault() {
    PrintStream original = System.out;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      StripeStyle.main(new String[0]);
    } finally {
      System.setOut(original);
    }
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("OK   1 create charge")
        .doesNotContain("FAILED");
    assertThat(out.toString(StandardCharsets.UTF_8).split("all steps succeeded")).hasSize(2);
  }
}
