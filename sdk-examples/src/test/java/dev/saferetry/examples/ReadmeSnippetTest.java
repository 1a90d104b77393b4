package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The README's quick start is the compiled {@code dev.saferetry.examples.readme.Checkout}, word for
 * word: the README never shows code that does not compile.
 */
class ReadmeSnippetTest {
  @Test
  void theReadmeQuickStartIsTheCompiledExample() throws IOException {
    String source =
        Files.readString(Path.of("src/main/java/dev/saferetry/examples/readme/Checkout.java"));
    String withoutPackage = source.substring(source.indexOf("\n\n") + 2);
    String readme = Files.readString(Path.of("../README.md"));
    String quickStart = readme.substring(readme.indexOf("## Quick start"));
    String firstJavaBlock =
        quickStart.substring(
            quickStart.indexOf("```java\n") + "```java\n".length(),
            quickStart.indexOf("\n```\n", quickStart.indexOf("```java\n")) + 1);
    assertThat(firstJavaBlock).isEqualTo(withoutPackage);
  }
}
