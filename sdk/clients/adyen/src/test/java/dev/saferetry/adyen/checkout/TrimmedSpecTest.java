package dev.saferetry.adyen.checkout;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committed spec is what its recipe makes: trimming it again with {@code spec/operations.txt}
 * changes no byte, so it holds exactly the listed operations, every component they reach and
 * nothing else, in the trim program's layout.
 */
class TrimmedSpecTest {
  @Test
  void trimmingTheCommittedSpecAgainChangesNothing(@TempDir Path tmp) throws Exception {
    Path spec = Path.of("spec/adyen-checkout-openapi.json");
    Path again = tmp.resolve("again.json");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process trim =
        new ProcessBuilder(
                java,
                "../tooling/TrimSpec.java",
                spec.toString(),
                "spec/operations.txt",
                again.toString())
            .redirectErrorStream(true)
            .start();
    String out = new String(trim.getInputStream().readAllBytes());
    assertThat(trim.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(trim.exitValue()).as(out).isZero();
    assertThat(Files.mismatch(spec, again)).as("first differing byte").isEqualTo(-1L);
    assertThat(Path.of("spec/LICENSE")).content().contains("MIT License");
  }
}
