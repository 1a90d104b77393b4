package dev.saferetry.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.conformance.server.ReferenceServer;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Profile options where servers legitimately differ, and what a malformed one gets. */
class ProfileOptionsTest {
  @TempDir Path dir;

  @Test
  void aStripeLikeSecondTenantSendsTenantOnesHeadersPlusItsOwn() {
    try (ReferenceServer server = ReferenceServer.builder().build().start()) {
      RunResult run =
          SuiteRuns.against(
              server,
              "tenant2-inherits",
              Map.of(
                  "profile", "stripe,reference",
                  "headers.X-Client", "checkout",
                  "tenant2.headers.Authorization", "Bearer tenant_connected_account",
                  "cases", "scope.per-tenant"));

      CaseResult perTenant = run.result("scope.per-tenant");
      assertThat(perTenant.verdict()).as(SuiteRuns.problems(run)).isEqualTo(Verdict.PASS);
      Exchange tenant2 =
          perTenant.exchanges().stream()
              .filter(e -> e.label().startsWith("tenant 2"))
              .findFirst()
              .orElseThrow();
      assertThat(tenant2.requestHeaders()).contains("X-Client: checkout", "Authorization: ***");
    }
  }

  @Test
  void aSecondTenantThatIsTheFirstIsAConfigurationErrorNotAFailure() {
    Cli cli =
        Cli.run(
            dir,
            "--set",
            "tenant2.inherit-headers=true",
            "--set",
            "tenant2.headers.Authorization=Bearer tenant_conformance_a");

    assertThat(cli.status()).isEqualTo(2);
    assertThat(cli.output()).contains("tenant 2 sends exactly tenant 1's headers");
  }

  @Test
  void anOptionWithAValueOutsideItsChoicesIsAConfigurationError() {
    Cli cli = Cli.run(dir, "--set", "key.format=quoted");

    assertThat(cli.status()).isEqualTo(2);
    assertThat(cli.output()).contains("key.format must be one of structured-field, opaque");
  }
}
