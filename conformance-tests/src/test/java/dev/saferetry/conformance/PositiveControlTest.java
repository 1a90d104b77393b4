package dev.saferetry.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.conformance.server.ReferenceServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Positive control: the suite is right about a correct server (the reference, on H2). */
class PositiveControlTest {

  @Test
  void embeddedReferenceServerPassesEveryCase() {
    RunResult run = SuiteRuns.run("embedded-h2", Map.of());

    assertThat(run.results()).hasSize(ConformanceSuite.cases().size());
    assertThat(run.results())
        .allSatisfy(
            r ->
                assertThat(r.verdict())
                    .as(r.id() + ": " + r.message())
                    .isEqualTo(CaseResult.Verdict.PASS));
    assertThat(run.mustFailed()).isFalse();
  }

  @Test
  void referenceServerGivenAsATargetPassesEveryMustAndShouldCase() {
    try (ReferenceServer server = ReferenceServer.builder().build().start()) {
      RunResult run = SuiteRuns.against(server, "target-h2");

      assertThat(SuiteRuns.failed(run, Level.MUST)).isEmpty();
      assertThat(SuiteRuns.failed(run, Level.SHOULD)).isEmpty();
      assertThat(run.results()).noneMatch(r -> r.verdict() == CaseResult.Verdict.SKIP);
    }
  }

  @Test
  void runWritesMarkdownAndJunitXmlWithoutSecrets() throws Exception {
    RunResult run =
        SuiteRuns.run(
            "report-check", Map.of("headers.Authorization", "Bearer sk_live_do_not_print"));

    String markdown = Files.readString(run.markdownReport());
    assertThat(markdown)
        .contains("| `replay.same-payload` | MUST | PASS |")
        .contains("headers.Authorization=***")
        .doesNotContain("sk_live_do_not_print");
    Path xml = run.junitXmlDir().resolve("TEST-junit-jupiter.xml");
    assertThat(xml).exists();
    assertThat(Files.readString(xml)).contains("replay").doesNotContain("sk_live_do_not_print");
  }
}
