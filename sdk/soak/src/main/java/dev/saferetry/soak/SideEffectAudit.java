package dev.saferetry.soak;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Reads the reference server's database directly: side effects per intent (the charge's description
 * is the intent id), and a fresh PostgreSQL schema per run so that runs never share tables.
 * Stateless; thread-safe.
 */
final class SideEffectAudit {
  private SideEffectAudit() {}

  /** Returns side effects per description starting with {@code prefix}. */
  static Map<String, Long> effectsByIntent(String jdbcUrl, String prefix) throws SQLException {
    return countBy(
        jdbcUrl,
        "select description, count(*) from side_effects"
            + " where description like ? group by description",
        prefix);
  }

  /** Returns charges per description starting with {@code prefix} (a cross-check). */
  static Map<String, Long> chargesByIntent(String jdbcUrl, String prefix) throws SQLException {
    return countBy(
        jdbcUrl,
        "select description, count(*) from charges"
            + " where description like ? group by description",
        prefix);
  }

  private static Map<String, Long> countBy(String url, String sql, String prefix)
      throws SQLException {
    Map<String, Long> counts = new HashMap<>();
    try (Connection c = DriverManager.getConnection(url);
        PreparedStatement select = c.prepareStatement(sql)) {
      select.setString(1, prefix + "-%");
      try (ResultSet rs = select.executeQuery()) {
        while (rs.next()) {
          counts.put(rs.getString(1), rs.getLong(2));
        }
      }
    }
    return counts;
  }

  /** Creates a new schema in a PostgreSQL database; returns a URL that uses it. */
  static String freshPostgresSchema(String baseUrl, String name) throws SQLException {
    try (Connection c = DriverManager.getConnection(baseUrl);
        Statement s = c.createStatement()) {
      s.execute("create schema " + name);
    }
    return baseUrl + (baseUrl.contains("?") ? "&" : "?") + "currentSchema=" + name;
  }

  /** Drops a schema made by {@link #freshPostgresSchema}. */
  static void dropPostgresSchema(String baseUrl, String name) throws SQLException {
    try (Connection c = DriverManager.getConnection(baseUrl);
        Statement s = c.createStatement()) {
      s.execute("drop schema if exists " + name + " cascade");
    }
  }

  /** Discards a private in-memory H2 database. */
  static void shutdownH2(String url) {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      s.execute("shutdown");
    } catch (SQLException ignored) {
      // Already gone.
    }
  }

  /** Returns a new schema or database name: letters, digits and underscores only. */
  static String uniqueName(String prefix) {
    return prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
  }
}
