package dev.saferetry.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** This module measures the SDK as a service uses it: through its public API only. */
class PublicApiOnlyTest {
  @Test
  void noSourceUsesTheSdksInternalPackages() throws IOException {
    List<Path> all;
    try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
      all = files.filter(p -> p.toString().endsWith(".java")).sorted().toList();
    }
    assertThat(all).hasSizeGreaterThan(10);
    for (Path source : all) {
      assertThat(Files.readString(source))
          .as(source.toString())
          .doesNotContainPattern("(?m)^import (static )?dev\\.saferetry\\.internal")
          .doesNotContainPattern("(?m)^[^*/]*\\bdev\\.saferetry\\.internal\\.");
    }
  }
}
