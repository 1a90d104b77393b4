package dev.saferetry.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.conformance.server.ReferenceServer;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The cases that hold a server to the times it declares — keys kept for the retention, a running
 * request's key held until the lock timeout — run only when the time can pass (a clock hook, or a
 * short declared time waited for in real time), and are never a pass otherwise.
 */
class DeclaredTimesTest {
  private static final String CASES = "expiry.kept-until-retention,lock.held-while-running";

  @Test
  void withoutADeclaredTimeNeitherCaseRuns() {
    RunResult run =
        SuiteRuns.run(
            "no-declared-times",
            Map.of("retention-seconds", "", "lock-timeout-seconds", "", "cases", CASES));

    assertThat(run.result("expiry.kept-until-retention").verdict()).isEqualTo(Verdict.NOT_RUN);
    assertThat(run.result("expiry.kept-until-retention").message())
        .contains("needs the retention (retention-seconds)");
    assertThat(run.result("lock.held-while-running").verdict()).isEqualTo(Verdict.NOT_RUN);
    assertThat(run.result("lock.held-while-running").message())
        .contains("needs the lock timeout (lock-timeout-seconds)");
    assertThat(run.exitStatus()).isEqualTo(ExitStatus.MUST_NOT_RUN);
  }

  @Test
  void longDeclaredTimesWithoutAClockHookAreNotRunRatherThanWaitedFor() {
    RunResult run = SuiteRuns.run("no-clock-hook", Map.of("hook.clock", "", "cases", CASES));

    assertThat(run.result("expiry.kept-until-retention").message())
        .isEqualTo(
            "declared retention 86400 s exceeds the suite's wait bound of 20 s (max-wait-seconds),"
                + " and no clock hook (hook.clock) is declared to move the server's clock instead");
    assertThat(run.result("lock.held-while-running").message())
        .isEqualTo(
            "declared lock timeout 30 s exceeds the suite's wait bound of 20 s (max-wait-seconds),"
                + " and no clock hook (hook.clock) is declared to move the server's clock instead");
    for (String id : CASES.split(",")) {
      assertThat(run.result(id).verdict()).as(id).isEqualTo(Verdict.NOT_RUN);
    }
  }

  @Test
  void aLockTimeoutDeclaredBeyondTheWaitBoundIsNamedInTheVerdictAndTheReport() throws Exception {
    RunResult run =
        SuiteRuns.run(
            "day-long-lock",
            Map.of("hook.clock", "", "lock-timeout-seconds", "86400", "cases", "lock.*"));

    String line =
        "lock cases not run: declared lock timeout 86400 s exceeds the suite's wait bound of 20 s"
            + " (max-wait-seconds), and no clock hook (hook.clock) is declared to move the server's"
            + " clock instead: lock.never-finishing-request, lock.held-while-running,"
            + " lock.slow-request-takeover";
    assertThat(ConsoleReport.verdictLines(run)).contains(line);
    assertThat(Files.readString(run.markdownReport())).contains("- " + line);
    assertThat(JunitXml.read(run.junitXml()).green()).isFalse();
    assertThat(Files.readString(run.junitXml())).contains(line);
    assertThat(run.exitStatus()).isEqualTo(ExitStatus.MUST_NOT_RUN);
  }

  @Test
  void aDeclaredTimeWithinTheBoundWhoseWaitIsNotSaysSo() {
    RunResult run =
        SuiteRuns.run(
            "lock-at-the-bound",
            Map.of(
                "hook.clock",
                "",
                "lock-timeout-seconds",
                "20",
                "cases",
                "lock.never-finishing-request"));

    assertThat(run.result("lock.never-finishing-request").message())
        .startsWith(
            "the declared lock timeout of 20 s needs a wait of 21 s, beyond the suite's wait bound"
                + " of 20 s");
  }

  @Test
  void shortDeclaredTimesAreHeldToInRealTimeWithoutAClockHook() {
    try (ReferenceServer server =
        ReferenceServer.builder()
            .retention(Duration.ofSeconds(3))
            .lockTimeout(Duration.ofSeconds(3))
            .build()
            .start()) {
      RunResult run = SuiteRuns.against(server, "real-time-times", declared(3, CASES));

      assertThat(SuiteRuns.ids(run, Level.MUST, Verdict.PASS))
          .as(SuiteRuns.problems(run))
          .containsExactlyInAnyOrder(CASES.split(","));
    }
  }

  @Test
  void aServerThatForgetsKeysBeforeItsDeclaredRetentionFailsInRealTimeToo() {
    try (ReferenceServer server =
        ReferenceServer.builder().retention(Duration.ofSeconds(1)).build().start()) {
      RunResult run =
          SuiteRuns.against(
              server, "real-time-forgetful", declared(3, "expiry.kept-until-retention"));

      assertThat(run.result("expiry.kept-until-retention").verdict()).isEqualTo(Verdict.FAIL);
      assertThat(run.result("expiry.kept-until-retention").message())
          .contains("the key was forgotten 2s after its first use")
          .contains("declared retention of 3s");
      assertThat(run.exitStatus()).isEqualTo(ExitStatus.MUST_FAILED);
    }
  }

  @Test
  void aTakeoverBeforeTheDeclaredLockTimeoutThatFencesOffTheFirstRequestIsNoSecondExecution() {
    // The reference flow commits an outcome only while its claim is its own: the first request,
    // overtaken after 5 s, rolls back and answers 409; the retry's execution is the only effect.
    try (ReferenceServer server =
        ReferenceServer.builder().lockTimeout(Duration.ofSeconds(5)).build().start()) {
      RunResult run =
          SuiteRuns.against(server, "fenced-takeover", Map.of("cases", "lock.held-while-running"));

      CaseResult lock = run.result("lock.held-while-running");
      assertThat(lock.verdict()).as(SuiteRuns.problems(run)).isEqualTo(Verdict.PASS);
      assertThat(lock.evidence()).contains("first→409").contains("=1");
    }
  }

  /** The reference profile without its clock hook, declaring {@code seconds} for both times. */
  private static Map<String, String> declared(long seconds, String cases) {
    return Map.of(
        "hook.clock",
        "",
        "retention-seconds",
        Long.toString(seconds),
        "lock-timeout-seconds",
        Long.toString(seconds),
        "cases",
        cases);
  }
}
