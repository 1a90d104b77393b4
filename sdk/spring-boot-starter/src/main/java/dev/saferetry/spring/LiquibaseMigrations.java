package dev.saferetry.spring;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import liquibase.Liquibase;
import liquibase.Scope;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;

/** SafeRetry's Liquibase changelog, with changelog tables of their own. */
final class LiquibaseMigrations {
  static final String CHANGELOG = "db/saferetry-migration/changelog.xml";

  private LiquibaseMigrations() {}

  static void migrate(DataSource dataSource, String schema) {
    try (Connection c = dataSource.getConnection()) {
      Database db =
          DatabaseFactory.getInstance().findCorrectDatabaseImplementation(new JdbcConnection(c));
      db.setDatabaseChangeLogTableName(SchemaInitializer.LIQUIBASE_CHANGELOG);
      db.setDatabaseChangeLogLockTableName(SchemaInitializer.LIQUIBASE_CHANGELOG + "_lock");
      if (schema != null && !schema.isBlank()) {
        db.setDefaultSchemaName(schema);
      }
      Scope.child(
          Scope.Attr.resourceAccessor,
          new ClassLoaderResourceAccessor(LiquibaseMigrations.class.getClassLoader()),
          () -> {
            try (Liquibase lb =
                new Liquibase(
                    CHANGELOG,
                    new ClassLoaderResourceAccessor(LiquibaseMigrations.class.getClassLoader()),
                    db)) {
              lb.update();
            }
          });
    } catch (SQLException e) {
      throw new IllegalStateException("cannot reach the DataSource: " + e.getMessage(), e);
    } catch (Exception e) {
      throw new IllegalStateException("SafeRetry's Liquibase changelog failed: " + e, e);
    }
  }
}
