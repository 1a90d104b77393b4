package dev.saferetry;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ResolvedModule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The module descriptor draws the line of the public API: every API package is exported, no
 * internal one is, and the module resolves against the SDK's runtime dependencies alone. (Tests run
 * on the class path, so this test checks the descriptor directly.)
 */
class ModuleDescriptorTest {
  private static final Path CLASSES = Path.of("target/classes");

  private static ModuleDescriptor descriptor() throws IOException {
    try (InputStream in = Files.newInputStream(CLASSES.resolve("module-info.class"))) {
      return ModuleDescriptor.read(in);
    }
  }

  /** The packages of the built classes that hold at least one class. */
  private static Set<String> packages() throws IOException {
    try (Stream<Path> files = Files.walk(CLASSES)) {
      return files
          .filter(p -> p.toString().endsWith(".class") && !p.endsWith("module-info.class"))
          .map(p -> CLASSES.relativize(p.getParent()).toString().replace('/', '.'))
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }

  @Test
  void everyApiPackageIsExportedAndNoInternalOne() throws IOException {
    ModuleDescriptor module = descriptor();
    assertThat(module.name()).isEqualTo("dev.saferetry");
    Set<String> exported =
        module.exports().stream()
            .peek(e -> assertThat(e.isQualified()).as(e.source()).isFalse())
            .map(ModuleDescriptor.Exports::source)
            .collect(Collectors.toSet());
    Set<String> api =
        packages().stream()
            .filter(p -> !p.equals("dev.saferetry.internal"))
            .filter(p -> !p.startsWith("dev.saferetry.internal."))
            .collect(Collectors.toSet());
    assertThat(exported).containsExactlyInAnyOrderElementsOf(api);
    // One package is open, to Jackson alone: it makes the Expandable reader, which is not API.
    assertThat(module.opens())
        .singleElement()
        .satisfies(
            o -> {
              assertThat(o.source()).isEqualTo("dev.saferetry.model");
              assertThat(o.targets()).containsExactly("com.fasterxml.jackson.databind");
            });
  }

  @Test
  void onlyTheTypesInPublicSignaturesAreRequiredTransitively() throws IOException {
    Set<String> transitive =
        descriptor().requires().stream()
            .filter(r -> r.modifiers().contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE))
            .map(ModuleDescriptor.Requires::name)
            .collect(Collectors.toSet());
    assertThat(transitive)
        .containsExactlyInAnyOrder(
            "okhttp3",
            "com.fasterxml.jackson.databind",
            "io.github.resilience4j.core",
            "io.github.resilience4j.retry",
            "io.github.resilience4j.circuitbreaker");
  }

  @Test
  void theModuleResolvesAgainstItsRuntimeDependencies() throws IOException {
    List<String> runtime =
        List.of(
            "okhttp-jvm",
            "okio-jvm",
            "kotlin-stdlib",
            "annotations",
            "jackson-databind",
            "jackson-core",
            "jackson-annotations",
            "resilience4j-core",
            "resilience4j-retry",
            "resilience4j-circuitbreaker",
            "slf4j-api");
    Path[] jars =
        Arrays.stream(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
            .map(Path::of)
            .filter(p -> runtime.stream().anyMatch(r -> p.getFileName().toString().startsWith(r)))
            .toArray(Path[]::new);
    Path[] all = Stream.concat(Stream.of(CLASSES), Arrays.stream(jars)).toArray(Path[]::new);
    Configuration resolved =
        Configuration.resolve(
            ModuleFinder.of(all),
            List.of(ModuleLayer.boot().configuration()),
            ModuleFinder.of(),
            Set.of("dev.saferetry"));
    assertThat(resolved.modules())
        .extracting(ResolvedModule::name)
        .contains("dev.saferetry", "okhttp3", "io.github.resilience4j.retry", "org.slf4j");
  }
}
