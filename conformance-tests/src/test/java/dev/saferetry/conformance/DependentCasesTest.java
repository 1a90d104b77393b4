package dev.saferetry.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.conformance.server.BrokenServer;
import dev.saferetry.conformance.server.ReferenceServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A case that builds on another one does not blame something else when that one failed: it is NOT
 * RUN, naming the failed case, and the verdict says why.
 */
class DependentCasesTest {
  static final List<String> BUILT_ON_THE_BASIC_REPLAY =
      List.of(
          "replay.same-payload",
          "replay.headers",
          "payload.json-normalised",
          "lock.never-finishing-request",
          "durability.restart",
          "expiry.kept-until-retention");

  @Test
  void whenEveryIdenticalRetryIsRejectedTheCasesBuiltOnTheReplayNameItInsteadOfBlamingOthers() {
    try (ReferenceServer server = BrokenServer.EVERY_RETRY_REJECTED.build().start()) {
      RunResult run =
          SuiteRuns.against(
              server,
              "depends-on-replay",
              Map.of("cases", "replay.*,payload.*,lock.*,durability.*,expiry.*"));

      CaseResult basic = run.result("replay.basic");
      assertThat(basic.verdict()).isEqualTo(Verdict.FAIL);
      assertThat(basic.message())
          .isEqualTo(
              "the retry with the same key and payload answered 422 instead of replaying the"
                  + " original 201");
      for (String id : BUILT_ON_THE_BASIC_REPLAY) {
        CaseResult r = run.result(id);
        assertThat(r.verdict()).as(id).isEqualTo(Verdict.NOT_RUN);
        assertThat(r.message())
            .as(id)
            .startsWith("depends on replay.basic, which FAILED (the retry with the same key");
        assertThat(r.exchanges()).as(id + " sends nothing").isEmpty();
      }
      assertThat(run.result("lock.held-while-running").verdict()).isEqualTo(Verdict.PASS);
      assertThat(ConsoleReport.verdictLines(run))
          .anyMatch(
              l ->
                  l.startsWith("MUST cases not run because replay.basic FAILED: ")
                      && l.contains("lock.never-finishing-request"));
      assertThat(run.exitStatus()).isEqualTo(ExitStatus.MUST_FAILED);
    }
  }

  @Test
  void aDependencyThatPassedOrDidNotRunLetsTheDependentCasesRun() {
    RunResult run =
        SuiteRuns.run(
            "dependency-excluded", Map.of("cases", "replay.headers,payload.json-normalised"));

    assertThat(run.result("replay.basic").verdict()).isEqualTo(Verdict.NOT_RUN);
    assertThat(run.result("replay.headers").verdict()).isEqualTo(Verdict.PASS);
    assertThat(run.result("payload.json-normalised").verdict()).isEqualTo(Verdict.PASS);
  }
}
