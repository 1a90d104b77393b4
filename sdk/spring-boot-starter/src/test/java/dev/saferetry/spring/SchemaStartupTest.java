package dev.saferetry.spring;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/** SafeRetry's tables at start-up: created by the chosen tool, or checked and named if missing. */
class SchemaStartupTest {
  @Test
  void aMissingTableFailsStartUpNamingIt() {
    JdbcContexts.onFreshH2()
        .withPropertyValues("saferetry.jdbc.schema-init=none")
        .run(
            context -> {
              assertThat(context).hasFailed();
              assertThat(context.getStartupFailure())
                  .rootCause()
                  .hasMessageContaining("saferetry_intents");
            });
  }

  @Test
  void liquibaseAppliesSafeRetrysChangelogWithItsOwnChangelogTables() {
    JdbcContexts.onFreshH2()
        .withPropertyValues("saferetry.jdbc.schema-init=liquibase")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              JdbcTemplate jdbc = new JdbcTemplate(context.getBean(javax.sql.DataSource.class));
              assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM saferetry_intents", Long.class))
                  .isZero();
              assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM saferetry_inbox", Long.class))
                  .isZero();
              assertThat(
                      jdbc.queryForObject(
                          "SELECT COUNT(*) FROM saferetry_changelog WHERE author = 'saferetry'",
                          Long.class))
                  .isPositive();
            });
  }
}
