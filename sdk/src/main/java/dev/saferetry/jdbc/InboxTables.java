package dev.saferetry.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Pattern;

/**
 * The inbox's two tables, their versioned DDL (classpath resources beside this class) and the
 * start-up check that they exist in the expected shape. Immutable; thread-safe.
 */
record InboxTables(String receipts, String marks) {
  static final int SCHEMA_VERSION = 1;

  /** An SQL identifier, optionally schema-qualified; never quoted, so never case-surprising. */
  private static final Pattern NAME =
      Pattern.compile("([A-Za-z_][A-Za-z0-9_]{0,47}\\.)?[A-Za-z_][A-Za-z0-9_]{0,47}");

  /** Tables {@code name} and {@code name_marks}. */
  static InboxTables named(String name) {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "table must be an unquoted SQL identifier of at most 48 letters, digits or _"
              + " (optionally schema.table)");
    }
    return new InboxTables(name, name + "_marks");
  }

  /** Returns the DDL for {@code dialect} with the table names filled in. */
  String ddl(InboxDialect dialect) {
    String resource = dialect.ddlResource();
    try (InputStream in = InboxTables.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + resource);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8)
          .replace("{receipts}", receipts)
          .replace("{marks}", marks);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + resource, e);
    }
  }

  /** Creates the tables if absent (idempotent) and commits. */
  void create(Connection c, InboxDialect dialect) throws SQLException {
    try (Statement s = c.createStatement()) {
      for (String statement : ddl(dialect).split(";")) {
        String sql = stripComments(statement);
        if (!sql.isBlank()) {
          s.execute(sql);
        }
      }
    }
    if (!c.getAutoCommit()) {
      c.commit();
    }
  }

  /** Fails with a clear message unless both tables exist with every version-1 column. */
  void check(Connection c, InboxDialect dialect) {
    String[] probes = {
      "SELECT subscriber, message_id, outcome, received_at FROM " + receipts + " WHERE 1 = 0",
      "SELECT subscriber, resource_id, high_water, message_id, updated_at FROM "
          + marks
          + " WHERE 1 = 0"
    };
    for (String probe : probes) {
      try (Statement s = c.createStatement()) {
        s.executeQuery(probe).close();
      } catch (SQLException e) {
        rollbackQuietly(c);
        throw new InboxException(
            "inbox tables "
                + receipts
                + " / "
                + marks
                + " are missing or older than schema version "
                + SCHEMA_VERSION
                + " (SQLState "
                + e.getSQLState()
                + "): run the DDL in dev/saferetry/jdbc/schema/"
                + dialect.ddlResource()
                + " or build the inbox with createSchema(true)",
            e);
      }
    }
  }

  private static void rollbackQuietly(Connection c) {
    try {
      if (!c.getAutoCommit()) {
        c.rollback();
      }
    } catch (SQLException ignored) {
      // The check already failed; its error is the one worth reporting.
    }
  }

  private static String stripComments(String sql) {
    StringBuilder out = new StringBuilder();
    for (String line : sql.split("\n")) {
      if (!line.strip().startsWith("--")) {
        out.append(line).append('\n');
      }
    }
    return out.toString();
  }
}
