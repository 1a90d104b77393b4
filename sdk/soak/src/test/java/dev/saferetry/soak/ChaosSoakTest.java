package dev.saferetry.soak;

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
        .withSize(300, 2, Duration.ofSeconds(75))
        // Kills by progress, not by the clock: on a slow or busy machine a kill every second or
        // so killed workers before they got going, and the soak ran out of time unfinished.
        .withKills(Duration.ZERO, 70);
  }

  @Test
  @Timeout(120)
  void killedWorkersNeitherDuplicateNorLoseIntentsOnH2() throws Exception {
    SoakReport report = ChaosSoak.run(shortSoak());
    report.print(System.out);
    assertNoDuplicateNoLoss(report, 300, 2);
  }

  @Test
  @Timeout(120)
  void killedWorkersNeitherDuplicateNorLoseIntentsOnPostgres() throws Exception {
    assumeTrue(
        reachable(PG_URL),
        "PostgreSQL not reachable at "
            + PG_URL
            + " (set SAFERETRY_PG_URL to run the PostgreSQL soak)");
    SoakReport report = ChaosSoak.run(shortSoak().withJdbcUrl(PG_URL));
    report.print(System.out);
    assertNoDuplicateNoLoss(report, 300, 2);
  }

  @Test
  @Timeout(60)
  void survivingWorkersReDriveAKilledWorkersIntentsFromASharedPostgresStore() throws Exception {
    assumeTrue(
        reachable(PG_URL),
        "PostgreSQL not reachable at "
            + PG_URL
            + " (set SAFERETRY_PG_URL to run the shared-store soak)");
    SoakConfig config =
        SoakConfig.defaults()
            .withSize(100, 2, Duration.ofSeconds(45))
            .withKills(Duration.ZERO, 30) // by progress: a worker on a JDBC store starts slowly
            .withJdbcStore(PG_URL);
    SoakReport report = ChaosSoak.run(config);
    report.print(System.out);
    assertNoDuplicateNoLoss(report, 100, 1);
    assertThat(report.store()).contains("JDBC store shared");
    // The first kill is not left to luck: the proxy holds the first intent back, its worker is
    // killed once the intent is pending in the store, and stays down until the survivor has
    // re-driven it.
    assertThat(report.adopted()).as("intents re-driven by another worker").isPositive();
  }

  @Test
  @Timeout(120)
  void auditCatchesDuplicatesWhenRestartedWorkersForgetTheirKeys() throws Exception {
    SoakReport report = ChaosSoak.run(shortSoak().withVolatileStore());
    report.print(System.out);
    assertThat(report.kills()).isGreaterThanOrEqualTo(1);
    assertThat(report.duplicates()).isPositive();
    assertThat(report.ok()).isFalse();
  }

  private static void assertNoDuplicateNoLoss(SoakReport report, long intents, int kills) {
    assertThat(report.duplicates()).as("duplicates").isZero();
    assertThat(report.lost()).as("lost intents").isZero();
    assertThat(report.neverResolved()).as("never resolved").isZero();
    assertThat(report.failed()).as("definitive failures").isZero();
    assertThat(report.chargeMismatches()).as("charge/effect mismatches").isZero();
    assertThat(report.effectsHistogram()).containsExactly(Map.entry(1L, intents));
    assertThat(report.ok()).isTrue();
    // Otherwise the soak proves nothing: every fault kind and the kills must have happened.
    assertThat(report.kills()).as("kills").isGreaterThanOrEqualTo(kills);
    for (FaultKind kind : FaultKind.values()) {
      assertThat(report.faults().getOrDefault(kind, 0L)).as(kind.name()).isPositive();
    }
    assertThat(report.postsAtProxy()).isGreaterThan(intents);
  }

  private static boolean reachable(String url) {
    try (Connection c = DriverManager.getConnection(url)) {
      return c.isValid(2);
    } catch (SQLException e) {
      return false;
    }
  }
}
