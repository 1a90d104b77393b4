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
    assertSectionShows("## Quick start", "Checkout.java");
  }

  @Test
  void theReadmeStripeStyleQuickStartIsTheCompiledExample() throws IOException {
    assertSectionShows("## Stripe-style quick start", "StripeQuickStart.java");
  }

  private static void assertSectionShows(String heading, String file) throws IOException {
    String source =
        Files.readString(Path.of("src/main/java/dev/saferetry/examples/readme/" + file));
    String withoutPackage = source.substring(source.indexOf("\n\n") + 2);
    String readme = Files.readString(Path.of("../README.md"));
    assertThat(readme).contains(heading + "\n");
    String section = readme.substring(readme.indexOf(heading + "\n"));
    String firstJavaBlock =
        section.substring(
            section.indexOf("```java\n") + "```java\n".length(),
            section.indexOf("\n```\n", section.indexOf("```java\n")) + 1);
    assertThat(firstJavaBlock).isEqualTo(withoutPackage);
  }
}
