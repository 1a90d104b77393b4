package dev.saferetry.jdbc.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A schema migration shipped as a resource under {@value #FOLDER}{@code <database>/}, the same file
 * Flyway or Liquibase applies: SQL statements separated by lines ending in {@code ;}, with {@code
 * --} comment lines. The files use the default names ({@code saferetry_intents}, {@code
 * saferetry_schema}, ...); {@link #load} replaces each such name, and each quoted one ({@code
 * 'saferetry_intents'}), with the checked name a builder was given (see {@link SqlNames}) before
 * anything runs, and refuses a file that uses a name it was not told about.
 *
 * <p>Immutable and thread-safe.
 *
 * @param statements the statements, names replaced, without their terminating semicolons
 */
public record SqlScript(List<String> statements) {
  /** The folder of the migrations in the jar, one subfolder per database. */
  public static final String FOLDER = "db/saferetry-migration/";

  private static final Pattern NAME = Pattern.compile("'saferetry_\\w+'|\\bsaferetry_\\w+\\b");

  /** Copies the statements. */
  public SqlScript {
    statements = List.copyOf(statements);
  }

  /**
   * The resource holding the migration {@code file} for {@code dialect}, e.g. {@code
   * db/saferetry-migration/postgresql/V2__saferetry_inbox.sql}. Messages name it as the file to
   * apply.
   */
  public static String resource(Dialect dialect, String file) {
    return FOLDER + dialect.scriptName() + "/" + file;
  }

  /**
   * The replacements of a component's default names: its main table {@code defaults} becomes {@code
   * name} in {@code schema} (null: the connection's), the tables named by appending a suffix of
   * {@code tables} to it likewise, the indexes named by appending a suffix of {@code indexes} get
   * the dialect's index name, the version table is qualified the same way, and the quoted default
   * (the version row's component) becomes the lower-case name.
   */
  public static Map<String, String> names(
      Dialect dialect,
      String schema,
      String name,
      String defaults,
      List<String> tables,
      List<String> indexes) {
    Map<String, String> out = new HashMap<>();
    out.put("saferetry_schema", SqlNames.qualify(schema, SqlNames.VERSIONS_TABLE));
    out.put("'" + defaults + "'", "'" + name.toLowerCase(Locale.ROOT) + "'");
    out.put(defaults, SqlNames.qualify(schema, name));
    for (String suffix : tables) {
      out.put(defaults + suffix, SqlNames.qualify(schema, name) + suffix);
    }
    for (String suffix : indexes) {
      out.put(defaults + suffix, dialect.indexName(schema, name) + suffix);
    }
    return out;
  }

  /**
   * Loads a {@link #resource} and replaces each default name with its value in {@code names}.
   *
   * @throws IllegalStateException if the resource is missing or names a table or index that {@code
   *     names} lacks
   */
  public static SqlScript load(String resource, Map<String, String> names) {
    String text;
    try (InputStream in = SqlScript.class.getResourceAsStream("/" + resource)) {
      if (in == null) {
        throw new IllegalStateException("schema script " + resource + " is missing from the jar");
      }
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read schema script " + resource, e);
    }
    List<String> out = new ArrayList<>();
    for (String statement : split(text)) {
      Matcher m = NAME.matcher(statement);
      StringBuilder renamed = new StringBuilder();
      while (m.find()) {
        String value = names.get(m.group());
        if (value == null) {
          throw new IllegalStateException(
              "schema script " + resource + " names " + m.group() + ", which this code lacks");
        }
        m.appendReplacement(renamed, Matcher.quoteReplacement(value));
      }
      m.appendTail(renamed);
      out.add(renamed.toString());
    }
    return new SqlScript(out);
  }

  /** The statements of a script, without comment lines and terminating semicolons. */
  static List<String> split(String text) {
    List<String> out = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String line : text.split("\\R", -1)) {
      String trimmed = line.strip();
      if (trimmed.isEmpty() || trimmed.startsWith("--")) {
        continue;
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
