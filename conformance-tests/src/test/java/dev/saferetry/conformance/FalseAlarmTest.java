package dev.saferetry.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.conformance.server.ReferenceServer;
import dev.saferetry.conformance.server.ServerShape;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Behaviour the contract allows is never graded as a failure of a stronger level. */
class FalseAlarmTest {

  @Test
  void anEmptyKeyIsNotGradedWhenKeysAreOptional() {
    try (ReferenceServer server = ReferenceServer.builder().requireKey(false).build().start()) {
      RunResult run =
          SuiteRuns.against(
              server, "optional-keys", Map.of("require-key", "false", "cases", "key.*"));

      assertThat(run.result("key.empty").verdict()).isEqualTo(Verdict.NOT_RUN);
      assertThat(run.result("key.empty").message()).contains("keys are optional");
      assertThat(run.result("key.missing").verdict()).isEqualTo(Verdict.NOT_RUN);
    }
  }

  @Test
  void rejectingAKeyReusedOnAnotherEndpointIsStripesRuleNotAFailure() {
    try (ReferenceServer server = ServerShape.KEYS_UNIQUE_ACROSS_ENDPOINTS.build().start()) {
      Map<String, String> scope = Map.of("cases", "scope.*");
      RunResult ietf = SuiteRuns.against(server, "endpoint-rule-ietf", scope);
      RunResult stripe =
          SuiteRuns.against(
              server,
              "endpoint-rule-stripe",
              Map.of("cases", "scope.*", "profile", "stripe,reference"));

      assertThat(ietf.result("scope.per-operation").level()).isEqualTo(Level.SHOULD);
      assertThat(ietf.result("scope.per-operation").verdict()).isEqualTo(Verdict.FAIL);
      assertThat(stripe.result("scope.per-operation").verdict()).isEqualTo(Verdict.PASS);
      assertThat(ietf.result("scope.cross-endpoint").verdict()).isEqualTo(Verdict.PASS);
      assertThat(stripe.result("scope.cross-endpoint").verdict()).isEqualTo(Verdict.PASS);
    }
  }

  @Test
  void keyTooLongMeasuresTheLengthCheckOnEveryRunNotAPayloadMismatch() {
    try (ReferenceServer server = ServerShape.unlimitedKeys().start()) {
      for (String name : new String[] {"long-keys-1", "long-keys-2"}) {
        RunResult run = SuiteRuns.against(server, name, Map.of("cases", "key.too-long"));

        CaseResult tooLong = run.result("key.too-long");
        assertThat(tooLong.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(tooLong.message())
            .isEqualTo(
                "a request with a key of 256 characters answered 201, the profile expects 400");
      }
    }
  }

  @Test
  void aServerThatReplaysStored5xxPassesTheMustCases() {
    try (ReferenceServer server = ServerShape.STORED_5XX_REPLAYED.build().start()) {
      RunResult run = SuiteRuns.against(server, "replays-5xx", Map.of("cases", "fault.*"));

      assertThat(run.result("fault.5xx-after-commit").verdict()).isEqualTo(Verdict.PASS);
      assertThat(run.result("fault.5xx-before-commit").verdict()).isEqualTo(Verdict.PASS);
      assertThat(run.result("fault.5xx-after-commit").evidence()).contains("retry→500");
    }
  }
}
