package dev.saferetry.jdbc.inbox;

import dev.saferetry.jdbc.internal.Dialect;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A lexer of the SQL a handler runs: it recognises text that would end or split the inbox's
 * transaction if a handler ran it: {@code COMMIT}, {@code ROLLBACK}, {@code BEGIN}/{@code START
 * TRANSACTION}/{@code END}/{@code ABORT}, savepoint statements (a handler's savepoints go through
 * {@link java.sql.Connection#setSavepoint}), {@code SET autocommit}, two-phase commit, a switch of
 * the default schema (the inbox's own statements would then miss its tables), and on MariaDB and H2
 * the statements that commit implicitly (DDL, table locks). Every statement of a text is looked at,
 * after skipping comments, quoted text and identifiers, so {@code "SELECT 1; COMMIT"} and a {@code
 * ROLLBACK} after a comment are recognised, and a string or a name that merely contains such a word
 * is not.
 *
 * <p>A screen, not a proof: a stored procedure can commit (MariaDB), and text this lexer reads
 * differently from the server may slip through. What slips through is caught after the handler
 * returns, when the inbox checks that its transaction is still the one that recorded the receipt.
 *
 * <p>Stateless and thread-safe.
 */
final class SqlLexer {
  private static final Set<String> ALWAYS =
      Set.of("COMMIT", "ROLLBACK", "BEGIN", "START", "END", "ABORT", "SAVEPOINT", "RELEASE", "XA");

  /** Statements MariaDB and H2 commit an open transaction before running. */
  private static final Set<String> IMPLICIT_COMMIT =
      Set.of(
          "CREATE",
          "ALTER",
          "DROP",
          "RENAME",
          "TRUNCATE",
          "GRANT",
          "REVOKE",
          "LOCK",
          "UNLOCK",
          "ANALYZE",
          "OPTIMIZE",
          "REPAIR",
          "FLUSH",
          "CACHE",
          "INSTALL",
          "UNINSTALL",
          "COMMENT",
          "CHECKPOINT",
          "SHUTDOWN",
          "BACKUP",
          "RUNSCRIPT");

  private SqlLexer() {}

  /**
   * Returns the statement that {@code sql} must not run inside the inbox's transaction (its first
   * words, for a message), or null when none is recognised.
   */
  static String refused(String sql, Dialect dialect) {
    if (sql == null) {
      return null;
    }
    Lexer lexer = new Lexer(sql, dialect);
    List<String> words;
    while ((words = lexer.nextStatement()) != null) {
      if (!words.isEmpty() && refuses(words, dialect)) {
        return String.join(" ", words.subList(0, Math.min(2, words.size())));
      }
    }
    return null;
  }

  private static boolean refuses(List<String> words, Dialect dialect) {
    String first = words.get(0);
    String second = words.size() > 1 ? words.get(1) : "";
    if (ALWAYS.contains(first)) {
      return true;
    }
    if (first.equals("SET")) {
      return words.contains("AUTOCOMMIT")
          || words.contains("SCHEMA")
          || words.contains("SEARCH_PATH")
          || words.contains("SCHEMA_SEARCH_PATH")
          || words.contains("CATALOG");
    }
    if (first.equals("PREPARE") && second.equals("TRANSACTION")) {
      return true; // PostgreSQL two-phase commit: ends the transaction
    }
    return switch (dialect) {
      case POSTGRESQL -> false; // DDL is transactional
      case MARIADB ->
          first.equals("USE")
              || (IMPLICIT_COMMIT.contains(first)
                  && !((first.equals("CREATE") || first.equals("DROP"))
                      && words.contains("TEMPORARY")));
      case H2 -> IMPLICIT_COMMIT.contains(first) && !words.contains("TRANSACTIONAL");
    };
  }

  /** Splits text into statements and each into its words, outside quotes and comments. */
  private static final class Lexer {
    private final String sql;
    private final Dialect dialect;
    private int at;

    Lexer(String sql, Dialect dialect) {
      this.sql = sql;
      this.dialect = dialect;
    }

    /** The upper-cased words of the next statement, or null at the end of the text. */
    List<String> nextStatement() {
      if (at >= sql.length()) {
        return null;
      }
      List<String> words = new ArrayList<>();
      while (at < sql.length()) {
        char ch = sql.charAt(at);
        if (ch == ';') {
          at++;
          return words;
        }
        if (isWordChar(ch)) {
          int start = at;
          while (at < sql.length() && isWordChar(sql.charAt(at))) {
            at++;
          }
          words.add(sql.substring(start, at).toUpperCase(Locale.ROOT));
        } else {
          skip(ch);
        }
      }
      return words;
    }

    /** Skips one non-word token: a quoted text or identifier, a comment, or one character. */
    private void skip(char ch) {
      char next = at + 1 < sql.length() ? sql.charAt(at + 1) : 0;
      if (ch == '\'') {
        at = quoted(at, '\'', backslashEscapes());
      } else if (ch == '"' || ch == '`') {
        at = quoted(at, ch, false);
      } else if (ch == '-' && next == '-' || ch == '#' && dialect == Dialect.MARIADB) {
        int end = sql.indexOf('\n', at);
        at = end < 0 ? sql.length() : end + 1;
      } else if (ch == '/' && next == '*') {
        at = blockComment(at);
      } else if (ch == '$' && dialect == Dialect.POSTGRESQL) {
        at = dollarQuoted(at);
      } else {
        at++;
      }
    }

    private boolean backslashEscapes() {
      if (dialect == Dialect.MARIADB) {
        return true;
      }
      // PostgreSQL: only E'...' strings; the E is the word just before the quote.
      return dialect == Dialect.POSTGRESQL
          && at > 0
          && (sql.charAt(at - 1) == 'E' || sql.charAt(at - 1) == 'e')
          && (at < 2 || !isWordChar(sql.charAt(at - 2)));
    }

    /** The index after the quoted text opened at {@code start}; a doubled quote is one quote. */
    private int quoted(int start, char quote, boolean backslash) {
      int i = start + 1;
      while (i < sql.length()) {
        char ch = sql.charAt(i);
        if (backslash && ch == '\\') {
          i += 2;
        } else if (ch == quote) {
          if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
            i += 2;
          } else {
            return i + 1;
          }
        } else {
          i++;
        }
      }
      return sql.length();
    }

    /** The index after a block comment; PostgreSQL's nest. */
    private int blockComment(int start) {
      int depth = 0;
      int i = start;
      while (i + 1 < sql.length()) {
        if (sql.charAt(i) == '/' && sql.charAt(i + 1) == '*') {
          depth = dialect == Dialect.POSTGRESQL || depth == 0 ? depth + 1 : depth;
          i += 2;
        } else if (sql.charAt(i) == '*' && sql.charAt(i + 1) == '/') {
          i += 2;
          if (--depth == 0) {
            return i;
          }
        } else {
          i++;
        }
      }
      return sql.length();
    }

    /**
     * The index after a {@code $tag$ ... $tag$} string, or after the {@code $} if it opens none.
     */
    private int dollarQuoted(int start) {
      int i = start + 1;
      while (i < sql.length()
          && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_')) {
        i++;
      }
      boolean opens =
          i < sql.length()
              && sql.charAt(i) == '$'
              && (i == start + 1 || !Character.isDigit(sql.charAt(start + 1)))
              && (start == 0 || !isWordChar(sql.charAt(start - 1)));
      if (!opens) {
        return start + 1; // a parameter such as $1, or a $ inside a name
      }
      String tag = sql.substring(start, i + 1);
      int end = sql.indexOf(tag, i + 1);
      return end < 0 ? sql.length() : end + tag.length();
    }

    private static boolean isWordChar(char ch) {
      return Character.isLetterOrDigit(ch) || ch == '_';
    }
  }
}
