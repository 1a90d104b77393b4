package dev.saferetry.jdbc;

import dev.saferetry.internal.jdbc.IntentTable;
import dev.saferetry.internal.jdbc.SchemaVersions;
import dev.saferetry.internal.jdbc.SqlNames;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Optional;

/**
 * Creates or checks the key store's table when a store is built. The table's version is recorded in
 * the {@code saferetry_schema} table beside it; see {@link SchemaVersions}.
 *
 * <p>Stateless and thread-safe.
 */
final class StoreSchema {
  /** The schema version this code writes. */
  static final int VERSION = 1;

  /** The oldest schema version this code can read and write. */
  static final int MIN_READER = 1;

  private StoreSchema() {}

  static void prepare(
      Connection c,
      SchemaVersions versions,
      IntentTable table,
      String schema,
      String name,
      boolean create)
      throws SQLException {
    String qualified = SqlNames.qualify(schema, name);
    String component = name.toLowerCase(Locale.ROOT);
    if (create) {
      try {
        versions.install(c, component, VERSION, MIN_READER, table::script);
      } catch (SQLException e) {
        // Another process may have created the same table at the same moment (H2 in server
        // mode has no lock across processes): what counts is whether the schema is there now.
        if (versions.read(c, component).isEmpty()) {
          throw e;
        }
      }
    }
    Optional<SchemaVersions.Found> found = versions.read(c, component);
    int version = check(qualified, found);
    try {
      table.probe(c);
    } catch (SQLException e) {
      throw refused(
          qualified,
          version,
          String.format(
              "is recorded as schema version %d but lacks its columns (SQL state %s): was it"
                  + " created by hand or altered?",
              version, e.getSQLState()));
    }
  }

  /** Returns the recorded version if this code can use the table; throws otherwise. */
  private static int check(String qualified, Optional<SchemaVersions.Found> found) {
    if (found.isEmpty()) {
      throw refused(
          qualified,
          -1,
          String.format(
              "has no SafeRetry schema recorded (in %s): build the store with createSchema(true),"
                  + " or run the script dev/saferetry/jdbc/schema/keystore-v%d-<database>.sql"
                  + " and record its version",
              SchemaVersions.TABLE, VERSION));
    }
    int version = found.get().version();
    if (version < VERSION) {
      throw refused(
          qualified,
          version,
          String.format(
              "has schema version %d but this SafeRetry needs %d: upgrade it with"
                  + " createSchema(true)",
              version, VERSION));
    }
    if (found.get().minReader() > VERSION) {
      throw refused(
          qualified,
          version,
          String.format(
              "has schema version %d, written by a newer SafeRetry that this one (%d) cannot"
                  + " use: upgrade the SDK",
              version, VERSION));
    }
    return version;
  }

  private static JdbcSchemaException refused(String table, int found, String problem) {
    return new JdbcSchemaException(table, found, VERSION, "table " + table + " " + problem);
  }
}
