package dev.saferetry.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The webhook artifact needs nothing but the JDK: a receiver that only verifies signatures carries
 * no HTTP client, JSON library or database code.
 */
class ModuleDescriptorTest {
  @Test
  void itExportsItsApiAndRequiresOnlyTheJdk() throws IOException {
    ModuleDescriptor module;
    try (InputStream in = Files.newInputStream(Path.of("target/classes/module-info.class"))) {
      module = ModuleDescriptor.read(in);
    }
    assertThat(module.name()).isEqualTo("dev.saferetry.webhook");
    assertThat(module.exports())
        .extracting(ModuleDescriptor.Exports::source)
        .containsExactly("dev.saferetry.webhook");
    assertThat(module.requires())
        .extracting(ModuleDescriptor.Requires::name)
        .containsExactly("java.base");
  }
}
