package dev.saferetry.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The artifact's packages form no cycle: the API package uses its machinery, never the other way
 * round, and neither reaches into the core's machinery.
 */
class PackageCycleTest {
  private static final Path MAIN = Path.of("src", "main", "java", "dev", "saferetry", "jdbc");

  /** Any name of a type in package {@code dev.saferetry.jdbc} itself, imported or written out. */
  private static final Pattern API = Pattern.compile("dev\\.saferetry\\.jdbc\\.([A-Z]\\w*)");

  private static final Pattern CORE_INTERNAL = Pattern.compile("dev\\.saferetry\\.internal\\b");

  @Test
  void theMachineryNeverUsesTheApiPackage() throws IOException {
    List<String> uses = new ArrayList<>();
    for (Path file : sources(MAIN.resolve("internal"))) {
      Matcher m = API.matcher(Files.readString(file));
      while (m.find()) {
        uses.add(file.getFileName() + " -> " + m.group());
      }
    }
    assertThat(uses).isEmpty();
  }

  @Test
  void noPackageUsesTheCoresMachinery() throws IOException {
    List<String> uses = new ArrayList<>();
    for (Path file : sources(MAIN)) {
      if (CORE_INTERNAL.matcher(Files.readString(file)).find()) {
        uses.add(file.toString());
      }
    }
    assertThat(uses).isEmpty();
  }

  @Test
  void theScanSeesBothPackages() throws IOException {
    assertThat(sources(MAIN.resolve("internal"))).hasSizeGreaterThan(10);
    assertThat(sources(MAIN)).anyMatch(p -> p.endsWith("JdbcOutbox.java"));
  }

  private static List<Path> sources(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(p -> p.toString().endsWith(".java")).toList();
    }
  }
}
