package dev.saferetry.conformance;

import static dev.saferetry.conformance.WebhookControlTest.STRIPE_SECRET;
import static dev.saferetry.conformance.WebhookControlTest.profile;
import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.conformance.receiver.BrokenReceiver;
import dev.saferetry.conformance.receiver.FixtureReceiver;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The webhook profile's verdicts are honest: a configuration that cannot grade the receiver is exit
 * 2 before any case, a case that could not show anything is NOT RUN (exit 3), never a pass, and the
 * signing secret never reaches a report.
 */
class WebhookVerdictTest {
  @TempDir Path dir;
  FixtureReceiver receiver;

  @BeforeEach
  void start() {
    receiver = FixtureReceiver.correct("stripe", STRIPE_SECRET);
  }

  @AfterEach
  void stop() {
    receiver.close();
  }

  private RunResult run(String name, Consumer<Map<String, String>> change) {
    Map<String, String> p = profile(receiver);
    change.accept(p);
    return SuiteRuns.run("webhook-verdict-" + name, p);
  }

  private static void configurationError(RunResult run, String message) {
    assertThat(run.exitStatus()).isEqualTo(ExitStatus.CONFIGURATION_ERROR);
    assertThat(run.results()).isEmpty();
    assertThat(run.preflight().message()).contains(message);
  }

  @Test
  void withoutATargetNothingIsStartedAndTheRunIsAConfigurationError() {
    Cli cli = Cli.run(dir, "--profile", "webhook", "--set", "webhook.secret=" + STRIPE_SECRET);

    assertThat(cli.status()).isEqualTo(2);
    assertThat(cli.output()).contains("give its base URL as the target");
  }

  @Test
  void aMissingOrMalformedSecretIsAConfigurationError() {
    configurationError(
        run("no-secret", p -> p.remove("webhook.secret")), "webhook.secret is required");
    configurationError(
        run(
            "bad-standard-secret",
            p -> {
              p.put("signature.scheme", "standard-webhooks");
              p.put("webhook.secret", "whsec_not*base64");
            }),
        "must be whsec_ followed by base64");
    configurationError(
        run("bad-scheme", p -> p.put("signature.scheme", "hmac")),
        "signature.scheme must be stripe or standard-webhooks");
    configurationError(
        run("bad-template", p -> p.put("payload.template", "{\"id\":\"${event_id}\"}")),
        "payload.template must contain ${order_id}");
  }

  @Test
  void aSecretTheReceiverDoesNotKnowIsAConfigurationErrorNotAFailure() {
    configurationError(
        run("wrong-secret", p -> p.put("webhook.secret", "whsec_some_other_secret")),
        "a correctly signed delivery was answered 400");
  }

  @Test
  void anUnreachableReceiverIsAConfigurationError() {
    String url = receiver.baseUrl();
    receiver.close();

    configurationError(run("unreachable", p -> p.put("target", url)), "is the receiver running");
    configurationError(
        run(
            "unreachable-uncounted",
            p -> {
              p.put("target", url);
              p.remove("effects.total");
            }),
        "the receiver does not answer");
  }

  @Test
  void aCounterThatDoesNotCountTheDeliveryIsAConfigurationError() {
    configurationError(
        run("wrong-counter", p -> p.put("effects.total.pointer", "/duplicates")),
        "effects.total counted 0 effects for the first delivery, not 1");
  }

  @Test
  void aFailureHookThatDoesNotFailIsAConfigurationError() {
    configurationError(
        run("hook-not-failing", p -> p.put("hook.fail-next", "GET /effects")),
        "hook.fail-next did not make the next delivery fail");
  }

  @Test
  void withoutCounterOrHookTheCasesThatNeedThemAreNotRunAndTheRunIsUnproven() {
    RunResult run =
        run(
            "undeclared",
            p -> {
              p.remove("effects.total");
              p.remove("hook.fail-next");
            });

    assertThat(SuiteRuns.ids(run, Level.MUST, Verdict.NOT_RUN))
        .containsExactlyInAnyOrder(
            "delivery.applied-once",
            "redelivery.applied-once",
            "redelivery.concurrent",
            "failure.redelivery-applied-once",
            "order.older-after-newer",
            "order.newer-after-older");
    assertThat(run.result("failure.redelivery-applied-once").message()).contains("hook.fail-next");
    assertThat(run.result("delivery.applied-once").message())
        .contains("needs a side-effect counter");
    assertThat(run.result("signature.tampered").verdict()).isEqualTo(Verdict.PASS);
    assertThat(run.exitStatus()).isEqualTo(ExitStatus.MUST_NOT_RUN);
  }

  @Test
  void aRaceThatDidNotHappenIsNotExercised() {
    RunResult run =
        run(
            "no-race",
            p -> {
              p.put("concurrency", "1");
              p.put("cases", "redelivery.concurrent");
            });

    assertThat(run.result("redelivery.concurrent").verdict()).isEqualTo(Verdict.NOT_RUN);
    assertThat(run.result("redelivery.concurrent").message()).startsWith("race not exercised");
  }

  @Test
  void theSecretAndSignaturesNeverReachTheReports() throws Exception {
    RunResult run;
    try (FixtureReceiver stale =
        FixtureReceiver.broken("stripe", STRIPE_SECRET, BrokenReceiver.STALE_ACCEPTED)) {
      Map<String, String> p = profile(stale);
      p.put("cases", "timestamp.stale");
      run = SuiteRuns.run("webhook-verdict-redacted", p);
    }

    assertThat(run.result("timestamp.stale").verdict()).isEqualTo(Verdict.FAIL);
    String markdown = Files.readString(run.markdownReport(), StandardCharsets.UTF_8);
    String xml = Files.readString(run.junitXml(), StandardCharsets.UTF_8);
    assertThat(markdown + xml).doesNotContain(STRIPE_SECRET).doesNotContain("Stripe-Signature: t=");
    assertThat(markdown).contains("webhook.secret=***").contains("Stripe-Signature: ***");
  }

  @Test
  void theCommandLineListsAndGradesTheWebhookProfile() {
    Cli list = Cli.run(dir, "--profile", "webhook", "--list");
    Cli graded =
        Cli.run(
            dir,
            "--target",
            receiver.baseUrl(),
            "--profile",
            "webhook",
            "--set",
            "webhook.secret=" + STRIPE_SECRET,
            "--set",
            "effects.total=GET /effects",
            "--set",
            "effects.total.pointer=/applied",
            "--set",
            "hook.fail-next=POST /_test/fail-next");

    assertThat(list.output()).contains("signature.tampered", "order.older-after-newer");
    assertThat(list.output()).doesNotContain("replay.same-payload");
    assertThat(graded.status()).isEqualTo(0);
    assertThat(graded.output()).contains("every MUST case ran and passed");
  }
}
