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
    if (found.isEmpty()) {
      throw new JdbcSchemaException(
          qualified,
          -1,
          VERSION,
          "table "
              + qualified
              + " has no SafeRetry schema recorded (in "
              + SchemaVersions.TABLE
              + "): build the store with createSchema(true), or run the script"
              + " dev/saferetry/jdbc/schema/keystore-v"
              + VERSION
              + "-<database>.sql and record its version");
    }
    int version = found.get().version();
    if (version < VERSION) {
      throw new JdbcSchemaException(
          qualified,
          version,
          VERSION,
          "table "
              + qualified
              + " has schema version "
              + version
              + " but this SafeRetry needs "
              + VERSION
              + ": upgrade it with createSchema(true) or the upgrade scripts");
    }
    if (found.get().minReader() > VERSION) {
      throw new JdbcSchemaException(
          qualified,
          version,
          VERSION,
          "table "
              + qualified
              + " has schema version "
              + version
              + ", written by a newer SafeRetry that this one ("
              + VERSION
              + ") cannot use: upgrade the SDK");
    }
    try {
      table.probe(c);
    } catch (SQLException e) {
      throw new JdbcSchemaException(
          qualified,
          version,
          VERSION,
          "table "
              + qualified
              + " is recorded as schema version "
              + version
              + " but lacks its columns (SQL state "
              + e.getSQLState()
              + "): was it created by hand or altered?");
    }
  }
}
