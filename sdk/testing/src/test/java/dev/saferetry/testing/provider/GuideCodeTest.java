package dev.saferetry.testing.provider;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The guide's example is the test {@code guide/CheckoutTest}, which runs: the two stay identical.
 */
class GuideCodeTest {
  @Test
  void theGuidesExampleIsTheTestThatRuns() throws IOException {
    String source =
        Files.readString(
            Path.of("src/test/java/dev/saferetry/testing/provider/guide/CheckoutTest.java"));
    String example = source.substring(source.indexOf("import "));
    String guide = Files.readString(Path.of("../../docs/testing.md"));

    assertThat(guide).contains(example);
  }
}
