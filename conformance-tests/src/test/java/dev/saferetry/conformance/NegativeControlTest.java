package dev.saferetry.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.conformance.server.BrokenServer;
import dev.saferetry.conformance.server.ReferenceServer;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Negative controls: the suite catches each deliberately broken server with a MUST case. */
class NegativeControlTest {

  @ParameterizedTest(name = "{0}")
  @EnumSource(BrokenServer.class)
  void brokenServerFailsItsNamedMustCase(BrokenServer variant) {
    try (ReferenceServer server = variant.build().start()) {
      RunResult run = SuiteRuns.against(server, "broken-" + variant.name().toLowerCase());

      List<String> mustFailures = SuiteRuns.failed(run, Level.MUST);
      System.out.println(variant + " fails MUST cases: " + mustFailures);
      assertThat(run.mustFailed()).isTrue();
      CaseResult named = run.result(variant.mustCase());
      assertThat(named.level()).isEqualTo(Level.MUST);
      assertThat(named.verdict())
          .as(variant + " must fail " + variant.mustCase())
          .isEqualTo(CaseResult.Verdict.FAIL);
    }
  }
}
