package dev.saferetry.jdbc.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A schema script shipped as a resource: SQL statements separated by lines ending in {@code ;},
 * with {@code --} comment lines and {@code {placeholder}} names that are replaced by checked SQL
 * names (see {@link SqlNames}) before anything runs.
 *
 * <p>Immutable and thread-safe.
 *
 * @param statements the statements, placeholders replaced, without their terminating semicolons
 */
public record SqlScript(List<String> statements) {

  /** Copies the statements. */
  public SqlScript {
    statements = List.copyOf(statements);
  }

  /**
   * The resource holding the script of {@code component} ({@code keystore}, {@code inbox}) that
   * brings its tables to {@code version} on {@code dialect}, e.g. {@code
   * dev/saferetry/jdbc/schema/inbox-v1-postgresql.sql}. Messages name it as the script to run.
   */
  public static String resource(String component, int version, Dialect dialect) {
    return "dev/saferetry/jdbc/schema/"
        + component
        + "-v"
        + version
        + "-"
        + dialect.scriptName()
        + ".sql";
  }

  /**
   * Loads a {@link #resource} and replaces each {@code {key}} with its value.
   *
   * @throws IllegalStateException if the resource is missing or a placeholder is left unreplaced
   */
  public static SqlScript load(String resource, Map<String, String> values) {
    String text;
    try (InputStream in = SqlScript.class.getResourceAsStream("/" + resource)) {
      if (in == null) {
        throw new IllegalStateException("schema script " + resource + " is missing from the jar");
      }
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read schema script " + resource, e);
    }
    for (Map.Entry<String, String> e : values.entrySet()) {
      text = text.replace("{" + e.getKey() + "}", e.getValue());
    }
    return new SqlScript(split(resource, text));
  }

  private static List<String> split(String resource, String text) {
    List<String> out = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String line : text.split("\n", -1)) {
      String trimmed = line.strip();
      if (trimmed.isEmpty() || trimmed.startsWith("--")) {
        continue;
      }
      if (trimmed.contains("{")) {
        throw new IllegalStateException(
            "schema script " + resource + " has an unknown placeholder");
      }
      current.append(current.length() == 0 ? "" : "\n").append(line.stripTrailing());
      if (trimmed.endsWith(";")) {
        out.add(current.substring(0, current.length() - 1));
        current.setLength(0);
      }
    }
    if (current.length() > 0) {
      out.add(current.toString());
    }
    return out;
  }

  /** Runs every statement on {@code connection}, in order, without committing. */
  public void run(Connection connection) throws SQLException {
    try (Statement st = connection.createStatement()) {
      for (String sql : statements) {
        st.execute(sql);
      }
    }
  }
}
