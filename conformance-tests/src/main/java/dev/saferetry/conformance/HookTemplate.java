package dev.saferetry.conformance;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A declared hook: {@code METHOD URL [BODY]} with {@code ${name}} placeholders, e.g. {@code POST
 * /_test/faults {"fault":"fail_after_commit","status":${status}}}. The URL is absolute or relative
 * to the target. Immutable and thread-safe.
 *
 * @param property the property that declared it, e.g. {@code hook.fault.hang}
 * @param method HTTP method
 * @param url URL or path, with placeholders
 * @param body body with placeholders, or "" for none
 */
record HookTemplate(String property, String method, String url, String body) {
  private static final Pattern SPEC =
      Pattern.compile("([A-Za-z]+)\\s+(\\S+)(?:\\s+(.*))?", Pattern.DOTALL);
  private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([a-z][a-z_-]*)}");

  HookTemplate {
    Objects.requireNonNull(property, "property");
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(body, "body");
  }

  /**
   * Parses {@code METHOD URL [BODY]}.
   *
   * @throws IllegalArgumentException naming the property when the value has no method and URL
   */
  static HookTemplate parse(String property, String spec) {
    Matcher m = SPEC.matcher(spec.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          property
              + " must be METHOD URL [BODY], e.g. POST /_test/faults {\"fault\":\"hang\"}; got: "
              + spec);
    }
    String body = m.group(3) == null ? "" : m.group(3).strip();
    return new HookTemplate(property, m.group(1).toUpperCase(Locale.ROOT), m.group(2), body);
  }

  /** The URL with placeholders filled (values URL-encoded by the caller where needed). */
  String url(Map<String, String> values) {
    return fill(url, values);
  }

  /** The body with placeholders filled. */
  String body(Map<String, String> values) {
    return fill(body, values);
  }

  private String fill(String template, Map<String, String> values) {
    Matcher m = PLACEHOLDER.matcher(template);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String value = values.get(m.group(1));
      if (value == null) {
        throw new HookFailure(
            property
                + " uses ${"
                + m.group(1)
                + "}, which this hook does not provide (it has "
                + values.keySet()
                + ")");
      }
      m.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    m.appendTail(out);
    return out.toString();
  }
}
