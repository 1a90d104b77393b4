package dev.saferetry.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.conformance.receiver.BrokenReceiver;
import dev.saferetry.conformance.receiver.FixtureReceiver;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The webhook-receiver contract against receivers whose behaviour is known: correct ones pass every
 * case, whatever their signature scheme and way of counting effects; each broken one fails exactly
 * its named cases.
 */
class WebhookControlTest {
  static final String STRIPE_SECRET = "whsec_fixture_stripe_secret_4f1c";
  static final String STANDARD_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

  /** The stripe profile for a fixture: its /effects counter and its failure hook. */
  static Map<String, String> profile(FixtureReceiver receiver) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("target", receiver.baseUrl());
    p.put("profile", "webhook");
    p.put("webhook.secret", STRIPE_SECRET);
    p.put("effects.total", "GET /effects");
    p.put("effects.total.pointer", "/applied");
    p.put("hook.fail-next", "POST /_test/fail-next");
    return p;
  }

  @Test
  void correctStripeReceiverPassesEveryCase() {
    try (FixtureReceiver receiver = FixtureReceiver.correct("stripe", STRIPE_SECRET)) {
      RunResult run = SuiteRuns.run("webhook-correct-stripe", profile(receiver));

      assertThat(run.results()).hasSize(WebhookContract.INSTANCE.cases().size());
      assertThat(run.results())
          .as(SuiteRuns.problems(run))
          .allSatisfy(r -> assertThat(r.verdict()).isEqualTo(Verdict.PASS));
      assertThat(run.exitStatus()).isEqualTo(ExitStatus.PASSED);
    }
  }

  @Test
  void correctStandardWebhooksReceiverCountedPerOrderPassesEveryCase() {
    try (FixtureReceiver receiver = FixtureReceiver.correct("standard-webhooks", STANDARD_SECRET)) {
      Map<String, String> p = profile(receiver);
      p.put("signature.scheme", "standard-webhooks");
      p.put("webhook.secret", STANDARD_SECRET);
      p.remove("effects.total");
      p.put("effects.count", "GET /orders/${order_id}");
      p.put("effects.count.pointer", "/applied");
      RunResult run = SuiteRuns.run("webhook-correct-standard", p);

      assertThat(run.results())
          .as(SuiteRuns.problems(run))
          .allSatisfy(r -> assertThat(r.verdict()).isEqualTo(Verdict.PASS));
      assertThat(run.result("signature.tampered").exchanges())
          .anySatisfy(x -> assertThat(x.label()).isEqualTo("webhook-id changed after signing"));
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(BrokenReceiver.class)
  void brokenReceiverFailsExactlyItsCases(BrokenReceiver flaw) {
    try (FixtureReceiver receiver = FixtureReceiver.broken("stripe", STRIPE_SECRET, flaw)) {
      RunResult run =
          SuiteRuns.run("webhook-broken-" + flaw.name().toLowerCase(), profile(receiver));

      assertThat(run.configurationError()).as(SuiteRuns.problems(run)).isFalse();
      assertThat(SuiteRuns.ids(run, Level.MUST, Verdict.FAIL))
          .as(SuiteRuns.problems(run))
          .isEqualTo(flaw.mustFailures());
      assertThat(SuiteRuns.ids(run, Level.SHOULD, Verdict.FAIL))
          .as(SuiteRuns.problems(run))
          .isEqualTo(flaw.shouldFailures());
      assertThat(SuiteRuns.ids(run, Level.MUST, Verdict.NOT_RUN)).isEmpty();
      assertThat(SuiteRuns.ids(run, Level.MUST, Verdict.ERROR)).isEmpty();
      assertThat(run.exitStatus())
          .isEqualTo(flaw.mustFailures().isEmpty() ? ExitStatus.PASSED : ExitStatus.MUST_FAILED);
    }
  }

  @Test
  void aReceiverDoingItsWorkBeforeAnsweringFailsOnlyTheAnswerTime() {
    try (FixtureReceiver receiver = FixtureReceiver.slow("stripe", STRIPE_SECRET, 150)) {
      Map<String, String> p = profile(receiver);
      p.put("levels", "SHOULD");
      p.put("answer-within-millis", "75");
      RunResult run = SuiteRuns.run("webhook-slow", p);

      assertThat(SuiteRuns.ids(run, Level.SHOULD, Verdict.FAIL))
          .as(SuiteRuns.problems(run))
          .containsExactly("delivery.answers-fast");
      assertThat(run.result("delivery.answers-fast").message())
          .contains("more than answer-within-millis=75");
    }
  }
}
