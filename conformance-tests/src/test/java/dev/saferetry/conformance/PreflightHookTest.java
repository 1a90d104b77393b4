package dev.saferetry.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.conformance.server.FlawedServers;
import dev.saferetry.conformance.server.ReferenceServer;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The preflight proves each declared hook does what its name says, or refuses the profile naming
 * the hook: a server is never blamed for what a hook did.
 */
class PreflightHookTest {

  @Test
  void aCounterBlindToTheSecondOperationIsRefusedNamingIt() {
    try (ReferenceServer server = FlawedServers.counterBlindToRefunds().start()) {
      RunResult run =
          SuiteRuns.against(server, "preflight-blind-counter", FlawedServers.CHARGES_ONLY_COUNTER);

      assertThat(run.configurationError()).isTrue();
      assertThat(run.preflight().message())
          .startsWith(
              "effects.total counted 0 effects for the second operation (second.path), not 1: the"
                  + " counter must see every operation the profile declares");
      assertThat(run.exitStatus()).isEqualTo(ExitStatus.CONFIGURATION_ERROR);
      assertThat(SuiteRuns.ids(run, Level.MUST, Verdict.FAIL)).isEmpty();
    }
  }

  @Test
  void theSameCounterWithoutTheSecondOperationGradesTheServer() {
    try (ReferenceServer server = FlawedServers.counterBlindToRefunds().start()) {
      Map<String, String> settings = new LinkedHashMap<>(FlawedServers.CHARGES_ONLY_COUNTER);
      settings.putAll(Map.of("second.path", "", "change.path", "", "cases", "scope.*,mismatch.*"));
      RunResult run = SuiteRuns.against(server, "preflight-counter-no-second", settings);

      assertThat(run.configurationError()).as(SuiteRuns.problems(run)).isFalse();
      assertThat(run.result("mismatch.rejected").verdict()).isEqualTo(Verdict.PASS);
    }
  }

  @Test
  void aHangHookThatCommitsBeforeHangingIsRefusedNamingIt() {
    try (ReferenceServer server = FlawedServers.hangCommitsFirst().start()) {
      RunResult run = SuiteRuns.against(server, "preflight-hang-commits");

      assertThat(run.configurationError()).isTrue();
      assertThat(run.preflight().message())
          .startsWith("hook.fault.hang committed the create before hanging (counted 1)");
      assertThat(run.exitStatus()).isEqualTo(ExitStatus.CONFIGURATION_ERROR);
    }
  }

  @Test
  void aDelayHookThatCommitsBeforeHoldingIsRefusedNamingIt() {
    try (ReferenceServer server = FlawedServers.delayCommitsFirst().start()) {
      RunResult run = SuiteRuns.against(server, "preflight-delay-commits");

      assertThat(run.configurationError()).isTrue();
      assertThat(run.preflight().message())
          .startsWith("hook.fault.delay committed the create before holding it (counted 1");
    }
  }
}
