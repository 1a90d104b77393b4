package dev.saferetry.jdbc.internal;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Creates or checks a component's tables when it is built, with the same rules for the key store
 * and the inbox. Their version is recorded in {@value SchemaVersions#TABLE} beside them, under the
 * component's main table name (see {@link SchemaVersions}). Refused, with a message that names the
 * table, both versions and the script to run: no recorded version, an older one, one written by a
 * newer SafeRetry that this code cannot use, and tables that lack the columns their version
 * promises. Nothing is changed when a schema is refused.
 *
 * <p>Immutable and thread-safe.
 */
public final class SchemaGate {
  /** A component's tables, created and versioned as one unit. */
  public interface Tables {
    /**
     * The migration that brings the tables from {@code version - 1} to {@code version}, loaded from
     * {@link SqlScript#resource} with this component's names.
     */
    SqlScript script(int version);

    /** Fails unless every column this code uses exists. */
    void probe(Connection c) throws SQLException;
  }

  /** Makes the component's typed exception for a schema it cannot use. */
  @FunctionalInterface
  public interface Refusal {
    /**
     * @param found the recorded version, or -1 when none is recorded
     */
    RuntimeException refuse(String table, int found, int required, String message);
  }

  private final IntFunction<String> files;
  private final String defaults;
  private final int version;
  private final int minReader;
  private final Refusal refusal;
  private final BiFunction<String, SQLException, RuntimeException> failure;

  /**
   * @param files the migration file that brings the tables to a version, e.g. {@code
   *     V1__saferetry_keystore.sql} (see {@link SqlScript#resource})
   * @param defaults the main table's name in the migration files
   * @param version the schema version this code writes
   * @param minReader the oldest schema version this code can read and write
   * @param failure turns a message and an SQL failure into the component's exception
   */
  public SchemaGate(
      IntFunction<String> files,
      String defaults,
      int version,
      int minReader,
      Refusal refusal,
      BiFunction<String, SQLException, RuntimeException> failure) {
    this.files = files;
    this.defaults = defaults;
    this.version = version;
    this.minReader = minReader;
    this.refusal = refusal;
    this.failure = failure;
  }

  /**
   * Connects once, recognises the database, and creates (when asked; under a lock, so that
   * instances starting at once create the tables once) or checks the tables of the component whose
   * main table is {@code name} in {@code schema} (null: the connection's).
   *
   * @param tables makes the tables' handle for the database found
   * @return that handle
   */
  public <T extends Tables> T open(
      Jdbc.Source source, String schema, String name, boolean create, Function<Dialect, T> tables) {
    String qualified = SqlNames.qualify(schema, name);
    try (Connection c = source.open()) {
      Dialect dialect = Dialect.detect(c.getMetaData());
      T handle = tables.apply(dialect);
      boolean auto = c.getAutoCommit();
      c.setAutoCommit(true); // a failed read must not abort a transaction the next one needs
      try {
        prepare(c, new SchemaVersions(dialect, schema), dialect, schema, name, create, handle);
      } finally {
        c.setAutoCommit(auto);
      }
      return handle;
    } catch (SQLFeatureNotSupportedException e) {
      throw failure.apply(e.getMessage(), JdbcSecrets.scrub(e));
    } catch (SQLException e) {
      throw failure.apply(
          String.format(
              "cannot prepare the table %s (SQL state %s, error %d)",
              qualified, e.getSQLState(), e.getErrorCode()),
          JdbcSecrets.scrub(e));
    }
  }

  private void prepare(
      Connection c,
      SchemaVersions versions,
      Dialect dialect,
      String schema,
      String name,
      boolean create,
      Tables tables)
      throws SQLException {
    String qualified = SqlNames.qualify(schema, name);
    String component = name.toLowerCase(Locale.ROOT);
    if (!component.equals(name) && dialect == Dialect.MARIADB && caseSensitiveNames(c)) {
      throw refused(
          qualified,
          -1,
          String.format(
              "has upper-case letters, and this MariaDB tells table names apart by case"
                  + " (lower_case_table_names = 0): %s and %s would be two tables, while SafeRetry"
                  + " records its tables' schema versions in %s by lower-case name, so one would"
                  + " be taken for the other; name the table in lower case (%s)",
              name, component, SchemaVersions.TABLE, component));
    }
    if (create) {
      try {
        versions.install(c, component, version, minReader, tables::script);
      } catch (SQLException e) {
        // Another process may have created the same tables at the same moment (H2 in server
        // mode has no lock across processes): what counts is whether the schema is there now.
        if (versions.read(c, component).isEmpty()) {
          throw e;
        }
      }
    }
    int found = check(schema, name, dialect, versions.read(c, component));
    try {
      tables.probe(c);
    } catch (SQLException e) {
      throw refused(
          qualified,
          found,
          String.format(
              "is recorded as schema version %d but lacks its columns (SQL state %s): was it"
                  + " created by hand or altered?",
              found, e.getSQLState()));
    }
  }

  /**
   * Whether the server tells table names apart by case: MariaDB's {@code lower_case_table_names} is
   * 0 (the default on Linux); 1 and 2 compare them in lower case.
   */
  private static boolean caseSensitiveNames(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT @@lower_case_table_names")) {
      return rs.next() && rs.getInt(1) == 0;
    }
  }

  /** Returns the recorded version if this code can use the tables; throws otherwise. */
  private int check(
      String schema, String name, Dialect dialect, Optional<SchemaVersions.Found> found) {
    String qualified = SqlNames.qualify(schema, name);
    String component = name.toLowerCase(Locale.ROOT);
    if (found.isEmpty()) {
      throw refused(
          qualified,
          -1,
          String.format(
              "has no SafeRetry schema recorded in %s: apply the migration %s%s (in the"
                  + " saferetry-jdbc jar) with Flyway or Liquibase, which also records version %d"
                  + " of component '%s', or build with createSchema(true) for development",
              SchemaVersions.TABLE,
              filesAfter(0, dialect),
              renamed(schema, name),
              version,
              component));
    }
    int recorded = found.get().version();
    if (recorded < version) {
      throw refused(
          qualified,
          recorded,
          String.format(
              "has schema version %d but this SafeRetry needs %d: apply the migration %s%s with"
                  + " Flyway or Liquibase, or build with createSchema(true) for development",
              recorded, version, filesAfter(recorded, dialect), renamed(schema, name)));
    }
    if (found.get().minReader() > version) {
      throw refused(
          qualified,
          recorded,
          String.format(
              "has schema version %d, written by a newer SafeRetry that this one (%d) cannot"
                  + " use: upgrade the SDK",
              recorded, version));
    }
    return recorded;
  }

  /** The migrations that take the tables from {@code from} to this code's version, in order. */
  private String filesAfter(int from, Dialect dialect) {
    return IntStream.rangeClosed(Math.max(from, 0) + 1, version)
        .mapToObj(v -> SqlScript.resource(dialect, files.apply(v)))
        .collect(Collectors.joining(", then "));
  }

  /** Where the files, written for the default names in the default schema, must be applied. */
  private String renamed(String schema, String name) {
    if (!name.equalsIgnoreCase(defaults)) {
      return " with every "
          + defaults
          + " in it renamed to "
          + name
          + (schema == null ? "" : ", in schema " + schema);
    }
    return schema == null
        ? ""
        : " in schema " + schema + " (Flyway's defaultSchema, Liquibase's defaultSchemaName)";
  }

  private RuntimeException refused(String table, int found, String problem) {
    return refusal.refuse(table, found, version, "table " + table + " " + problem);
  }
}
