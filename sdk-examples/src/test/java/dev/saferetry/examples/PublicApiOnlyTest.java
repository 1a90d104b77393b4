package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The examples are meant to be copied: they may use the SDK's public API only. */
class PublicApiOnlyTest {
  @Test
  void noExampleUsesTheSdksInternalPackages() throws IOException {
    Path dir = Path.of("src/main/java/dev/saferetry/examples");
    List<Path> sources;
    try (Stream<Path> files = Files.list(dir)) {
      sources = files.filter(p -> p.toString().endsWith(".java")).toList();
    }
    assertThat(sources).hasSizeGreaterThan(8);
    for (Path source : sources) {
      assertThat(Files.readString(source))
          .as(source.toString())
          .doesNotContainPattern("(?m)^import (static )?dev\\.saferetry\\.internal")
          .doesNotContainPattern("(?m)^[^*/]*\\bdev\\.saferetry\\.internal\\.");
    }
  }
}
