package dev.saferetry.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.conformance.server.BrokenServer;
import dev.saferetry.conformance.server.ReferenceServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line: one exit status per kind of verdict, and a summary that says why. */
class RunnerTest {
  @TempDir Path dir;

  @Test
  void aFailedMustCaseExitsOneAndIsNamed() {
    try (ReferenceServer broken = BrokenServer.NO_PAYLOAD_COMPARISON.build().start()) {
      Cli cli =
          Cli.run(
              dir,
              "--target",
              broken.baseUrl(),
              "--profile",
              "ietf,reference",
              "--set",
              "levels=MUST");

      assertThat(cli.status()).isEqualTo(1);
      assertThat(cli.output())
          .containsPattern("mismatch.rejected\\s+MUST\\s+FAIL")
          .contains("a MUST case FAILED");
    }
  }

  @Test
  void mustCasesThatCannotRunExitThreeAndAreNamedAsUnproven() {
    try (ReferenceServer server = ReferenceServer.builder().testHooks(false).build().start()) {
      Cli cli =
          Cli.run(
              dir, "--target", server.baseUrl(), "--set", "headers.Authorization=Bearer t1-secret");

      assertThat(cli.status()).isEqualTo(3);
      assertThat(cli.output())
          .containsPattern("durability.restart\\s+MUST\\s+NOT_RUN.*restart hook")
          .containsPattern("fault.5xx-after-commit\\s+MUST\\s+NOT_RUN")
          .containsPattern("replay.same-payload\\s+MUST\\s+PASS")
          .containsPattern("mismatch.rejected\\s+MUST\\s+NOT_RUN.*needs a side-effect counter")
          .containsPattern("MUST cases not run: .*durability.restart")
          .contains("NOT shown to be safe")
          .doesNotContain("t1-secret");
    }
  }

  @Test
  void anUnreachableTargetIsAConfigurationErrorNotAFailure() {
    Cli cli = Cli.run(dir, "--target", "http://127.0.0.1:9", "--profile", "ietf");

    assertThat(cli.status()).isEqualTo(2);
    assertThat(cli.output()).contains("does not answer").doesNotContain("MUST case FAILED");
  }

  @Test
  void theReferenceProfileAgainstAServerWithoutHooksIsAConfigurationError() {
    try (ReferenceServer server = ReferenceServer.builder().testHooks(false).build().start()) {
      Cli cli = Cli.run(dir, "--target", server.baseUrl(), "--profile", "ietf,reference");

      assertThat(cli.status()).isEqualTo(2);
      assertThat(cli.output())
          .contains("hook.fault.reset answered 404")
          .doesNotContainPattern("MUST\\s+FAIL");
    }
  }

  @Test
  void aFirstCreateThatFailsIsAConfigurationError() {
    Cli cli = Cli.run(dir, "--set", "create.path=/v1/nothing-here");

    assertThat(cli.status()).isEqualTo(2);
    assertThat(cli.output())
        .contains("first create failed: got 404")
        .doesNotContainPattern("MUST\\s+FAIL");
  }

  @Test
  void aDeclaredHookThatDoesNotDoWhatItSaysIsAConfigurationError() {
    Cli cli =
        Cli.run(
            dir,
            "--set",
            "hook.fault.fail-before-commit=POST /_test/faults {\"fault\":\"delay\",\"millis\":1}");

    assertThat(cli.status()).isEqualTo(2);
    assertThat(cli.output())
        .contains("hook.fault.fail-before-commit did not make the next create answer 503");
  }

  @Test
  void aCounterThatDoesNotCountIsAConfigurationError() {
    try (ReferenceServer server = ReferenceServer.builder().build().start();
        InterceptingProxy proxy =
            InterceptingProxy.start(
                server.baseUrl(),
                seen ->
                    seen.path().startsWith("/_test/side-effects")
                        ? new InterceptingProxy.Canned(200, "{\"total\":1}")
                        : null)) {
      Cli cli = Cli.run(dir, "--target", proxy.baseUrl(), "--profile", "ietf,reference");

      assertThat(cli.status()).isEqualTo(2);
      assertThat(cli.output()).contains("effects.count counted 1 effects where nothing was sent");
    }
  }

  @Test
  void malformedConfigurationAndUsageErrorsExitTwo() {
    assertThat(Cli.run(dir, "--set", "hook.restart=restart-please").status()).isEqualTo(2);
    assertThat(Cli.run(dir, "--profile", "nope").status()).isEqualTo(2);
    assertThat(Cli.run(dir, "--frobnicate").status()).isEqualTo(2);
    assertThat(Cli.run(dir, "--set", "level.key.empty=SOMETIMES").status()).isEqualTo(2);
  }

  @Test
  void helpPrintsTheUsageAndExitsZero() {
    for (String help : new String[] {"--help", "-h"}) {
      Cli cli = Cli.run(dir, help);

      assertThat(cli.status()).isZero();
      assertThat(cli.output())
          .startsWith("usage: java -jar saferetry-conformance-<version>-all.jar [options]")
          .contains("--target URL", "-h, --help", "Exit status: 0")
          .doesNotContain("unknown option", "configuration error", "MUST:");
    }
  }

  @Test
  void aMistypedPropertyIsRefusedWithTheNearestKnownNameBeforeAnyCase() {
    Cli counter =
        Cli.run(dir, "--set", "effects.cout=GET /_test/side-effects?description=${marker}");
    Cli hook = Cli.run(dir, "--set", "hook.fault.hangs=POST /_test/faults {\"fault\":\"hang\"}");
    Cli level = Cli.run(dir, "--set", "level.replay.basc=SHOULD");
    Cli header = Cli.run(dir, "--set", "header.Authorization=Bearer t");
    Cli cases = Cli.run(dir, "--set", "cases=replay.basc,key.*");

    assertThat(counter.status()).isEqualTo(2);
    assertThat(counter.output())
        .contains("unknown property effects.cout (did you mean effects.count?)")
        .doesNotContain("MUST:");
    assertThat(hook.output())
        .contains("unknown property hook.fault.hangs (did you mean hook.fault.hang?)");
    assertThat(level.output())
        .contains("unknown property level.replay.basc (did you mean level.replay.basic?)");
    assertThat(header.output())
        .contains("unknown property header.Authorization (did you mean headers.Authorization?)");
    assertThat(cases.status()).isEqualTo(2);
    assertThat(cases.output())
        .contains("cases names replay.basc, which matches no case (did you mean replay.basic?)");
  }

  @Test
  void aMistypedPropertyInAProfileFileIsRefusedToo() throws Exception {
    Path profile = dir.resolve("typo.properties");
    Files.writeString(profile, "retention-second=86400\nheaders.X-Anything=fine\n");
    Cli cli = Cli.run(dir, "--profile", "ietf," + profile);

    assertThat(cli.status()).isEqualTo(2);
    assertThat(cli.output())
        .contains("unknown property retention-second (did you mean retention-seconds?)");
  }

  @Test
  void stripeProfileGradesTheReferenceAgainstStripesPreferencesAsShoulds() {
    Cli cli = Cli.run(dir, "--profile", "stripe", "--set", "levels=SHOULD");

    assertThat(cli.status()).as("SHOULD results never change the exit status").isEqualTo(3);
    assertThat(cli.output())
        .containsPattern("mismatch.status\\s+SHOULD\\s+FAIL")
        .containsPattern("scope.per-operation\\s+SHOULD\\s+FAIL.*not rejected")
        .containsPattern("fault.5xx-before-commit-preferred\\s+SHOULD\\s+FAIL")
        .containsPattern("replay.headers\\s+SHOULD\\s+PASS");
  }

  @Test
  void aUserProfileFileOverridesExpectationsAndLevels() throws Exception {
    Path profile = dir.resolve("mine.properties");
    Files.writeString(
        profile, "status.mismatch=400\nlevel.mismatch.status=MAY\ncases=mismatch.*\n");
    Cli cli = Cli.run(dir, "--profile", "ietf," + profile);

    assertThat(cli.output())
        .containsPattern("mismatch.status\\s+MAY\\s+FAIL")
        .containsPattern("mismatch.rejected\\s+MUST\\s+PASS");
  }

  @Test
  void listPrintsEveryCaseWithItsEffectiveLevel() {
    Cli cli = Cli.run(dir, "--profile", "stripe", "--list");

    assertThat(cli.status()).isZero();
    assertThat(cli.output())
        .containsPattern("replay.marker\\s+SHOULD")
        .containsPattern("inflight.other-payload\\s+MUST");
  }
}
