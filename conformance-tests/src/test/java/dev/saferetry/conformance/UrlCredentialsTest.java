package dev.saferetry.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.conformance.server.ReferenceServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Credentials inside a configured URL — user info, a query token — reach the server under test but
 * never the console, the Markdown report or the JUnit XML.
 */
class UrlCredentialsTest {
  @TempDir Path dir;

  @Test
  void aUrlsUserInfoAndQueryValuesAreMaskedWhereverAUrlIsRendered() {
    Redaction redaction =
        new Redaction(
            SuiteConfig.resolve(
                Map.of(
                    "target", "http://u:PWSECRET@127.0.0.1:1/?token=QSECRET&region=eu-west-1",
                    "hook.clock", "POST https://ops:HOOKSECRET@hooks.example/clock?k=abc {}")));

    assertThat(redaction.text("POST http://u:PWSECRET@127.0.0.1:1/v1/charges?token=QSECRET"))
        .isEqualTo("POST http://***@127.0.0.1:1/v1/charges?token=***");
    assertThat(redaction.text("GET http://127.0.0.1:1/x?region=eu-west-1&m=1&api_key=zz#top"))
        .isEqualTo("GET http://127.0.0.1:1/x?region=***&m=1&api_key=***#top");
    assertThat(redaction.text("echo: PWSECRET, QSECRET and HOOKSECRET"))
        .isEqualTo("echo: ***, *** and ***");
    assertThat(redaction.text("https://hooks.example/clock?k=abc")).endsWith("?k=***");
  }

  @Test
  void anUnreachableTargetsCredentialsAppearNowhere() throws Exception {
    Cli cli = Cli.run(dir, "--target", "http://u:PWSECRET@127.0.0.1:1/?token=QSECRET");

    assertThat(cli.status()).isEqualTo(ExitStatus.CONFIGURATION_ERROR.code());
    assertThat(cli.output() + reports())
        .contains("http://***@127.0.0.1:1")
        .doesNotContain("PWSECRET")
        .doesNotContain("QSECRET");
  }

  @Test
  void aTargetWithAQueryTokenIsGradedWithThePathBeforeTheQueryAndReportedMasked() throws Exception {
    try (ReferenceServer server = ReferenceServer.builder().build().start()) {
      String hostPort = server.baseUrl().substring("http://".length());
      SuiteConfig config =
          SuiteConfig.builder()
              .target("http://user:PWSECRET@" + hostPort + "/?token=QSECRET")
              .profile("ietf,reference")
              .set("hook.restart", "POST http://ops:HOOKSECRET@" + hostPort + "/_test/restart")
              .set("cases", "replay.same-payload,durability.restart,lost-response.retry-replays")
              .build();
      ByteArrayOutputStream console = new ByteArrayOutputStream();

      RunResult run =
          ConformanceRunner.run(
              config, dir, new PrintStream(console, true, StandardCharsets.UTF_8));

      assertThat(SuiteRuns.ids(run, Level.MUST, Verdict.PASS))
          .as(SuiteRuns.problems(run))
          .containsExactlyInAnyOrder(
              "replay.same-payload", "durability.restart", "lost-response.retry-replays");
      assertThat(run.result("replay.same-payload").exchanges())
          .extracting(Exchange::url)
          .contains("http://***@" + hostPort + "/v1/charges?token=***");
      assertThat(run.result("durability.restart").exchanges())
          .extracting(Exchange::url)
          .contains("http://***@" + hostPort + "/_test/restart");
      assertThat(run.target()).isEqualTo("http://***@" + hostPort + "/?token=***");
      assertThat(console.toString(StandardCharsets.UTF_8) + reports() + run)
          .doesNotContain("PWSECRET")
          .doesNotContain("QSECRET")
          .doesNotContain("HOOKSECRET");
    }
  }

  private String reports() throws Exception {
    return Files.readString(dir.resolve("conformance-report.md"))
        + Files.readString(dir.resolve("junit-xml").resolve("TEST-saferetry-conformance.xml"));
  }
}
