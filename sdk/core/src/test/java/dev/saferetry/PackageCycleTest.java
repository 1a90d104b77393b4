package dev.saferetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.testing.PackageGraph;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The core's packages form no cycle, and no package of machinery ({@code dev.saferetry.internal}
 * and below) uses an API package: the machinery never uses a package that uses it. The values that
 * results, exceptions and events all carry (attempts, the response view, the outcome) live in
 * {@code dev.saferetry.call}, below the client, the exceptions and the events; a provider preset is
 * data in {@code dev.saferetry} that the builder reads, so the provider package (the Stripe
 * reconciler, built on the client) is above the client and never below it.
 */
class PackageCycleTest {
  private static final Set<String> API =
      Set.of(
          "dev.saferetry",
          "dev.saferetry.call",
          "dev.saferetry.codec",
          "dev.saferetry.error",
          "dev.saferetry.event",
          "dev.saferetry.filestore",
          "dev.saferetry.idempotency",
          "dev.saferetry.pagination",
          "dev.saferetry.provider",
          "dev.saferetry.resilience");

  private final PackageGraph graph = PackageGraph.of(Path.of("target", "classes"));

  PackageCycleTest() throws IOException {}

  @Test
  void noPackageIsInACycle() {
    assertThat(graph.cycles()).isEmpty();
  }

  @Test
  void noMachineryPackageUsesTheClientTheErrorsOrTheEvents() {
    for (String machinery : graph.packages()) {
      if (machinery.startsWith("dev.saferetry.internal")) {
        assertThat(graph.uses(machinery))
            .as(machinery)
            .doesNotContain("dev.saferetry", "dev.saferetry.error", "dev.saferetry.event");
      }
    }
  }

  @Test
  void theScanSeesTheCoresPackagesAndTheirUses() {
    assertThat(graph.packages())
        .containsAll(API)
        .contains(
            "dev.saferetry.internal",
            "dev.saferetry.internal.codec",
            "dev.saferetry.internal.filestore.log");
    assertThat(graph.uses("dev.saferetry"))
        .contains("dev.saferetry.internal", "dev.saferetry.error", "dev.saferetry.call");
    assertThat(graph.uses("dev.saferetry.codec")).contains("dev.saferetry.internal.codec");
    assertThat(graph.uses("dev.saferetry.error")).contains("dev.saferetry.call");
    assertThat(graph.uses("dev.saferetry.provider")).contains("dev.saferetry");
  }

  @Test
  void aPlantedCycleIsFound() {
    PackageGraph planted =
        PackageGraph.of(
            Map.of(
                "a", Set.of("b"),
                "b", Set.of("c"),
                "c", Set.of("a", "d"),
                "d", Set.of(),
                "e", Set.of("f"),
                "f", Set.of("e")));
    assertThat(planted.cycles()).isEqualTo(List.of(Set.of("a", "b", "c"), Set.of("e", "f")));
  }
}
