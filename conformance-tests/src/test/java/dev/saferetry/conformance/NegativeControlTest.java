package dev.saferetry.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.conformance.server.BrokenServer;
import dev.saferetry.conformance.server.ReferenceServer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Negative controls: each deliberately broken server fails exactly its named MUST cases; a server
 * whose bug only a SHOULD or MAY case can see fails exactly that case and no MUST case.
 */
@Execution(
    ExecutionMode.CONCURRENT) // each variant is its own server; see junit-platform.properties
class NegativeControlTest {

  static Stream<BrokenServer> mustBreakers() {
    return Arrays.stream(BrokenServer.values()).filter(b -> !b.mustFailures().isEmpty());
  }

  static Stream<BrokenServer> otherBreakers() {
    return Arrays.stream(BrokenServer.values()).filter(b -> b.mustFailures().isEmpty());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mustBreakers")
  void brokenServerFailsExactlyItsMustCases(BrokenServer variant) {
    try (ReferenceServer server = variant.build().start()) {
      Map<String, String> settings = new LinkedHashMap<>(variant.profile());
      settings.put("levels", "MUST");
      RunResult run = SuiteRuns.against(server, "broken-" + variant.name().toLowerCase(), settings);

      assertThat(run.configurationError()).as(SuiteRuns.problems(run)).isFalse();
      assertThat(SuiteRuns.ids(run, Level.MUST, Verdict.FAIL))
          .as(SuiteRuns.problems(run))
          .isEqualTo(variant.mustFailures());
      assertThat(SuiteRuns.ids(run, Level.MUST, Verdict.ERROR)).isEmpty();
      assertThat(run.exitStatus()).isEqualTo(ExitStatus.MUST_FAILED);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("otherBreakers")
  void brokenServerFailsItsShouldOrMayCaseAndNoMustCase(BrokenServer variant) {
    try (ReferenceServer server = variant.build().start()) {
      RunResult run =
          SuiteRuns.against(server, "broken-" + variant.name().toLowerCase(), variant.profile());

      Set<String> notMet = new TreeSet<>(SuiteRuns.ids(run, Level.SHOULD, Verdict.FAIL));
      notMet.addAll(SuiteRuns.ids(run, Level.MAY, Verdict.FAIL));
      assertThat(notMet).as(SuiteRuns.problems(run)).isEqualTo(variant.otherFailures());
      assertThat(run.exitStatus()).as(SuiteRuns.problems(run)).isEqualTo(ExitStatus.PASSED);
    }
  }
}
