package dev.saferetry.conformance.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The standalone server's command line: usage on request, a message and status 2 on a mistake. */
class ReferenceServerMainTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private ReferenceServerMain.Launch launch(String... args) {
    return ReferenceServerMain.launch(
        args,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Test
  void helpPrintsTheUsageToStandardOutputAndExitsZeroWithoutStarting() {
    ReferenceServerMain.Launch launch = launch("--port", "0", "--help");

    assertThat(launch.server()).isNull();
    assertThat(launch.exitStatus()).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .startsWith("usage: java -cp saferetry-conformance-<version>-all.jar")
        .contains("--test-hooks", "-h, --help");
    assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
  }

  @Test
  void aMistakeOnTheCommandLineIsAMessageAndStatusTwoNeverAStackTrace() {
    for (String[] args :
        new String[][] {{"--frobnicate"}, {"--port"}, {"--port", "eighty"}, {"--port", "70000"}}) {
      err.reset();
      ReferenceServerMain.Launch launch = launch(args);

      String printed = err.toString(StandardCharsets.UTF_8);
      assertThat(launch.server()).isNull();
      assertThat(launch.exitStatus()).isEqualTo(2);
      assertThat(printed)
          .startsWith("reference server: ")
          .contains("usage: ")
          .doesNotContain("Exception", "\tat ");
    }
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("--port must be 0 to 65535, got 70000");
  }

  @Test
  void theOptionsStartAServer() {
    ReferenceServerMain.Launch launch = launch("--port", "0", "--test-hooks");
    try (ReferenceServer server = launch.server()) {
      assertThat(launch.exitStatus()).isZero();
      assertThat(server.baseUrl()).startsWith("http://127.0.0.1:");
    }
  }

  @Test
  void bothMainEntryPointsAnswerHelpWithTheUsageAndStatusZero() throws Exception {
    for (String main :
        new String[] {
          "dev.saferetry.conformance.server.ReferenceServer",
          "dev.saferetry.conformance.ConformanceRunner"
        }) {
      Process p =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-cp",
                  System.getProperty("java.class.path"),
                  main,
                  "--help")
              .redirectErrorStream(false)
              .start();
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(main + " ended").isTrue();
      String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);

      assertThat(p.exitValue()).as(main + ": " + stderr).isZero();
      assertThat(stdout).as(main).startsWith("usage: ");
      assertThat(stderr).as(main).doesNotContain("Exception", "\tat ");
    }
  }
}
