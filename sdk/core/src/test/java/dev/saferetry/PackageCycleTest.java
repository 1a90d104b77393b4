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
 * The core's packages form no cycle beyond the one its public API's own signatures make, and no
 * package of machinery ({@code dev.saferetry.internal} and below) is part of any: the machinery
 * never uses a package that uses it.
 *
 * <p>The one cycle left is among the public packages {@code dev.saferetry}, {@code .error}, {@code
 * .event} and {@code .provider}, and their public signatures make it: the client builder takes a
 * {@code SafeRetryListener} and a {@code ProviderPreset}, whose events carry an {@code Attempt} and
 * whose reconciler implements {@code Reconciler}; the exceptions carry attempts and answers, and
 * the client's calls throw them. Breaking it means moving public types between packages; until then
 * this test pins it, so that no other package joins it and no new cycle appears.
 */
class PackageCycleTest {
  private static final Set<String> THE_APIS_OWN =
      Set.of(
          "dev.saferetry", "dev.saferetry.error", "dev.saferetry.event", "dev.saferetry.provider");

  private final PackageGraph graph = PackageGraph.of(Path.of("target", "classes"));

  PackageCycleTest() throws IOException {}

  @Test
  void noCycleBeyondThePublicApisOwn() {
    assertThat(graph.cycles()).allMatch(THE_APIS_OWN::equals);
  }

  @Test
  void noMachineryPackageIsInACycle() {
    for (Set<String> cycle : graph.cycles()) {
      assertThat(cycle).noneMatch(p -> p.startsWith("dev.saferetry.internal"));
    }
    for (String machinery : graph.packages()) {
      if (machinery.startsWith("dev.saferetry.internal")) {
        assertThat(graph.uses(machinery)).as(machinery).doesNotContainAnyElementsOf(THE_APIS_OWN);
      }
    }
  }

  @Test
  void theScanSeesTheCoresPackagesAndTheirUses() {
    assertThat(graph.packages())
        .contains(
            "dev.saferetry",
            "dev.saferetry.codec",
            "dev.saferetry.internal",
            "dev.saferetry.internal.codec",
            "dev.saferetry.internal.filestore.log");
    assertThat(graph.uses("dev.saferetry"))
        .contains("dev.saferetry.internal", "dev.saferetry.error");
    assertThat(graph.uses("dev.saferetry.codec")).contains("dev.saferetry.internal.codec");
    assertThat(graph.uses("dev.saferetry.error")).contains("dev.saferetry");
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
