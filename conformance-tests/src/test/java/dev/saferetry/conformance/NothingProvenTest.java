package dev.saferetry.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.conformance.server.BrokenServer;
import dev.saferetry.conformance.server.ReferenceServer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** A case that could not show anything ends as NOT RUN, never as a pass. */
class NothingProvenTest {

  @Test
  void aRejectionIsNotAPassUnlessTheSamePayloadIsAcceptedWithAFreshKey() {
    Set<String> rejectedBodies = ConcurrentHashMap.newKeySet();
    try (ReferenceServer server = ReferenceServer.builder().build().start();
        InterceptingProxy proxy =
            InterceptingProxy.start(
                server.baseUrl(),
                seen -> {
                  // A server that rejects these payloads whatever the key: not a key check.
                  if (seen.method().equals("POST")
                      && seen.path().startsWith("/v1/charges")
                      && seen.header("Idempotency-Key") == null) {
                    rejectedBodies.add(seen.body());
                  }
                  return seen.method().equals("POST") && rejectedBodies.contains(seen.body())
                      ? new InterceptingProxy.Canned(400, "{\"error\":\"nope\"}")
                      : null;
                })) {
      RunResult run =
          SuiteRuns.run(
              "rejects-payloads",
              Map.of(
                  "target", proxy.baseUrl(), "profile", "ietf,reference", "cases", "key.missing"));

      assertThat(run.result("key.missing").verdict()).isEqualTo(Verdict.NOT_RUN);
      assertThat(run.result("key.missing").message()).contains("rejection proves nothing");
    }
  }

  @Test
  void aThrottledRetryIsNotARefusalOfAnotherPayloadUnderAUsedKey() {
    Set<String> seenKeys = ConcurrentHashMap.newKeySet();
    try (ReferenceServer server = ReferenceServer.builder().build().start();
        InterceptingProxy proxy =
            InterceptingProxy.start(
                server.baseUrl(),
                seen -> {
                  // Throttles every request whose key it has seen: any request may get a 429.
                  String key = seen.header("Idempotency-Key");
                  boolean again = seen.method().equals("POST") && key != null && !seenKeys.add(key);
                  return again
                      ? new InterceptingProxy.Canned(429, "{\"error\":\"slow down\"}")
                      : null;
                })) {
      RunResult run =
          SuiteRuns.run(
              "throttled-reuse",
              Map.of(
                  "target", proxy.baseUrl(),
                  "profile", "ietf,reference",
                  "cases", "mismatch.rejected"));

      assertThat(run.result("mismatch.rejected").verdict()).isEqualTo(Verdict.NOT_RUN);
      assertThat(run.result("mismatch.rejected").message())
          .isEqualTo(
              "another payload under a used key answered 429, which any request may get: it says"
                  + " nothing about it");
    }
  }

  /** Cases whose description promises that something was not created, or created once. */
  static final List<String> PROMISE_EFFECTS =
      List.of(
          "mismatch.rejected",
          "scope.query-string",
          "scope.path-variants",
          "concurrent.one-effect",
          "inflight.other-payload",
          "key.missing",
          "key.empty",
          "key.too-long");

  @Test
  void casesThatPromiseNothingWasCreatedAreNotRunWithoutACounter() {
    RunResult run =
        SuiteRuns.run(
            "no-counter", Map.of("effects.count", "", "cases", String.join(",", PROMISE_EFFECTS)));

    for (String id : PROMISE_EFFECTS) {
      assertThat(run.result(id).verdict()).as(id).isEqualTo(Verdict.NOT_RUN);
      assertThat(run.result(id).message()).as(id).startsWith("needs a side-effect counter");
    }
    assertThat(run.mustUnproven())
        .contains(
            "mismatch.rejected",
            "scope.query-string",
            "scope.path-variants",
            "concurrent.one-effect",
            "inflight.other-payload");
    assertThat(run.exitStatus()).isEqualTo(ExitStatus.MUST_NOT_RUN);
  }

  @Test
  void aRaceThatDidNotHappenIsReportedAsNotExercised() {
    RunResult run =
        SuiteRuns.run("no-race", Map.of("concurrency", "1", "cases", "concurrent.one-effect"));

    assertThat(run.result("concurrent.one-effect").verdict()).isEqualTo(Verdict.NOT_RUN);
    assertThat(run.result("concurrent.one-effect").message()).startsWith("race not exercised");
    assertThat(run.exitStatus()).isEqualTo(ExitStatus.MUST_NOT_RUN);
  }

  @Test
  void aReplayAfterAChangeThatNoReadConfirmsProvesNothing() {
    RunResult run =
        SuiteRuns.run(
            "unconfirmed-change",
            Map.of(
                "change.path",
                "/v1/charges",
                "change.payload",
                "{\"amount\":5,\"currency\":\"eur\"}",
                "cases",
                "replay.after-change"));

    assertThat(run.result("replay.after-change").verdict()).isEqualTo(Verdict.NOT_RUN);
    assertThat(run.result("replay.after-change").message()).contains("shows no change");
  }

  @Test
  void theQueryStringCaseNeedsItsFirstRequestToSucceed() {
    try (ReferenceServer server = ReferenceServer.builder().build().start();
        InterceptingProxy proxy =
            InterceptingProxy.start(
                server.baseUrl(),
                seen ->
                    seen.method().equals("POST") ? new InterceptingProxy.Canned(503, "{}") : null);
        Session session =
            new Session(
                SuiteConfig.resolve(
                    Map.of("target", proxy.baseUrl(), "profile", "ietf,reference")));
        Probe probe = new Probe(session)) {
      assertThatThrownBy(() -> ScopeCases.queryStringNeverCreatesADuplicate(probe))
          .isInstanceOf(NotRun.class)
          .hasMessageContaining("first was not accepted");
    }
  }

  @Test
  void expiryRetriesAreGradedByResourceIdsWithoutACounter() {
    try (ReferenceServer server = BrokenServer.EXPIRY_WITHOUT_RECLAIM.build().start()) {
      RunResult run =
          SuiteRuns.against(
              server, "expiry-without-counter", Map.of("effects.count", "", "cases", "expiry.*"));

      assertThat(run.result("expiry.concurrent-retries").verdict()).isEqualTo(Verdict.FAIL);
      assertThat(run.result("expiry.concurrent-retries").message()).contains("new resources");
    }
  }
}
