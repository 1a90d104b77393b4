package dev.saferetry.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.conformance.server.ReferenceServer;
import dev.saferetry.conformance.server.ServerShape;
import java.util.List;
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
      RunResult ietf = SuiteRuns.against(server, "endpoint-rule-ietf", Map.of("cases", "scope.*"));
      RunResult perOperation =
          SuiteRuns.against(
              server,
              "endpoint-rule-per-operation",
              Map.of("cases", "scope.*", "scope.other-endpoint", "execute"));
      RunResult stripe =
          SuiteRuns.against(
              server,
              "endpoint-rule-stripe",
              Map.of("cases", "scope.*", "profile", "stripe,reference"));

      // The IETF draft leaves the scope of a key to the resource owner: either rule passes.
      assertThat(ietf.result("scope.per-operation").verdict()).isEqualTo(Verdict.PASS);
      assertThat(perOperation.result("scope.per-operation").level()).isEqualTo(Level.SHOULD);
      assertThat(perOperation.result("scope.per-operation").verdict()).isEqualTo(Verdict.FAIL);
      assertThat(stripe.result("scope.per-operation").verdict()).isEqualTo(Verdict.PASS);
      for (RunResult run : List.of(ietf, perOperation, stripe)) {
        assertThat(run.result("scope.cross-endpoint").verdict()).isEqualTo(Verdict.PASS);
      }
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
  void aServerAcceptingLongerKeysFailsNothingUnlessItsLimitIsDeclared() {
    try (ReferenceServer server = ServerShape.unlimitedKeys().start()) {
      RunResult undeclared =
          SuiteRuns.against(
              server, "key-limit-undeclared", Map.of("cases", "key.*", "key.max-length", ""));
      RunResult declared =
          SuiteRuns.against(
              server, "key-limit-1000", Map.of("cases", "key.*", "key.max-length", "1000"));

      assertThat(undeclared.result("key.too-long").verdict()).isEqualTo(Verdict.NOT_RUN);
      assertThat(undeclared.result("key.too-long").message())
          .contains("key length limit is not declared (key.max-length)");
      assertThat(SuiteRuns.ids(undeclared, Level.SHOULD, Verdict.FAIL)).isEmpty();
      assertThat(declared.result("key.too-long").verdict()).isEqualTo(Verdict.PASS);
    }
  }

  @Test
  void quotedKeysAreNotGradedWhereTheProfileSaysKeysAreOpaque() {
    RunResult stripe =
        SuiteRuns.run("opaque-keys", Map.of("profile", "stripe", "cases", "key.structured-field"));

    assertThat(stripe.result("key.structured-field").verdict()).isEqualTo(Verdict.NOT_RUN);
    assertThat(stripe.result("key.structured-field").message())
        .startsWith("keys are opaque strings under this profile (key.format=opaque)");
  }

  @Test
  void aServerErrorToAnEmptyKeyThatCreatedNothingIsARefusalNotAnUnprovenCase() {
    try (ReferenceServer server = ReferenceServer.builder().build().start();
        InterceptingProxy proxy =
            InterceptingProxy.start(
                server.baseUrl(),
                seen ->
                    "".equals(seen.header("Idempotency-Key"))
                        ? new InterceptingProxy.Canned(500, "{\"error\":\"boom\"}")
                        : null)) {
      RunResult run =
          SuiteRuns.run(
              "empty-key-500",
              Map.of(
                  "target", proxy.baseUrl(),
                  "profile", "ietf,reference",
                  "cases", "key.empty-not-shared"));

      CaseResult empty = run.result("key.empty-not-shared");
      assertThat(empty.verdict()).as(SuiteRuns.problems(run)).isEqualTo(Verdict.PASS);
      assertThat(empty.evidence()).contains("an empty key→500").contains("=0");
    }
  }

  @Test
  void anEmptyKeyTreatedAsNoKeyIsNotOneSharedKey() {
    try (ReferenceServer server = ServerShape.EMPTY_KEY_IS_NO_KEY.build().start()) {
      RunResult run =
          SuiteRuns.against(
              server, "empty-key-as-no-key", Map.of("require-key", "false", "cases", "key.*"));

      assertThat(run.result("key.empty-not-shared").verdict())
          .as(SuiteRuns.problems(run))
          .isEqualTo(Verdict.PASS);
      assertThat(run.result("key.empty-not-shared").evidence())
          .contains("an empty key→201")
          .contains("tenant 2, an empty key→201");
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
