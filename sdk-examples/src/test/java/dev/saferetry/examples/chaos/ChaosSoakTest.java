package dev.saferetry.examples.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The short chaos soak: 300 intents, 2 worker processes, every proxy fault kind and at least two
 * SIGKILLs; every intent must cause exactly one side effect. A negative control shows the audit
 * catches duplicates when the keys are not durable.
 */
class ChaosSoakTest {
  private static final String PG_URL =
      System.getenv()
          .getOrDefault("SAFERETRY_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");

  private static SoakConfig shortSoak() {
    return SoakConfig.defaults()
        .withSize(300, 2, Duration.ofSeconds(50))
        .withKills(Duration.ofMillis(1500), 70);
  }

  @Test
  @Timeout(90)
  void killedWorkersNeitherDuplicateNorLoseIntentsOnH2() throws Exception {
    SoakReport report = ChaosSoak.run(shortSoak());
    report.print(System.out);
    assertNoDuplicateNoLoss(report);
  }

  @Test
  @Timeout(90)
  void killedWorkersNeitherDuplicateNorLoseIntentsOnPostgres() throws Exception {
    assumeTrue(
        reachable(PG_URL),
        "PostgreSQL not reachable at "
            + PG_URL
            + " (set SAFERETRY_PG_URL to run the PostgreSQL soak)");
    SoakReport report = ChaosSoak.run(shortSoak().withJdbcUrl(PG_URL));
    report.print(System.out);
    assertNoDuplicateNoLoss(report);
  }

  @Test
  @Timeout(90)
  void auditCatchesDuplicatesWhenRestartedWorkersForgetTheirKeys() throws Exception {
    SoakReport report = ChaosSoak.run(shortSoak().withVolatileStore());
    report.print(System.out);
    assertThat(report.kills()).isGreaterThanOrEqualTo(1);
    assertThat(report.duplicates()).isPositive();
    assertThat(report.ok()).isFalse();
  }

  private static void assertNoDuplicateNoLoss(SoakReport report) {
    assertThat(report.duplicates()).as("duplicates").isZero();
    assertThat(report.lost()).as("lost intents").isZero();
    assertThat(report.neverResolved()).as("never resolved").isZero();
    assertThat(report.failed()).as("definitive failures").isZero();
    assertThat(report.chargeMismatches()).as("charge/effect mismatches").isZero();
    assertThat(report.effectsHistogram()).containsExactly(Map.entry(1L, 300L));
    assertThat(report.ok()).isTrue();
    // Otherwise the soak proves nothing: every fault kind and the kills must have happened.
    assertThat(report.kills()).as("kills").isGreaterThanOrEqualTo(2);
    for (FaultKind kind : FaultKind.values()) {
      assertThat(report.faults().getOrDefault(kind, 0L)).as(kind.name()).isPositive();
    }
    assertThat(report.postsAtProxy()).isGreaterThan(300);
  }

  private static boolean reachable(String url) {
    try (Connection c = DriverManager.getConnection(url)) {
      return c.isValid(2);
    } catch (SQLException e) {
      return false;
    }
  }
}
