package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.SafeRetryClient;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The examples' jar shares no package with the SDK's jar: a package split over two jars cannot be
 * loaded once the SDK is a named module, and a class the examples shipped in an SDK package would
 * shadow or clash with the SDK's own. The test fixtures the examples carry at run time live in a
 * package of their own; the fake clock is test code only.
 */
class PackageOwnershipTest {
  /** The packages of every class under {@code root} (a class directory or a jar). */
  static Set<String> packagesOf(Class<?> anyClassThere) throws IOException, URISyntaxException {
    Path root = Path.of(anyClassThere.getProtectionDomain().getCodeSource().getLocation().toURI());
    if (Files.isDirectory(root)) {
      return packagesUnder(root);
    }
    try (FileSystem jar = FileSystems.newFileSystem(root)) {
      return packagesUnder(jar.getPath("/"));
    }
  }

  private static Set<String> packagesUnder(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(p -> p.toString().endsWith(".class"))
          .map(p -> root.relativize(p.getParent()).toString().replace('/', '.'))
          .filter(pkg -> !pkg.isEmpty() && !pkg.startsWith("META-INF"))
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }

  @Test
  void theExamplesShipNoClassInAPackageOfTheSdk() throws Exception {
    Set<String> sdk = new TreeSet<>(packagesOf(SafeRetryClient.class));
    sdk.addAll(packagesOf(dev.saferetry.jdbc.inbox.Inbox.class));
    sdk.addAll(packagesOf(dev.saferetry.webhook.WebhookVerifier.class));
    Set<String> examples = packagesOf(QuickStart.class);
    assertThat(sdk).contains("dev.saferetry", "dev.saferetry.jdbc.inbox", "dev.saferetry.webhook");
    assertThat(examples).contains("dev.saferetry.examples", "dev.saferetry.examples.demo");

    assertThat(examples).as("packages in both jars").doesNotContainAnyElementsOf(sdk);
  }

  @Test
  void onlyTheChildJvmFixturesAreShippedAndTheFakeClockIsTestCodeOnly() throws Exception {
    Path examples =
        Path.of(QuickStart.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    try (Stream<Path> files = Files.walk(examples)) {
      Set<String> fixtures =
          files
              .map(p -> examples.relativize(p).toString())
              .filter(p -> p.endsWith(".class") && !p.startsWith("dev/saferetry/examples/"))
              .collect(Collectors.toCollection(TreeSet::new));
      assertThat(fixtures)
          .containsExactly(
              "dev/saferetry/testing/ChildClassPath.class", "dev/saferetry/testing/ChildJvm.class");
    }
  }
}
