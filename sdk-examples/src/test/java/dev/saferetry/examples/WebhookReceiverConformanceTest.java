package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.conformance.CaseResult;
import dev.saferetry.conformance.ConformanceRunner;
import dev.saferetry.conformance.ExitStatus;
import dev.saferetry.conformance.RunResult;
import dev.saferetry.conformance.SuiteConfig;
import dev.saferetry.conformance.Verdict;
import dev.saferetry.examples.support.WebhookEndpoint;
import dev.saferetry.examples.support.WebhookEndpoint.Settings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The example receiver graded by the conformance suite's webhook-receiver profile over real HTTP:
 * its H2 database, the SDK's Stripe verifier and inbox, deliveries signed by the suite, and its own
 * failure hook ({@code POST /_test/fail-next}), which fails the next delivery after all its work.
 */
class WebhookReceiverConformanceTest {
  static final String SECRET = "whsec_example_conformance_" + UUID.randomUUID();

  @Test
  void theExampleReceiverPassesEveryCaseOfTheWebhookProfile() throws Exception {
    String jdbcUrl = "jdbc:h2:mem:graded-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    Path reports = Path.of("target", "conformance-reports", "webhook-receiver");
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    RunResult run;
    try (WebhookEndpoint receiver = WebhookReceiver.start(new Settings(0, SECRET, jdbcUrl, true))) {
      SuiteConfig config =
          SuiteConfig.builder()
              .target("http://127.0.0.1:" + receiver.port())
              .profile("webhook")
              .set("webhook.secret", SECRET)
              .set("effects.total", "GET /effects")
              .set("effects.total.pointer", "/applied")
              .set("hook.fail-next", "POST /_test/fail-next")
              .build();
      run =
          ConformanceRunner.run(
              config, reports, new PrintStream(console, true, StandardCharsets.UTF_8));
    }
    String output = console.toString(StandardCharsets.UTF_8);

    assertThat(run.configurationError()).as(output).isFalse();
    assertThat(run.results()).as(output).extracting(CaseResult::verdict).containsOnly(Verdict.PASS);
    assertThat(run.results())
        .extracting(CaseResult::id)
        .contains("failure.redelivery-applied-once");
    assertThat(run.exitStatus()).isEqualTo(ExitStatus.PASSED);
    assertThat(Files.readString(run.markdownReport())).doesNotContain(SECRET);
  }
}
