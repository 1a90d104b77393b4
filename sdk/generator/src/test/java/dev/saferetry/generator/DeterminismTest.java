package dev.saferetry.generator;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeterminismTest {
  @TempDir Path dir;

  private static GeneratedSources stripe() {
    return Generator.generate(
        Specs.config("stripe-charges.yaml", "com.example.stripe").preset("stripe").build());
  }

  @Test
  void aRerunWritesTheSameBytes() {
    GeneratedSources first = stripe();
    GeneratedSources second = stripe();
    assertThat(second.sources()).isEqualTo(first.sources());
    assertThat(second.resources()).isEqualTo(first.resources());
  }

  @Test
  void nothingDependsOnTheClockOrTheMachine() {
    for (String source : stripe().sources().values()) {
      assertThat(source)
          .doesNotContain("@Generated")
          .doesNotContain(java.time.LocalDate.now(java.time.ZoneOffset.UTC).toString())
          .doesNotContain(System.getProperty("user.name"))
          .doesNotContain(Specs.of("stripe-charges.yaml").getParent().toString());
    }
  }

  @Test
  void unchangedFilesAreNotRewritten() throws Exception {
    GeneratedSources sources = stripe();
    sources.writeTo(dir.resolve("src"), dir.resolve("res"));
    Path charge = dir.resolve("src/com/example/stripe/Charge.java");
    FileTime old = FileTime.from(Instant.parse("2020-01-01T00:00:00Z"));
    Files.setLastModifiedTime(charge, old);
    stripe().writeTo(dir.resolve("src"), dir.resolve("res"));
    assertThat(Files.getLastModifiedTime(charge)).isEqualTo(old);
    assertThat(Files.readString(dir.resolve("res/META-INF/saferetry/typed-clients.list")))
        .isEqualTo("com.example.stripe.StripeApiClient\n");
  }
}
