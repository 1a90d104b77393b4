package dev.saferetry.testing.provider;

import java.util.List;
import java.util.Map;

/**
 * An operation pattern, {@code "POST /v1/charges/{id}/capture"} or {@code "/v1/charges"} (any
 * method): the method, and the path's segments, each literal or a wildcard ({@code *} or {@code
 * {name}}) matching one non-empty segment. Immutable and thread-safe.
 */
record OperationPattern(String method, List<String> segments, String text) {

  /** Parses {@code text}; throws {@link IllegalArgumentException} saying what is wrong. */
  static OperationPattern parse(String text) {
    String method = null;
    String path = text;
    int space = text.indexOf(' ');
    if (space >= 0) {
      method = text.substring(0, space);
      path = text.substring(space + 1);
      if (!method.matches("[A-Z]{1,16}")) {
        throw new IllegalArgumentException(
            "operation must be \"METHOD /path\" or \"/path\", with an upper-case method: " + text);
      }
    }
    if (!path.startsWith("/") || path.contains(" ") || path.contains("?") || path.contains("//")) {
      throw new IllegalArgumentException(
          "operation must be \"METHOD /path\" or \"/path\", the path without spaces, query or"
              + " empty segment: "
              + text);
    }
    List<String> segments = segments(path);
    for (String s : segments) {
      if ((s.contains("{") || s.contains("}")) && !s.matches("\\{[A-Za-z_][A-Za-z0-9_]*}")) {
        throw new IllegalArgumentException("a path variable is a whole segment {name}: " + text);
      }
    }
    return new OperationPattern(method, segments, text);
  }

  static List<String> segments(String path) {
    String trimmed =
        path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    return trimmed.equals("/") ? List.of() : List.of(trimmed.substring(1).split("/", -1));
  }

  /** Whether a request with {@code method} and {@code path} matches. */
  boolean matches(String method, String path) {
    return variables(method, path) != null;
  }

  /** The path variables of a matching request ({@code {name}} segments), or null if none match. */
  Map<String, String> variables(String method, String path) {
    if (this.method != null && !this.method.equals(method)) {
      return null;
    }
    List<String> actual = segments(path);
    if (actual.size() != segments.size()) {
      return null;
    }
    Map<String, String> vars = new java.util.LinkedHashMap<>();
    for (int i = 0; i < actual.size(); i++) {
      String want = segments.get(i);
      String got = actual.get(i);
      if (want.equals("*") || want.startsWith("{")) {
        if (got.isEmpty()) {
          return null;
        }
        if (want.startsWith("{")) {
          vars.put(want.substring(1, want.length() - 1), got);
        }
      } else if (!want.equals(got)) {
        return null;
      }
    }
    return vars;
  }
}
