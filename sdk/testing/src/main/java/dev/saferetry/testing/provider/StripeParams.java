package dev.saferetry.testing.provider;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Stripe's parameter checks and error codes; each returns a value or throws {@link Refused}. */
final class StripeParams {
  private StripeParams() {}

  static Refused bad(String message, String param, String code) {
    return new Refused(StripeShape.invalid(message, param, code));
  }

  /** Refuses any parameter not in {@code known}, as Stripe does. */
  static void onlyKnown(Map<String, Object> params, Set<String> known) throws Refused {
    for (String name : params.keySet()) {
      if (!known.contains(name)) {
        throw bad("Received unknown parameter: " + name, name, "parameter_unknown");
      }
    }
  }

  static String string(Map<String, Object> params, String name, boolean required) throws Refused {
    Object v = params.get(name);
    if (v == null) {
      if (required) {
        throw bad("Missing required param: " + name + ".", name, "parameter_missing");
      }
      return null;
    }
    if (!(v instanceof String s)) {
      throw bad("Invalid string: " + name, name, "parameter_invalid_string");
    }
    return s;
  }

  static String oneOf(Map<String, Object> params, String name, Set<String> allowed) throws Refused {
    String s = string(params, name, false);
    if (s != null && !allowed.contains(s)) {
      throw bad(
          "Invalid " + name + ": must be one of " + allowed, name, "parameter_invalid_string");
    }
    return s;
  }

  static Long positive(Map<String, Object> params, String name, boolean required) throws Refused {
    String s = string(params, name, required);
    if (s == null) {
      return null;
    }
    if (!s.matches("[0-9]{1,12}") || Long.parseLong(s) <= 0) {
      throw bad("Invalid positive integer: " + name, name, "parameter_invalid_integer");
    }
    return Long.parseLong(s);
  }

  static String currency(Map<String, Object> params) throws Refused {
    String currency = string(params, "currency", true);
    if (!currency.matches("[A-Za-z]{3}")) {
      throw bad("Invalid currency: " + currency, "currency", "parameter_invalid_string");
    }
    return currency.toLowerCase(java.util.Locale.ROOT);
  }

  static Boolean bool(Map<String, Object> params, String name) throws Refused {
    String s = string(params, name, false);
    if (s == null) {
      return null;
    }
    if (!s.equals("true") && !s.equals("false")) {
      throw bad("Invalid boolean: " + s, name, "parameter_invalid_boolean");
    }
    return Boolean.valueOf(s);
  }

  /** Metadata: a map of strings; an empty value removes the key ({@code current} is updated). */
  static Map<String, Object> metadata(Map<String, Object> params, Map<String, Object> current)
      throws Refused {
    Object v = params.get("metadata");
    Map<String, Object> out = new LinkedHashMap<>(current);
    if (v == null) {
      return out;
    }
    if ("".equals(v)) {
      return new LinkedHashMap<>();
    }
    if (!(v instanceof Map<?, ?> map)) {
      throw bad("Invalid object", "metadata", "parameter_invalid_object");
    }
    for (Map.Entry<?, ?> e : map.entrySet()) {
      if (!(e.getValue() instanceof String s)) {
        throw bad("Invalid metadata value", "metadata", "invalid_metadata");
      }
      if (s.isEmpty()) {
        out.remove(String.valueOf(e.getKey()));
      } else {
        out.put(String.valueOf(e.getKey()), s);
      }
    }
    return out;
  }

  /** {@code expand[]}: the paths asked for; each must be one of {@code allowed}. */
  static List<String> expand(Map<String, Object> params, Set<String> allowed) throws Refused {
    Object v = params.get("expand");
    if (v == null || "".equals(v)) {
      return List.of();
    }
    if (!(v instanceof List<?> list) || !list.stream().allMatch(String.class::isInstance)) {
      throw bad("Invalid array", "expand", "parameter_invalid_array");
    }
    for (Object path : list) {
      if (!allowed.contains(path)) {
        throw bad("This property cannot be expanded (" + path + ").", "expand", null);
      }
    }
    return list.stream().map(String.class::cast).toList();
  }
}
