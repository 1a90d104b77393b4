package dev.saferetry.testing.provider;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The testing artifact tests any HTTP client: it needs MockWebServer, OkHttp and Jackson, never
 * SafeRetry's client; JUnit only for the extension and Spring only for {@code @WithFakeProvider},
 * both only from the user's own build.
 */
class ModuleDescriptorTest {
  @Test
  void itExportsOnlyTheProviderAndNeedsNeitherTheSdkNorJunitNorSpringAtRunTime()
      throws IOException {
    ModuleDescriptor module;
    try (InputStream in = Files.newInputStream(Path.of("target/classes/module-info.class"))) {
      module = ModuleDescriptor.read(in);
    }
    assertThat(module.name()).isEqualTo("dev.saferetry.testing");
    assertThat(module.exports())
        .extracting(ModuleDescriptor.Exports::source)
        .containsExactly("dev.saferetry.testing.provider");
    assertThat(module.requires())
        .extracting(ModuleDescriptor.Requires::name)
        .containsExactlyInAnyOrder(
            "java.base",
            "mockwebserver3",
            "okhttp3",
            "com.fasterxml.jackson.databind",
            "org.junit.jupiter.api",
            "spring.core",
            "spring.beans",
            "spring.context",
            "spring.test");
    assertThat(module.requires())
        .filteredOn(r -> r.name().startsWith("org.junit") || r.name().startsWith("spring."))
        .hasSize(5)
        .allSatisfy(
            r -> assertThat(r.modifiers()).contains(ModuleDescriptor.Requires.Modifier.STATIC));
    // Only Spring's reflection reaches the package-private hooks of META-INF/spring.factories.
    assertThat(module.opens())
        .singleElement()
        .satisfies(o -> assertThat(o.targets()).containsExactly("spring.core"));
  }
}
