package dev.saferetry.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.conformance.server.ReferenceServer;
import dev.saferetry.conformance.server.ServerShape;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Positive controls: the suite is right about correct servers, whatever their hooks' shape. (The
 * reference server itself, in-process and as a target, is graded by the documented commands: see
 * {@code server.DocumentedCommandsTest}.)
 */
@Execution(ExecutionMode.CONCURRENT) // each test is its own server; see junit-platform.properties
class PositiveControlTest {

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
