package dev.saferetry.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.conformance.server.BrokenServer;
import dev.saferetry.conformance.server.ReferenceServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The Markdown and JUnit XML reports: what they carry, and what they never carry. */
class ReportTest {

  @Test
  void markdownCarriesVersionDateTargetProfileAndTheEvidenceOfEachFailure() throws Exception {
    try (ReferenceServer broken = BrokenServer.NO_PAYLOAD_COMPARISON.build().start()) {
      RunResult run = SuiteRuns.against(broken, "report-failure", Map.of("cases", "mismatch.*"));

      String md = Files.readString(run.markdownReport());
      assertThat(md)
          .contains("- Suite version: `" + SuiteVersion.get() + "`")
          .containsPattern("- Date: 20\\d\\d-\\d\\d-\\d\\dT")
          .contains("- Target: `" + broken.baseUrl() + "`")
          .contains("- Profile: `ietf,reference`")
          .contains("| `mismatch.rejected` | MUST | **FAIL** |")
          .contains("### `mismatch.rejected` — MUST FAIL")
          .contains("another payload under a used key was accepted with 201")
          .contains("# same key, other payload")
          .containsPattern("POST http://127.0.0.1:\\d+/v1/charges")
          .contains("Idempotency-Key: sr-key-")
          .contains("HTTP 201")
          .contains("Authorization: ***")
          .doesNotContain("tenant_conformance_a")
          .doesNotContain("expected: <")
          .doesNotContain("but was");
      assertThat(SuiteVersion.get()).isNotEqualTo("unknown");
    }
  }

  @Test
  void junitXmlNamesCasesByIdAndFailsOnlyMustCases() throws Exception {
    try (ReferenceServer broken = BrokenServer.NO_PAYLOAD_COMPARISON.build().start()) {
      RunResult run =
          SuiteRuns.against(
              broken,
              "report-xml",
              Map.of("cases", "mismatch.*,key.*,durability.restart", "hook.restart", ""));

      Document xml =
          DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(run.junitXml().toFile());
      NodeList cases = xml.getElementsByTagName("testcase");
      List<String> names = new ArrayList<>();
      for (int i = 0; i < cases.getLength() - 1; i++) { // the last one is the verdict
        Element c = (Element) cases.item(i);
        names.add(c.getAttribute("name"));
        String id = c.getAttribute("name");
        boolean failure = c.getElementsByTagName("failure").getLength() > 0;
        boolean skipped = c.getElementsByTagName("skipped").getLength() > 0;
        CaseResult r = run.result(id);
        assertThat(failure).as(id).isEqualTo(r.mustFailed());
        assertThat(skipped).as(id).isEqualTo(!r.mustFailed() && r.verdict() != Verdict.PASS);
      }
      assertThat(names)
          .isEqualTo(run.results().stream().map(CaseResult::id).toList())
          .contains("mismatch.rejected", "mismatch.status", "key.too-long");
      assertThat(run.result("mismatch.status").verdict()).isEqualTo(Verdict.FAIL);
      assertThat(run.result("durability.restart").verdict()).isEqualTo(Verdict.NOT_RUN);
      Element root = xml.getDocumentElement();
      assertThat(root.getAttribute("failures")).isEqualTo("2"); // the MUST case, and the verdict
      assertThat(((Element) cases.item(cases.getLength() - 1)).getAttribute("name"))
          .isEqualTo("verdict");
      assertThat(Files.readString(run.junitXml()))
          .contains("SHOULD not met: the mismatch answered 201")
          .contains("MUST NOT_RUN: needs a restart hook")
          .contains("<property name=\"exit.status\" value=\"1\"/>");
    }
  }

  @Test
  void aCiReadingOnlyTheJunitCountsSeesWhatTheExitStatusSays(@TempDir Path dir) throws Exception {
    Cli safe = Cli.run(dir.resolve("safe"), "--set", "levels=MUST");
    JunitXml safeXml = JunitXml.read(xmlIn(dir.resolve("safe")));
    Cli broken;
    JunitXml brokenXml;
    try (ReferenceServer server = BrokenServer.NO_PAYLOAD_COMPARISON.build().start()) {
      broken =
          Cli.run(
              dir.resolve("broken"),
              "--target",
              server.baseUrl(),
              "--profile",
              "ietf,reference",
              "--set",
              "cases=mismatch.*");
      brokenXml = JunitXml.read(xmlIn(dir.resolve("broken")));
    }
    Cli unproven;
    JunitXml unprovenXml;
    try (ReferenceServer server = ReferenceServer.builder().testHooks(false).build().start()) {
      unproven =
          Cli.run(
              dir.resolve("unproven"),
              "--target",
              server.baseUrl(),
              "--set",
              "headers.Authorization=Bearer t1",
              "--set",
              "cases=replay.basic,durability.restart");
      unprovenXml = JunitXml.read(xmlIn(dir.resolve("unproven")));
    }

    assertThat(safe.status()).isZero();
    assertThat(safeXml.failures()).isZero();
    assertThat(safeXml.errors()).isZero();
    assertThat(safeXml.cases()).containsEntry("verdict", "pass");
    assertThat(safe.output())
        .contains("MUST: 22 passed, 0 FAILED, 0 not run, 0 errors")
        .contains("(exit 0)");
    assertThat(broken.status()).isEqualTo(1);
    assertThat(brokenXml.failures()).isEqualTo(2); // mismatch.rejected, and the verdict
    assertThat(brokenXml.cases())
        .containsEntry("mismatch.rejected", "failure")
        .containsEntry("mismatch.status", "skipped")
        .containsEntry("verdict", "failure");
    assertThat(broken.output()).contains("MUST: 0 passed, 1 FAILED").contains("(exit 1)");
    assertThat(unproven.status()).isEqualTo(3);
    assertThat(unprovenXml.failures() + unprovenXml.errors()).isPositive();
    assertThat(unprovenXml.cases())
        .containsEntry("replay.basic", "pass")
        .containsEntry("durability.restart", "skipped")
        .containsEntry("verdict", "failure");
    assertThat(unprovenXml.verdictMessage())
        .isEqualTo("MUST cases did not run: the server was NOT shown to be safe (exit 3)");
    assertThat(unproven.output())
        .contains("MUST: 1 passed, 0 FAILED, 21 not run, 0 errors")
        .contains("NOT shown to be safe (exit 3)");
  }

  private static Path xmlIn(Path reportDir) {
    return reportDir.resolve("junit-xml").resolve("TEST-saferetry-conformance.xml");
  }

  @Test
  void secretsEchoedByTheServerAreRedactedEverywhere() throws Exception {
    try (ReferenceServer server = ReferenceServer.builder().build().start();
        InterceptingProxy proxy =
            InterceptingProxy.start(
                server.baseUrl(),
                seen ->
                    seen.path().startsWith("/v1/refunds")
                        ? new InterceptingProxy.Canned(
                            200, "{\"echo\":\"" + seen.header("Authorization") + "\"}")
                        : null)) {
      RunResult run =
          SuiteRuns.run(
              "report-echo",
              Map.of(
                  "target", proxy.baseUrl(),
                  "profile", "ietf,reference",
                  "headers.Authorization", "Bearer sk_live_do_not_print",
                  "cases", "scope.cross-endpoint"));

      String md = Files.readString(run.markdownReport());
      String xml = Files.readString(run.junitXml());
      assertThat(md + xml).doesNotContain("sk_live_do_not_print");
      assertThat(md).contains("headers.Authorization=***");
    }
  }
}
