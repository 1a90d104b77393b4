package dev.saferetry.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.conformance.receiver.FixtureReceiver;
import dev.saferetry.conformance.server.BrokenServer;
import dev.saferetry.conformance.server.ReferenceServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** The suite inside a user's own JUnit 5 build, exactly as the README shows it. */
class EmbeddingTest {
  @TempDir Path dir;

  /** The documented lines (here against the in-process reference server). */
  @TestFactory
  Stream<DynamicTest> idempotencyKeyContract() {
    return ConformanceTests.of(SuiteConfig.builder().set("levels", "MUST").build());
  }

  /** The documented lines for a webhook receiver (here a correct fixture receiver). */
  @TestFactory
  Stream<DynamicTest> webhookReceiverContract() {
    try (FixtureReceiver receiver = FixtureReceiver.correct("stripe", "whsec_embedded_test")) {
      return ConformanceTests.of(
          SuiteConfig.builder()
              .target(receiver.baseUrl())
              .profile("webhook")
              .set("webhook.secret", "whsec_embedded_test")
              .set("effects.total", "GET /effects")
              .set("effects.total.pointer", "/applied")
              .set("hook.fail-next", "POST /_test/fail-next")
              .build(),
          dir,
          System.out)
          .toList()
          .stream();
    }
  }

  @Test
  void aFailedMustCaseFailsItsTestAndOtherVerdictsAreSkippedWithTheirReason() {
    try (ReferenceServer broken = BrokenServer.NO_PAYLOAD_COMPARISON.build().start()) {
      Map<String, DynamicTest> tests =
          tests(
              SuiteConfig.builder()
                  .target(broken.baseUrl())
                  .profile("ietf,reference")
                  .set("cases", "mismatch.*,replay.same-payload")
                  .build());

      assertThatThrownBy(() -> tests.get("mismatch.rejected").getExecutable().execute())
          .isInstanceOf(AssertionFailedError.class)
          .hasMessageContaining("mismatch.rejected (MUST): another payload under a used key")
          .hasMessageNotContaining("expected: <");
      assertThatThrownBy(() -> tests.get("mismatch.status").getExecutable().execute())
          .isInstanceOf(TestAbortedException.class)
          .hasMessageStartingWith("SHOULD not met: ");
      assertThatCode(() -> tests.get("replay.same-payload").getExecutable().execute())
          .doesNotThrowAnyException();
      assertThatThrownBy(() -> tests.get("durability.restart").getExecutable().execute())
          .isInstanceOf(TestAbortedException.class)
          .hasMessageContaining("excluded");
    }
  }

  @Test
  void unprovenMustCasesFailTheVerdictTestSoAnUnprovenServerIsNeverGreen() {
    try (ReferenceServer server = ReferenceServer.builder().testHooks(false).build().start()) {
      Map<String, DynamicTest> tests =
          tests(
              SuiteConfig.builder()
                  .target(server.baseUrl())
                  .set("headers.Authorization", "Bearer t1")
                  .set("cases", "durability.restart,replay.same-payload")
                  .build());

      assertThatThrownBy(() -> tests.get("verdict").getExecutable().execute())
          .isInstanceOf(AssertionFailedError.class)
          .hasMessageContaining("MUST cases not run:")
          .hasMessageContaining("durability.restart");
      assertThat(tests).containsKey("replay.same-payload");
    }
  }

  @Test
  void withoutACounterTheCasesPromisingNoEffectAreSkippedAndTheVerdictTestFails() {
    Map<String, DynamicTest> tests =
        tests(
            SuiteConfig.builder()
                .set("effects.count", "")
                .set("cases", "mismatch.rejected,scope.query-string,replay.same-payload")
                .build());

    for (String id : List.of("mismatch.rejected", "scope.query-string")) {
      assertThatThrownBy(() -> tests.get(id).getExecutable().execute())
          .as(id)
          .isInstanceOf(TestAbortedException.class)
          .hasMessageStartingWith("MUST NOT_RUN: needs a side-effect counter");
    }
    assertThatCode(() -> tests.get("replay.same-payload").getExecutable().execute())
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> tests.get("verdict").getExecutable().execute())
        .isInstanceOf(AssertionFailedError.class)
        .hasMessageContaining("MUST cases not run:")
        .hasMessageContaining("mismatch.rejected");
  }

  private Map<String, DynamicTest> tests(SuiteConfig config) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    return ConformanceTests.of(config, dir, new PrintStream(out, true, StandardCharsets.UTF_8))
        .collect(Collectors.toMap(DynamicTest::getDisplayName, Function.identity()));
  }
}
