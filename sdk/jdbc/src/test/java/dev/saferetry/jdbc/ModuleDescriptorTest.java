package dev.saferetry.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The artifact's module descriptor exports its API packages alone and hands the core's API (and
 * {@code java.sql}, which its signatures name) to its users. Tests run on the class path, so this
 * test reads the descriptor directly.
 */
class ModuleDescriptorTest {
  private static ModuleDescriptor descriptor() throws IOException {
    try (InputStream in = Files.newInputStream(Path.of("target/classes/module-info.class"))) {
      return ModuleDescriptor.read(in);
    }
  }

  @Test
  void onlyTheApiPackagesAreExported() throws IOException {
    ModuleDescriptor module = descriptor();
    assertThat(module.name()).isEqualTo("dev.saferetry.jdbc");
    assertThat(module.exports())
        .extracting(ModuleDescriptor.Exports::source)
        .containsExactlyInAnyOrder(
            "dev.saferetry.jdbc.keystore", "dev.saferetry.jdbc.outbox", "dev.saferetry.jdbc.inbox");
    assertThat(module.exports()).noneMatch(ModuleDescriptor.Exports::isQualified);
    // The machinery is built into the module, and not exported.
    assertThat(Path.of("target/classes/dev/saferetry/jdbc/internal/outbox/RelayTable.class"))
        .exists();
    assertThat(module.opens()).isEmpty();
  }

  @Test
  void theCoreAndJavaSqlAreRequiredTransitively() throws IOException {
    assertThat(
            descriptor().requires().stream()
                .filter(r -> r.modifiers().contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE))
                .map(ModuleDescriptor.Requires::name)
                .collect(Collectors.toSet()))
        .containsExactlyInAnyOrder("dev.saferetry", "java.sql");
  }
}
