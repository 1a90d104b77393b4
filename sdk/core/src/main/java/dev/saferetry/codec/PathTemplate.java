package dev.saferetry.codec;

import dev.saferetry.internal.codec.Percent;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A path with variables, e.g. {@code /v1/customers/{customer}/refunds}, parsed and checked once.
 * Each variable is a whole segment, and each value becomes exactly one encoded segment: {@code /},
 * {@code ?}, {@code #}, {@code %} and everything else outside letters, digits and {@code - . _ ~}
 * are percent-encoded, and the values {@code .}, {@code ..} and the empty string are refused, so no
 * value can climb out of its place in the path.
 *
 * <pre>{@code
 * PathTemplate t = PathTemplate.of("/v1/charges/{id}");
 * t.expand(Map.of("id", "ch_1")); // /v1/charges/ch_1
 * }</pre>
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class PathTemplate {
  private static final Pattern VARIABLE = Pattern.compile("\\{([A-Za-z_][A-Za-z0-9_]*)\\}");
  private static final Pattern LITERAL =
      Pattern.compile("(?:[A-Za-z0-9\\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})*");

  private final String template;
  private final List<String> segments; // literal text, or a variable name
  private final boolean[] variable;
  private final Set<String> variables;

  private PathTemplate(String template, List<String> segments, boolean[] variable) {
    this.template = template;
    this.segments = segments;
    this.variable = variable;
    Set<String> names = new LinkedHashSet<>();
    for (int i = 0; i < segments.size(); i++) {
      if (variable[i] && !names.add(segments.get(i))) {
        throw new IllegalArgumentException(
            "variable {" + segments.get(i) + "} appears twice in " + template);
      }
    }
    this.variables = Set.copyOf(names);
  }

  /**
   * Parses {@code template}.
   *
   * @param template the template
   * @return the parsed template
   * @throws IllegalArgumentException if it does not start with {@code /}, has a query or fragment,
   *     a {@code .} or {@code ..} segment (also percent-encoded), a variable that is not a whole
   *     segment, a repeated variable, or a character that is not allowed in a path
   */
  public static PathTemplate of(String template) {
    Objects.requireNonNull(template, "template");
    if (!template.startsWith("/")) {
      throw new IllegalArgumentException("path template must start with '/': " + template);
    }
    String[] parts = template.substring(1).split("/", -1);
    List<String> segments = new ArrayList<>(parts.length);
    boolean[] variable = new boolean[parts.length];
    for (int i = 0; i < parts.length; i++) {
      String part = parts[i];
      var m = VARIABLE.matcher(part);
      if (m.matches()) {
        variable[i] = true;
        segments.add(m.group(1));
      } else if (part.indexOf('{') >= 0 || part.indexOf('}') >= 0) {
        throw new IllegalArgumentException(
            "a variable must be a whole segment named [A-Za-z_][A-Za-z0-9_]*: " + template);
      } else if (isDotSegment(part) || !LITERAL.matcher(part).matches()) {
        throw new IllegalArgumentException(
            "not a valid path segment '" + part + "' in " + template);
      } else {
        segments.add(part);
      }
    }
    return new PathTemplate(template, List.copyOf(segments), variable);
  }

  /** {@return the variable names} */
  public Set<String> variables() {
    return variables;
  }

  /**
   * {@return the encoded path with every variable replaced by its value as one segment}
   *
   * @param values the values
   * @throws IllegalArgumentException if a variable has no value, a value names no variable, or a
   *     value is empty, {@code .}, {@code ..} or holds an unpaired surrogate
   */
  public String expand(Map<String, String> values) {
    Objects.requireNonNull(values, "values");
    for (String name : values.keySet()) {
      if (!variables.contains(name)) {
        throw new IllegalArgumentException("no variable {" + name + "} in " + template);
      }
    }
    StringBuilder out = new StringBuilder(template.length() + 16);
    for (int i = 0; i < segments.size(); i++) {
      out.append('/');
      if (!variable[i]) {
        out.append(segments.get(i));
        continue;
      }
      String name = segments.get(i);
      String value = values.get(name);
      if (value == null) {
        throw new IllegalArgumentException("missing path variable {" + name + "} of " + template);
      }
      appendSegment(out, value, name);
    }
    return out.toString();
  }

  /**
   * {@return {@code value} encoded as one path segment}
   *
   * @param value the value
   * @throws IllegalArgumentException if the value is empty, {@code .} or {@code ..}, or holds an
   *     unpaired surrogate
   */
  public static String encodeSegment(String value) {
    StringBuilder out = new StringBuilder(value.length() + 8);
    appendSegment(out, value, "segment");
    return out.toString();
  }

  private static void appendSegment(StringBuilder out, String value, String name) {
    if (value.isEmpty() || value.equals(".") || value.equals("..")) {
      throw new IllegalArgumentException(
          "path variable {" + name + "} must not be empty, '.' or '..'");
    }
    Percent.segment(out, value, "path variable {" + name + "}");
  }

  // Whether a literal segment is . or .., also percent-encoded (%2e): a server or proxy that
  // decodes it before resolving the path would climb out of the template.
  private static boolean isDotSegment(String literal) {
    String decoded = literal.replace("%2e", ".").replace("%2E", ".");
    return decoded.equals(".") || decoded.equals("..");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PathTemplate t && t.template.equals(template);
  }

  @Override
  public int hashCode() {
    return template.hashCode();
  }

  @Override
  public String toString() {
    return template;
  }
}
