package dev.saferetry.examples.support.stripe;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Parameter checks with Stripe's error codes; each returns a value or throws {@link Bad}. */
final class Params {
  /** A parameter error, answered as 400 {@code invalid_request_error}. */
  static final class Bad extends Exception {
    final transient Reply reply;

    Bad(Reply reply) {
      super(null, null, false, false);
      this.reply = reply;
    }
  }

  private Params() {}

  /** Refuses any parameter not in {@code known}, as Stripe does. */
  static void onlyKnown(Map<String, Object> params, Set<String> known) throws Bad {
    for (String name : params.keySet()) {
      if (!known.contains(name)) {
        throw new Bad(
            Reply.invalid("Received unknown parameter: " + name, name, "parameter_unknown"));
      }
    }
  }

  static String string(Map<String, Object> params, String name, boolean required) throws Bad {
    Object v = params.get(name);
    if (v == null) {
      if (required) {
        throw new Bad(
            Reply.invalid("Missing required param: " + name + ".", name, "parameter_missing"));
      }
      return null;
    }
    if (!(v instanceof String s)) {
      throw new Bad(Reply.invalid("Invalid string: " + name, name, "parameter_invalid_string"));
    }
    return s;
  }

  static Long positiveInteger(Map<String, Object> params, String name, boolean required)
      throws Bad {
    String s = string(params, name, required);
    if (s == null) {
      return null;
    }
    if (!s.matches("[0-9]{1,12}") || Long.parseLong(s) <= 0) {
      throw new Bad(
          Reply.invalid("Invalid positive integer: " + name, name, "parameter_invalid_integer"));
    }
    return Long.parseLong(s);
  }

  static Boolean bool(Map<String, Object> params, String name) throws Bad {
    String s = string(params, name, false);
    if (s == null) {
      return null;
    }
    if (!s.equals("true") && !s.equals("false")) {
      throw new Bad(Reply.invalid("Invalid boolean: " + s, name, "parameter_invalid_boolean"));
    }
    return Boolean.valueOf(s);
  }

  /** Metadata: a map of strings; an empty value unsets (here: leaves out) a key. */
  static Map<String, Object> metadata(Map<String, Object> params) throws Bad {
    Object v = params.get("metadata");
    Map<String, Object> out = new LinkedHashMap<>();
    if (v == null || "".equals(v)) {
      return out;
    }
    if (!(v instanceof Map<?, ?> map)) {
      throw new Bad(Reply.invalid("Invalid object", "metadata", "parameter_invalid_object"));
    }
    for (Map.Entry<?, ?> e : map.entrySet()) {
      if (!(e.getValue() instanceof String s)) {
        throw new Bad(Reply.invalid("Invalid metadata value", "metadata", "invalid_metadata"));
      }
      if (!s.isEmpty()) {
        out.put((String) e.getKey(), s);
      }
    }
    return out;
  }

  /** {@code expand[]}: a list of paths, each one of {@code allowed}. */
  static List<String> expand(Map<String, Object> params, Set<String> allowed) throws Bad {
    Object v = params.get("expand");
    if (v == null || "".equals(v)) {
      return List.of();
    }
    if (!(v instanceof List<?> list) || !list.stream().allMatch(String.class::isInstance)) {
      throw new Bad(Reply.invalid("Invalid array", "expand", "parameter_invalid_array"));
    }
    for (Object path : list) {
      if (!allowed.contains(path)) {
        throw new Bad(
            Reply.invalid("This property cannot be expanded (" + path + ").", "expand", null));
      }
    }
    return list.stream().map(String.class::cast).toList();
  }
}
