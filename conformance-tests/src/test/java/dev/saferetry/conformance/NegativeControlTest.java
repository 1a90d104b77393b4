package dev.saferetry.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.conformance.server.BrokenServer;
import dev.saferetry.conformance.server.ReferenceServer;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Negative controls: each deliberately broken server fails exactly its named MUST cases. */
class NegativeControlTest {

  @ParameterizedTest(name = "{0}")
  @EnumSource(BrokenServer.class)
  void brokenServerFailsExactlyItsMustCases(BrokenServer variant) {
    try (ReferenceServer server = variant.build().start()) {
      RunResult run =
          SuiteRuns.against(
              server, "broken-" + variant.name().toLowerCase(), Map.of("levels", "MUST"));

      assertThat(run.configurationError()).as(SuiteRuns.problems(run)).isFalse();
      assertThat(SuiteRuns.ids(run, Level.MUST, Verdict.FAIL))
          .as(SuiteRuns.problems(run))
          .isEqualTo(variant.mustFailures());
      assertThat(SuiteRuns.ids(run, Level.MUST, Verdict.ERROR)).isEmpty();
      assertThat(run.exitStatus()).isEqualTo(ExitStatus.MUST_FAILED);
    }
  }
}
