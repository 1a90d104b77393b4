package dev.saferetry.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.conformance.server.BrokenServer;
import dev.saferetry.conformance.server.FlawedServers;
import dev.saferetry.conformance.server.ReferenceServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A case that builds on another one does not blame something else when that one failed: its checks
 * that need the failed case are NOT RUN, naming it, and the verdict says why. But it still runs,
 * and a flaw it shows on its own (a second charge) is a failure, whatever failed before.
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
            .startsWith("depends on replay.basic, which FAILED (the retry with the same key")
            .contains("this case's check needs it to work");
        assertThat(r.exchanges())
            .as(id + " ran: it could have shown a flaw of its own")
            .isNotEmpty();
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
  void aDuplicateChargeAfterA5xxFailsItsCaseEvenWhenTheBasicReplayFailed() {
    try (ReferenceServer server =
        FlawedServers.duplicatesAfter5xxWhileEveryRetryIsRejected().start()) {
      RunResult withBasic =
          SuiteRuns.against(
              server, "duplicate-behind-basic", Map.of("cases", "replay.basic,fault.*"));
      RunResult alone =
          SuiteRuns.against(server, "duplicate-alone", Map.of("cases", "fault.5xx-after-commit"));

      assertThat(withBasic.result("replay.basic").verdict()).isEqualTo(Verdict.FAIL);
      for (RunResult run : List.of(withBasic, alone)) {
        CaseResult afterCommit = run.result("fault.5xx-after-commit");
        assertThat(afterCommit.verdict()).as(SuiteRuns.problems(run)).isEqualTo(Verdict.FAIL);
        assertThat(afterCommit.message())
            .isEqualTo("the 500 and its retry caused 2 side effects for one key");
      }
      // Its retry executes once; only the replay of that retry needs a working replay.
      CaseResult beforeCommit = withBasic.result("fault.5xx-before-commit");
      assertThat(beforeCommit.verdict()).isEqualTo(Verdict.NOT_RUN);
      assertThat(beforeCommit.message()).startsWith("depends on replay.basic, which FAILED (");
      assertThat(ConsoleReport.verdictLines(withBasic))
          .anyMatch(
              l ->
                  l.startsWith("MUST cases not run because replay.basic FAILED: ")
                      && !l.contains("fault.5xx-after-commit"));
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
