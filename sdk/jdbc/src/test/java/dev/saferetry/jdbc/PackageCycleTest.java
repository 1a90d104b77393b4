package dev.saferetry.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.testing.PackageGraph;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The artifact's packages form no cycle, read from the compiled classes: the outbox builds on the
 * key store and never the other way round, the inbox stands alone, no package of machinery ({@code
 * dev.saferetry.jdbc.internal} and below) uses an API package, the key store's machinery never uses
 * the outbox's, and nothing reaches into the core's machinery.
 */
class PackageCycleTest {
  private static final Set<String> API =
      Set.of(
          "dev.saferetry.jdbc.keystore", "dev.saferetry.jdbc.outbox", "dev.saferetry.jdbc.inbox");

  private final PackageGraph graph = PackageGraph.of(Path.of("target", "classes"));

  PackageCycleTest() throws IOException {}

  @Test
  void noPackageIsInACycle() {
    assertThat(graph.cycles()).isEmpty();
  }

  @Test
  void theMachineryNeverUsesAnApiPackage() {
    for (String machinery : graph.packages()) {
      if (machinery.startsWith("dev.saferetry.jdbc.internal")) {
        assertThat(graph.uses(machinery)).as(machinery).doesNotContainAnyElementsOf(API);
      }
    }
  }

  @Test
  void theKeyStoreNeverUsesTheOutboxNorTheInbox() {
    assertThat(graph.uses("dev.saferetry.jdbc.keystore"))
        .doesNotContain("dev.saferetry.jdbc.outbox", "dev.saferetry.jdbc.inbox");
    assertThat(graph.uses("dev.saferetry.jdbc.internal.keystore"))
        .doesNotContain("dev.saferetry.jdbc.internal.outbox");
    assertThat(graph.uses("dev.saferetry.jdbc.inbox"))
        .doesNotContain("dev.saferetry.jdbc.keystore", "dev.saferetry.jdbc.outbox");
  }

  @Test
  void noPackageUsesTheCoresMachinery() {
    for (String pkg : graph.packages()) {
      assertThat(graph.uses(pkg))
          .as(pkg)
          .noneMatch(used -> used.equals("dev.saferetry.internal"))
          .noneMatch(used -> used.startsWith("dev.saferetry.internal."));
    }
  }

  @Test
  void theScanSeesThePackagesAndTheirUses() {
    assertThat(graph.packages())
        .containsAll(API)
        .contains(
            "dev.saferetry.jdbc.internal",
            "dev.saferetry.jdbc.internal.keystore",
            "dev.saferetry.jdbc.internal.outbox");
    assertThat(graph.uses("dev.saferetry.jdbc.outbox"))
        .contains("dev.saferetry.jdbc.keystore", "dev.saferetry.jdbc.internal.outbox");
    assertThat(graph.uses("dev.saferetry.jdbc.internal.outbox"))
        .contains("dev.saferetry.jdbc.internal.keystore", "dev.saferetry.jdbc.internal");
  }
}
