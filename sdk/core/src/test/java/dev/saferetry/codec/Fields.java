package dev.saferetry.codec;

import java.util.LinkedHashMap;
import java.util.Map;

/** Request bodies written inline in tests: {@code Fields.of("amount", 1, "currency", "usd")}. */
public final class Fields {
  private Fields() {}

  /** Returns a map of the name/value pairs, in the order given; values may be null. */
  public static Map<String, Object> of(Object... pairs) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put((String) pairs[i], pairs[i + 1]);
    }
    return m;
  }
}
