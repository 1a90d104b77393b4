package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.examples.demo.Sandbox;
import dev.saferetry.examples.readme.Checkout;
import dev.saferetry.examples.support.ChildJava;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's quick start promises that every call of an intent reuses one key. Run as a new user
 * would run it — twice, as two processes, the second after the first has exited (a restart) — it
 * must make one charge: the second run sends the first run's key and gets the charge replayed.
 */
class ReadmeQuickStartRestartTest {
  @TempDir Path work;

  @Test
  @Timeout(120)
  void theQuickStartRunTwiceAsTwoProcessesMakesOneChargeWithOneKey() throws Exception {
    Files.createDirectory(
        work.resolve("saferetry-keys"),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    try (Sandbox api = Sandbox.start()) {
      String first = runCheckout(api.baseUrl());
      String second = runCheckout(api.baseUrl());

      assertThat(first).startsWith("charged ").contains(" with key ");
      assertThat(second).as("the restarted process replays the first charge").isEqualTo(first);
      assertThat(api.sideEffects()).as("charges the server made").isEqualTo(1);
    }
  }

  /** Runs the quick start in a new JVM in {@link #work}; returns the line it printed. */
  private String runCheckout(String baseUrl) throws IOException, InterruptedException {
    ProcessBuilder builder =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-cp",
                ChildJava.classPath(Checkout.class),
                Checkout.class.getName())
            .directory(work.toFile())
            .redirectError(work.resolve("stderr.txt").toFile());
    builder.environment().put("PAYMENTS_API_URL", baseUrl);
    builder.environment().put("PAYMENTS_API_KEY", "sk_test_quick_start");
    Process process = builder.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String err = Files.readString(work.resolve("stderr.txt"));
    assertThat(process.exitValue()).as(out + err).isZero();
    List<String> lines = out.lines().toList();
    assertThat(lines).as(out + err).hasSize(1);
    return lines.get(0);
  }
}
