package dev.saferetry.generator;

import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.Parameter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Decides where an operation's idempotency key goes, in this order: the configuration's placement
 * for the operation; none for a read (GET, HEAD, OPTIONS); a header parameter the document declares
 * as a key; a body field it declares as a key; the preset's rule; the configuration's rule for a
 * silent POST; none. A parameter or field is a key when its name says so ({@code Idempotency-Key},
 * {@code Cko-Idempotency-Key}, {@code idempotency_key}, {@code idempotentKey}), when its
 * description says so (for a body field, its first sentence), or when the configuration names it.
 */
final class KeyRules {
  private static final Pattern KEY_NAME = Pattern.compile(".*idempoten(cy|t)(key|token|id)?.*");

  // What a header's description says when the header makes a write safe to repeat.
  private static final List<String> KEY_WORDS =
      List.of("idempoten", "safe to retry", "safely retr", "retried safely", "deduplicat");

  private static final Pattern SENTENCE_END = Pattern.compile("\\.(\\s|$)|\\n");

  private final GeneratorConfig config;

  KeyRules(GeneratorConfig config) {
    this.config = config;
  }

  /** Where one operation's key goes, and why (for the generated Javadoc). */
  record Decision(String kind, String name, int maxLength, String why) {
    static Decision none(String why) {
      return new Decision("none", "", 0, why);
    }

    boolean isNone() {
      return kind.equals("none");
    }
  }

  boolean isKeyField(String json, Schema<?> s) {
    return config.keyFieldNames().contains(json)
        || (s != null && marked(s.getExtensions()))
        || ((KEY_NAME.matcher(normal(json)).matches() || describesKey(s))
            && (s == null || s.getType() == null || "string".equals(SchemaKind.type(s))));
  }

  // A field whose description opens by saying it makes the write safe to repeat ("Idempotency
  // reference of this transfer."): only the first sentence counts, so a field that merely mentions
  // idempotency further on (Adyen's RequestedTestErrorResponseCode) stays a field.
  private static boolean describesKey(Schema<?> s) {
    String d = s == null || s.getDescription() == null ? "" : s.getDescription().strip();
    java.util.regex.Matcher end = SENTENCE_END.matcher(d);
    String first = (end.find() ? d.substring(0, end.start()) : d).toLowerCase(Locale.ROOT);
    return KEY_WORDS.stream().anyMatch(first::contains);
  }

  // A vendor extension that says so: x-idempotency-key: true, x-fern-idempotency-key: true.
  private static boolean marked(Map<String, Object> extensions) {
    if (extensions == null) {
      return false;
    }
    for (Map.Entry<String, Object> e : extensions.entrySet()) {
      if (normal(e.getKey()).contains("idempotencykey") && Boolean.TRUE.equals(e.getValue())) {
        return true;
      }
    }
    return false;
  }

  private boolean isKeyHeader(Parameter p) {
    if (!"header".equalsIgnoreCase(p.getIn())) {
      return false;
    }
    String d = p.getDescription() == null ? "" : p.getDescription().toLowerCase(Locale.ROOT);
    return config.keyHeaderNames().stream().anyMatch(p.getName()::equalsIgnoreCase)
        || KEY_NAME.matcher(normal(p.getName())).matches()
        || marked(p.getExtensions())
        || KEY_WORDS.stream().anyMatch(d::contains);
  }

  Decision decide(
      String method, String path, Operation op, java.util.List<Parameter> params, Schema<?> body) {
    String id = op.getOperationId();
    Map<String, KeyOverride> overrides = config.keyPlacements();
    KeyOverride o = id != null ? overrides.get(id) : null;
    if (o == null) {
      o = overrides.get(method + " " + path);
    }
    if (o != null) {
      return new Decision(o.kind(), o.name(), o.maxLength(), "the generator's configuration");
    }
    if (method.equals("GET") || method.equals("HEAD") || method.equals("OPTIONS")) {
      return Decision.none("a read carries no key");
    }
    for (Parameter p : params) {
      if (isKeyHeader(p)) {
        int max =
            p.getSchema() != null && p.getSchema().getMaxLength() != null
                ? p.getSchema().getMaxLength()
                : statedMax(p.getDescription());
        return new Decision(
            "header",
            p.getName(),
            max > 0 ? max : presetMax(),
            "the document declares header " + p.getName());
      }
    }
    if (body != null && body.getProperties() != null) {
      for (Map.Entry<String, Schema> e : body.getProperties().entrySet()) {
        if (isKeyField(e.getKey(), e.getValue())) {
          Integer max = e.getValue().getMaxLength();
          return new Decision(
              "body",
              e.getKey(),
              max == null ? statedMax(e.getValue().getDescription()) : max,
              "the document declares body field " + e.getKey());
        }
      }
    }
    if (method.equals("POST") && !config.preset().equals("none")) {
      return new Decision(
          "header",
          "Idempotency-Key",
          presetMax(),
          "the " + config.preset() + " preset: every POST");
    }
    if (method.equals("POST") && !config.silentWrites().isNone()) {
      KeyOverride s = config.silentWrites();
      return new Decision(
          s.kind(),
          s.name(),
          s.maxLength(),
          "the generator's rule for a POST the document is silent on");
    }
    return Decision.none("the document declares no key and no rule adds one");
  }

  // A limit some documents state only in prose: "a maximum of 64 characters".
  private static final Pattern STATED_MAX =
      Pattern.compile("(?:max(?:imum)?(?: length)?(?: of)?|at most|up to) (\\d{1,4}) char");

  static int statedMax(String description) {
    if (description == null) {
      return 0;
    }
    java.util.regex.Matcher m = STATED_MAX.matcher(description.toLowerCase(Locale.ROOT));
    return m.find() ? Integer.parseInt(m.group(1)) : 0;
  }

  private int presetMax() {
    switch (config.preset()) {
      case "stripe":
        return 255;
      case "adyen":
        return 64;
      default:
        return 0;
    }
  }

  private static String normal(String name) {
    return name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
  }
}
