package dev.saferetry.spring;

import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/** SafeRetry's Flyway migrations, with a history table of their own. */
final class FlywayMigrations {
  private FlywayMigrations() {}

  static void migrate(DataSource dataSource, String vendor, String schema) {
    var config =
        Flyway.configure(FlywayMigrations.class.getClassLoader())
            .dataSource(dataSource)
            .locations("classpath:db/saferetry-migration/" + vendor)
            .table(SchemaInitializer.FLYWAY_HISTORY)
            .baselineOnMigrate(true)
            .baselineVersion("0");
    if (schema != null && !schema.isBlank()) {
      config = config.schemas(schema);
    }
    config.load().migrate();
  }
}
