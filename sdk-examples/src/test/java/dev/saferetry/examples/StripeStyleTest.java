package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.SafeRetryClient;
import dev.saferetry.examples.StripeStyle.Step;
import dev.saferetry.examples.harness.stripe.StripeShapedServer;
import dev.saferetry.testing.FakeTime;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Stripe-style example against the in-process Stripe-shaped server: every step succeeds, the
 * list spans several pages, and a charge whose answer is lost after commit is retried with the same
 * key and byte-identical body and replayed — one charge, not two.
 */
class StripeStyleTest {
  private static List<Step> runLosing(
      StripeShapedServer server, int lose, ByteArrayOutputStream out) {
    FakeTime time = new FakeTime();
    return StripeStyle.run(
        SafeRetryClient.builder()
            .baseUrl(server.baseUrl())
            .apiKey("sk_test_stripestyle")
            .clock(time)
            .sleeper(time),
        "acct_1",
        new PrintStream(out, true, StandardCharsets.UTF_8),
        () -> server.loseNextResponses(lose));
  }

  @Test
  void everyStepSucceedsAndALostChargeAnswerIsReplayedNotRepeated() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (StripeShapedServer server = StripeShapedServer.start()) {
      StripeStyle.seed(server.baseUrl(), "sk_test_stripestyle", "acct_1", 4);
      List<Step> steps = runLosing(server, 1, out);

      assertThat(StripeStyle.allPassed(steps)).as(out.toString(StandardCharsets.UTF_8)).isTrue();
      assertThat(server.chargesCreated()).isEqualTo(5); // 4 seeded + 1, despite the retry
      assertThat(server.refundsCreated()).isEqualTo(1);
      assertThat(server.customersCreated()).isEqualTo(1);
      assertThat(server.customersDeleted()).isEqualTo(1);
      assertThat(server.lostResponses()).isEqualTo(1);
      assertThat(server.replays()).isEqualTo(1); // same key, same bytes: Stripe replays

      Step charge = steps.get(1);
      assertThat(charge.attempts()).hasSize(2);
      assertThat(charge.detail()).contains("replayed=true");
      assertThat(steps.get(2).detail()).isEqualTo("5 charges on 3 pages");
      assertThat(steps.get(2).attempts()).hasSize(3);
      assertThat(steps.get(5).key()).as("a DELETE carries no key").isNull();
    }
    String printed = out.toString(StandardCharsets.UTF_8);
    assertThat(printed.lines()).hasSize(6).allMatch(l -> l.startsWith("OK"));
    assertThat(printed).contains("request-ids=[-,req_");
  }

  @Test
  void aStepThatFailsIsPrintedAndTheRunIsNotPassed() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (StripeShapedServer server = StripeShapedServer.start()) {
      // Every answer from the charge on is lost: the charge ends UNKNOWN after its attempts.
      List<Step> steps = runLosing(server, 100, out);
      assertThat(StripeStyle.allPassed(steps)).isFalse();
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
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("all steps succeeded");
  }
}
