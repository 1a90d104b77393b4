package dev.saferetry.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.conformance.server.ReferenceServer;
import dev.saferetry.conformance.server.ServerShape;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Positive controls: the suite is right about correct servers, whatever their hooks' shape. */
class PositiveControlTest {

  @Test
  void embeddedReferenceServerPassesEveryCase() {
    RunResult run = SuiteRuns.run("embedded-h2", Map.of());

    assertThat(run.results()).hasSize(IdempotencyKeyContract.INSTANCE.cases().size());
    assertThat(run.results())
        .as(SuiteRuns.problems(run))
        .allSatisfy(r -> assertThat(r.verdict()).isEqualTo(Verdict.PASS));
    assertThat(run.exitStatus()).isEqualTo(ExitStatus.PASSED);
  }

  @Test
  void referenceServerGivenAsATargetPassesEveryCase() {
    try (ReferenceServer server = ReferenceServer.builder().build().start()) {
      RunResult run = SuiteRuns.against(server, "target-h2");

      assertThat(run.results())
          .as(SuiteRuns.problems(run))
          .allSatisfy(r -> assertThat(r.verdict()).isEqualTo(Verdict.PASS));
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(ServerShape.class)
  void correctServerOfAnotherShapePassesAndRunsEveryMustCase(ServerShape shape) {
    try (ReferenceServer server = shape.build().start()) {
      RunResult run =
          SuiteRuns.against(server, "shape-" + shape.name().toLowerCase(), shape.profile());

      assertThat(SuiteRuns.ids(run, Level.MUST, Verdict.PASS))
          .as(SuiteRuns.problems(run))
          .hasSize((int) run.results().stream().filter(r -> r.level() == Level.MUST).count());
      assertThat(run.exitStatus()).isEqualTo(ExitStatus.PASSED);
    }
  }

  @Test
  void serverReplayingStored5xxMeetsTheStripePreferenceAndNotTheIetfOne() {
    try (ReferenceServer server = ServerShape.STORED_5XX_REPLAYED.build().start()) {
      RunResult ietf = SuiteRuns.against(server, "stored-5xx-ietf", Map.of("levels", "SHOULD"));
      RunResult replay =
          SuiteRuns.against(
              server, "stored-5xx-replay", Map.of("levels", "SHOULD", "fault.5xx.retry", "replay"));

      assertThat(SuiteRuns.ids(ietf, Level.SHOULD, Verdict.FAIL))
          .containsExactlyInAnyOrder(
              "fault.5xx-after-commit-preferred", "fault.5xx-before-commit-preferred");
      assertThat(SuiteRuns.ids(replay, Level.SHOULD, Verdict.FAIL)).isEmpty();
    }
  }
}
