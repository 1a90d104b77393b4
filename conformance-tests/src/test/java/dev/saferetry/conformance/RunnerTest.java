package dev.saferetry.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.conformance.server.BrokenServer;
import dev.saferetry.conformance.server.ReferenceServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line: exit status, summary table, profiles. */
class RunnerTest {

  private static String[] args(String... args) {
    return args;
  }

  @Test
  void exitStatusIsOneWhenAMustCaseFailsAndTheSummaryNamesIt(@TempDir Path dir) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (ReferenceServer broken = BrokenServer.NO_PAYLOAD_COMPARISON.build().start()) {
      int status =
          ConformanceRunner.execute(
              args(
                  "--target",
                  broken.baseUrl(),
                  "--profile",
                  "ietf,reference",
                  "--report-dir",
                  dir.toString()),
              new PrintStream(out, true, StandardCharsets.UTF_8));

      assertThat(status).isEqualTo(1);
    }
    assertThat(out.toString(StandardCharsets.UTF_8))
        .containsPattern("mismatch.rejected\\s+MUST\\s+FAIL")
        .contains("a MUST case FAILED");
  }

  @Test
  void stripeProfileExpects400ForAMismatchSoTheReferenceFailsOnlyThatShouldCase(@TempDir Path dir) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int status =
        ConformanceRunner.execute(
            args("--profile", "stripe", "--report-dir", dir.toString()),
            new PrintStream(out, true, StandardCharsets.UTF_8));

    assertThat(status).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .containsPattern("mismatch.status\\s+SHOULD\\s+FAIL")
        .containsPattern("replay.marker\\s+SHOULD\\s+PASS")
        .contains("1 failed");
  }

  @Test
  void undeclaredHooksSkipTheirCasesWithAReason(@TempDir Path dir) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (ReferenceServer server = ReferenceServer.builder().testHooks(false).build().start()) {
      int status =
          ConformanceRunner.execute(
              args(
                  "--target",
                  server.baseUrl(),
                  "--set",
                  "headers.Authorization=Bearer t1",
                  "--report-dir",
                  dir.toString()),
              new PrintStream(out, true, StandardCharsets.UTF_8));

      assertThat(status).isZero();
    }
    assertThat(out.toString(StandardCharsets.UTF_8))
        .containsPattern("durability.restart\\s+MUST\\s+SKIP.*restart hook")
        .containsPattern("replay.same-payload\\s+MUST\\s+PASS")
        .doesNotContain("Bearer t1");
  }

  @Test
  void userProfileFileOverridesExpectationsAndLevels(@TempDir Path dir) throws Exception {
    Path profile = dir.resolve("mine.properties");
    java.nio.file.Files.writeString(profile, "status.mismatch=400\nlevel.mismatch.status=MAY\n");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int status =
        ConformanceRunner.execute(
            args("--profile", "ietf," + profile, "--report-dir", dir.toString()),
            new PrintStream(out, true, StandardCharsets.UTF_8));

    assertThat(status).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .containsPattern("mismatch.status\\s+MAY\\s+FAIL");
  }

  @Test
  void unknownProfileIsAUsageError() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int status =
        ConformanceRunner.execute(
            args("--profile", "nope"), new PrintStream(out, true, StandardCharsets.UTF_8));

    assertThat(status).isEqualTo(2);
  }
}
