package dev.saferetry.soak;

import java.sql.SQLException;

/**
 * The reference server's database for one soak run, isolated from every other run: a private
 * in-memory H2 database, or a fresh schema in the given PostgreSQL database.
 *
 * @param url the JDBC URL the server and the audit use
 * @param backend a human-readable name
 * @param postgresBase the PostgreSQL URL without the schema, or null for H2
 * @param schema the run's PostgreSQL schema, or null
 *     <p>Instances are immutable and thread-safe.
 */
record Database(String url, String backend, String postgresBase, String schema) {

  /** Prepares the database of run {@code runId} (a valid SQL identifier). */
  static Database prepare(String jdbcUrl, String runId) throws SQLException {
    if (jdbcUrl == null || jdbcUrl.isBlank()) {
      return new Database(
          "jdbc:h2:mem:" + runId + ";DB_CLOSE_DELAY=-1", "H2 (in-memory)", null, null);
    }
    if (!jdbcUrl.startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException("--jdbc-url must be a jdbc:postgresql: URL");
    }
    String url = SideEffectAudit.freshPostgresSchema(jdbcUrl, runId);
    return new Database(url, "PostgreSQL (schema " + runId + ")", jdbcUrl, runId);
  }

  /** Drops the run's data. */
  void discard() {
    try {
      if (schema != null) {
        SideEffectAudit.dropPostgresSchema(postgresBase, schema);
      } else {
        SideEffectAudit.shutdownH2(url);
      }
    } catch (SQLException e) {
      // Best effort: a left-over schema is named after the run and harms no other run.
    }
  }
}
