package dev.saferetry.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.conformance.server.BrokenServer;
import dev.saferetry.conformance.server.FlawedServers;
import dev.saferetry.conformance.server.ReferenceServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A case never passes on state it did not create: run twice in a row against one server, whose
 * first run left records behind, the suite gives the same, correct verdicts.
 */
class LeftoverStateTest {

  @Test
  void anEmptyKeyTakenForOneKeyFailsTheSecondRunAsItFailedTheFirst() {
    try (ReferenceServer server = BrokenServer.EMPTY_KEY_IS_ONE_KEY.build().start()) {
      Map<String, String> settings =
          Map.of("require-key", "false", "cases", "key.empty-not-shared");
      RunResult first = SuiteRuns.against(server, "leftover-empty-key-1", settings);
      RunResult second = SuiteRuns.against(server, "leftover-empty-key-2", settings);

      assertThat(first.result("key.empty-not-shared").verdict()).isEqualTo(Verdict.FAIL);
      CaseResult again = second.result("key.empty-not-shared");
      assertThat(again.verdict()).as(SuiteRuns.problems(second)).isEqualTo(Verdict.FAIL);
      // The first run's record replays this case's payload: the run repeats the first's evidence.
      assertThat(again.message()).isEqualTo(first.result("key.empty-not-shared").message());
      assertThat(verdicts(second)).isEqualTo(verdicts(first));
      assertThat(second.exitStatus()).isEqualTo(ExitStatus.MUST_FAILED);
    }
  }

  @Test
  void anEmptyKeyRecordAnotherClientLeftFailsTheCaseOnEveryRun() throws Exception {
    try (ReferenceServer server = BrokenServer.EMPTY_KEY_IS_ONE_KEY.build().start()) {
      // Another client's request with an empty key and a body of its own, as curl -H
      // 'Idempotency-Key;' sends it: the record it leaves is not this case's.
      HttpResponse<String> other =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(server.baseUrl() + "/v1/charges"))
                      .header("Authorization", "Bearer tenant_conformance_a")
                      .header("Content-Type", "application/json")
                      .header("Idempotency-Key", "")
                      .POST(
                          HttpRequest.BodyPublishers.ofString(
                              "{\"amount\":500,\"currency\":\"eur\",\"description\":\"curl\"}"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(other.statusCode()).isEqualTo(201);
      Map<String, String> settings =
          Map.of("require-key", "false", "cases", "key.empty-not-shared");
      RunResult first = SuiteRuns.against(server, "leftover-other-client-1", settings);
      RunResult second = SuiteRuns.against(server, "leftover-other-client-2", settings);

      for (RunResult run : new RunResult[] {first, second}) {
        CaseResult r = run.result("key.empty-not-shared");
        assertThat(r.verdict()).as(SuiteRuns.problems(run)).isEqualTo(Verdict.FAIL);
        assertThat(r.message())
            .startsWith(
                "a request with an empty key and this case's payload was answered 422 with the"
                    + " server's reason for another payload under a used key")
            .contains("already holds a record this case did not create");
      }
      assertThat(verdicts(second)).isEqualTo(verdicts(first));
    }
  }

  @Test
  void aUsedKeyAnsweredWithTheInvalidKeyStatusIsNotARefusalOfTheEmptyKeyOnAnyRun() {
    // Stripe's shape: a used key and an invalid key are both answered 400.
    try (ReferenceServer server = FlawedServers.emptyKeySharedUsedKeyAnswered400().start()) {
      Map<String, String> settings = new LinkedHashMap<>(FlawedServers.USED_KEY_400);
      settings.put("cases", "key.*,mismatch.*");
      RunResult first = SuiteRuns.against(server, "leftover-used-key-400-1", settings);
      RunResult second = SuiteRuns.against(server, "leftover-used-key-400-2", settings);

      for (RunResult run : new RunResult[] {first, second}) {
        assertThat(run.result("key.empty-not-shared").verdict())
            .as(SuiteRuns.problems(run))
            .isEqualTo(Verdict.FAIL);
        assertThat(run.result("key.empty").verdict()).isEqualTo(Verdict.FAIL);
        assertThat(run.result("key.missing").verdict()).isEqualTo(Verdict.PASS);
        assertThat(run.result("mismatch.rejected").verdict()).isEqualTo(Verdict.PASS);
        assertThat(run.result("mismatch.status").verdict()).isEqualTo(Verdict.PASS);
      }
      assertThat(second.result("key.empty").message())
          .contains("with the server's reason for another payload under a used key");
      assertThat(verdicts(second)).isEqualTo(verdicts(first));
    }
  }

  @Test
  void anEmptyKeyTakenForOneKeyByAServerThatRefusesEverythingAlikeFailsEveryRun() {
    try (ReferenceServer server = FlawedServers.emptyKeySharedEveryRefusalAlike().start()) {
      Map<String, String> settings = new LinkedHashMap<>(FlawedServers.EVERY_REFUSAL_400);
      settings.put("cases", "key.empty-not-shared");
      RunResult first = SuiteRuns.against(server, "leftover-alike-1", settings);
      RunResult second = SuiteRuns.against(server, "leftover-alike-2", settings);
      RunResult third = SuiteRuns.against(server, "leftover-alike-3", settings);

      for (RunResult run : new RunResult[] {first, second, third}) {
        CaseResult r = run.result("key.empty-not-shared");
        assertThat(r.verdict()).as(SuiteRuns.problems(run)).isEqualTo(Verdict.FAIL);
        assertThat(r.message())
            .startsWith(
                "a second request with an empty key and another payload was rejected with 400"
                    + " after a first one was accepted");
        assertThat(run.exitStatus()).isEqualTo(ExitStatus.MUST_FAILED);
      }
      assertThat(verdicts(second)).isEqualTo(verdicts(first));
      assertThat(verdicts(third)).isEqualTo(verdicts(first));
    }
  }

  @Test
  void aCorrectServerGetsTheSameVerdictsOnEveryRun() {
    try (ReferenceServer server = ReferenceServer.builder().build().start()) {
      Map<String, String> settings =
          Map.of("cases", "key*,mismatch.*,scope.*,replay.*,payload.*,validation.*");
      RunResult first = SuiteRuns.against(server, "leftover-reference-1", settings);
      RunResult second = SuiteRuns.against(server, "leftover-reference-2", settings);

      for (RunResult run : new RunResult[] {first, second}) {
        assertThat(
                run.results().stream()
                    .filter(r -> !r.message().startsWith("excluded"))
                    .filter(r -> r.verdict() != Verdict.PASS)
                    .map(CaseResult::id))
            .as(SuiteRuns.problems(run))
            .isEmpty();
      }
      assertThat(first.result("key.empty-not-shared").verdict()).isEqualTo(Verdict.PASS);
      assertThat(verdicts(second)).isEqualTo(verdicts(first));
    }
  }

  /** Every case's verdict, by id. */
  static Map<String, Verdict> verdicts(RunResult run) {
    Map<String, Verdict> out = new TreeMap<>();
    run.results().forEach(r -> out.put(r.id(), r.verdict()));
    return out;
  }
}
