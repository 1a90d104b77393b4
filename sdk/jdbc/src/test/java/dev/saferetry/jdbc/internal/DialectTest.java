package dev.saferetry.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.sql.DatabaseMetaData;
import java.sql.SQLFeatureNotSupportedException;
import org.junit.jupiter.api.Test;

/**
 * Which servers the JDBC stores accept. MySQL and old versions do not run here, so their metadata
 * is described: the products and version strings are the ones their drivers report.
 */
class DialectTest {

  @Test
  void theSupportedDatabasesAreRecognisedFromTheirDriversMetadata() throws Exception {
    assertThat(Dialect.detect(meta("PostgreSQL", "15.4", 15, 4))).isEqualTo(Dialect.POSTGRESQL);
    assertThat(Dialect.detect(meta("H2", "2.2.224 (2023-09-17)", 2, 2))).isEqualTo(Dialect.H2);
    assertThat(Dialect.detect(meta("MariaDB", "10.11.6-MariaDB", 10, 11)))
        .isEqualTo(Dialect.MARIADB);
    // MySQL Connector/J talking to MariaDB says "MySQL", with MariaDB in the version.
    assertThat(Dialect.detect(meta("MySQL", "5.5.5-10.6.12-MariaDB", 10, 6)))
        .isEqualTo(Dialect.MARIADB);
  }

  @Test
  void plainMySqlIsRefusedBecauseItLacksTheExactCollation() {
    assertThatThrownBy(() -> Dialect.detect(meta("MySQL", "8.0.36", 8, 0)))
        .isInstanceOf(SQLFeatureNotSupportedException.class)
        .hasMessageContaining("unsupported database MySQL")
        .hasMessageContaining("MariaDB");
  }

  @Test
  void versionsOlderThanTheFeaturesNeededAreRefused() {
    assertThatThrownBy(() -> Dialect.detect(meta("PostgreSQL", "11.9", 11, 9)))
        .isInstanceOf(SQLFeatureNotSupportedException.class)
        .hasMessageContaining("PostgreSQL 11.9 is too old; 12.0 or newer");
    assertThatThrownBy(() -> Dialect.detect(meta("MariaDB", "10.5.9-MariaDB", 10, 5)))
        .hasMessageContaining("10.6 or newer");
    assertThatThrownBy(() -> Dialect.detect(meta("H2", "2.1.214", 2, 1)))
        .hasMessageContaining("2.2 or newer");
    assertThatThrownBy(() -> Dialect.detect(meta("Oracle", "19c", 19, 0)))
        .hasMessageContaining("unsupported database Oracle");
  }

  /** Metadata that reports a product and version, as a driver does. */
  private static DatabaseMetaData meta(String product, String version, int major, int minor) {
    return (DatabaseMetaData)
        Proxy.newProxyInstance(
            DatabaseMetaData.class.getClassLoader(),
            new Class<?>[] {DatabaseMetaData.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "getDatabaseProductName" -> product;
                  case "getDatabaseProductVersion" -> version;
                  case "getDatabaseMajorVersion" -> major;
                  case "getDatabaseMinorVersion" -> minor;
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }
}
