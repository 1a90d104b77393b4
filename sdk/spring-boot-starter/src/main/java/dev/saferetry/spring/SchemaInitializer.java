package dev.saferetry.spring;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import javax.sql.DataSource;
import org.springframework.util.ClassUtils;

/**
 * Brings SafeRetry's tables to the version the code needs before the key store and the inbox check
 * them, as {@code saferetry.jdbc.schema-init} says: SafeRetry's own Flyway migrations or Liquibase
 * changelog, each with history tables of its own (so neither mixes with the application's
 * versions), or the stores' own DDL ({@code create}), or nothing ({@code none}).
 */
final class SchemaInitializer {
  static final String FLYWAY_HISTORY = "saferetry_flyway_history";
  static final String LIQUIBASE_CHANGELOG = "saferetry_changelog";

  private final SafeRetryProperties.Jdbc properties;
  private final DataSource dataSource;

  SchemaInitializer(SafeRetryProperties.Jdbc properties, DataSource dataSource) {
    this.properties = properties;
    this.dataSource = dataSource;
  }

  /** {@return whether the stores create missing tables themselves} */
  boolean storesCreate() {
    return properties.getSchemaInit() == SafeRetryProperties.SchemaInit.CREATE;
  }

  void run() {
    switch (properties.getSchemaInit()) {
      case FLYWAY -> {
        require("org.flywaydb.core.Flyway", "flyway-core");
        FlywayMigrations.migrate(dataSource, vendor(), properties.getSchema());
      }
      case LIQUIBASE -> {
        require("liquibase.Liquibase", "liquibase-core");
        LiquibaseMigrations.migrate(dataSource, properties.getSchema());
      }
      default -> {}
    }
  }

  private static void require(String className, String artifact) {
    if (!ClassUtils.isPresent(className, SchemaInitializer.class.getClassLoader())) {
      throw new IllegalStateException(
          "saferetry.jdbc.schema-init needs " + artifact + " on the class path");
    }
  }

  /** The folder of db/saferetry-migration for the database behind the DataSource. */
  String vendor() {
    try (Connection c = dataSource.getConnection()) {
      String product = c.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
      if (product.contains("postgres")) {
        return "postgresql";
      }
      if (product.contains("mariadb") || product.contains("mysql")) {
        return "mariadb";
      }
      if (product.contains("h2")) {
        return "h2";
      }
      throw new IllegalStateException(
          "SafeRetry's migrations exist for PostgreSQL, MariaDB and H2, not " + product);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot reach the DataSource: " + e.getMessage(), e);
    }
  }
}
