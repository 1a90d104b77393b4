package dev.saferetry.testing.provider;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Stripe's search query language, the part a test needs: clauses {@code field:"value"} (exact,
 * case-insensitive), {@code field~"part"} (contains, at least 3 characters), {@code amount>1000}
 * ({@code >}, {@code <}, {@code >=}, {@code <=} on numbers), {@code metadata["key"]:"value"}, a
 * leading {@code -} to negate; joined by {@code AND} or by {@code OR} (not both, as Stripe
 * requires). Values are quoted with {@code "} or {@code '}; numbers may be bare.
 */
final class StripeQuery {
  private final String text;
  private int at;

  private StripeQuery(String text) {
    this.text = text;
  }

  /**
   * The predicate of {@code query}; throws {@link IllegalArgumentException} saying what is wrong.
   */
  static Predicate<Map<String, Object>> parse(String query, Set<String> fields) {
    StripeQuery q = new StripeQuery(query.strip());
    List<Predicate<Map<String, Object>>> clauses = new ArrayList<>();
    String joiner = null;
    while (true) {
      clauses.add(q.clause(fields));
      q.blanks();
      if (q.at == q.text.length()) {
        break;
      }
      String word = q.word();
      if (!word.equals("AND") && !word.equals("OR")) {
        throw new IllegalArgumentException("expected AND or OR at " + q.at);
      }
      if (joiner != null && !joiner.equals(word)) {
        throw new IllegalArgumentException("AND and OR cannot be combined");
      }
      joiner = word;
      q.blanks();
    }
    boolean any = "OR".equals(joiner);
    return o ->
        any ? clauses.stream().anyMatch(c -> c.test(o)) : clauses.stream().allMatch(c -> c.test(o));
  }

  private Predicate<Map<String, Object>> clause(Set<String> fields) {
    blanks();
    boolean negated = peek('-');
    if (negated) {
      at++;
    }
    String field = word();
    String metaKey = null;
    if (field.equals("metadata") && peek('[')) {
      at++;
      if (!peek('"') && !peek('\'')) {
        throw new IllegalArgumentException("a metadata key is quoted: metadata[\"key\"]");
      }
      metaKey = quoted();
      expect(']');
    } else if (!fields.contains(field)) {
      throw new IllegalArgumentException("unsupported field: " + field);
    }
    String op = operator();
    String value = peek('"') || peek('\'') ? quoted() : word();
    if (op.equals("~") && value.length() < 3) {
      throw new IllegalArgumentException("~ needs at least 3 characters");
    }
    String key = metaKey;
    Predicate<Map<String, Object>> p = o -> test(valueOf(o, field, key), op, value);
    return negated ? p.negate() : p;
  }

  private static Object valueOf(Map<String, Object> o, String field, String metaKey) {
    if (metaKey != null) {
      return o.get("metadata") instanceof Map<?, ?> m ? m.get(metaKey) : null;
    }
    return o.get(field);
  }

  private static boolean test(Object actual, String op, String value) {
    if (actual == null) {
      return false;
    }
    switch (op) {
      case ":":
        if (actual instanceof Number n) {
          return number(value).compareTo(new BigDecimal(n.toString())) == 0;
        }
        return String.valueOf(actual).equalsIgnoreCase(value);
      case "~":
        return String.valueOf(actual)
            .toLowerCase(Locale.ROOT)
            .contains(value.toLowerCase(Locale.ROOT));
      default:
        if (!(actual instanceof Number n)) {
          return false;
        }
        int c = new BigDecimal(n.toString()).compareTo(number(value));
        return switch (op) {
          case ">" -> c > 0;
          case "<" -> c < 0;
          case ">=" -> c >= 0;
          default -> c <= 0;
        };
    }
  }

  private static BigDecimal number(String value) {
    try {
      return new BigDecimal(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a number: " + value);
    }
  }

  private String operator() {
    for (String op : List.of(">=", "<=", ":", "~", ">", "<")) {
      if (text.startsWith(op, at)) {
        at += op.length();
        return op;
      }
    }
    throw new IllegalArgumentException("expected an operator at " + at);
  }

  private String word() {
    int start = at;
    while (at < text.length()
        && (Character.isLetterOrDigit(text.charAt(at)) || "_.-".indexOf(text.charAt(at)) >= 0)) {
      at++;
    }
    if (start == at) {
      throw new IllegalArgumentException("expected a name or value at " + at);
    }
    return text.substring(start, at);
  }

  private String quoted() {
    char quote = text.charAt(at++);
    StringBuilder out = new StringBuilder();
    while (at < text.length() && text.charAt(at) != quote) {
      char c = text.charAt(at++);
      if (c == '\\' && at < text.length()) {
        c = text.charAt(at++);
      }
      out.append(c);
    }
    expect(quote);
    return out.toString();
  }

  private void expect(char c) {
    if (!peek(c)) {
      throw new IllegalArgumentException("expected " + c + " at " + at);
    }
    at++;
  }

  private boolean peek(char c) {
    return at < text.length() && text.charAt(at) == c;
  }

  private void blanks() {
    while (at < text.length() && text.charAt(at) == ' ') {
      at++;
    }
  }
}
