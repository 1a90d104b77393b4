package dev.saferetry.testing.provider;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Request and answer values: JSON in and out, deep copies, and the canonical text two equal
 * parameter sets share whatever their order. Thread-safe (the mappers are configured once).
 */
final class Values {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
  private static final ObjectMapper CANONICAL =
      new ObjectMapper().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

  private Values() {}

  /** Reads a JSON object; null when {@code body} is not one. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> readObject(byte[] body) {
    try {
      Object value = JSON.readValue(body, Object.class);
      return value instanceof Map<?, ?> map ? (Map<String, Object>) map : null;
    } catch (IOException e) {
      return null;
    }
  }

  static byte[] write(Object value) {
    try {
      return JSON.writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write an answer", e);
    }
  }

  /** Sorted keys, no blanks: equal parameters give equal text. */
  static String canonical(Object value) {
    try {
      return CANONICAL.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot fingerprint a request", e);
    }
  }

  /** A deep, unmodifiable copy of maps and lists (other values are immutable already). */
  @SuppressWarnings("unchecked")
  static Map<String, Object> freeze(Map<String, Object> map) {
    return (Map<String, Object>) deep(map, true);
  }

  /** A deep, modifiable copy. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> copy(Map<String, Object> map) {
    return (Map<String, Object>) deep(map, false);
  }

  private static Object deep(Object value, boolean frozen) {
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      map.forEach((k, v) -> out.put(String.valueOf(k), deep(v, frozen)));
      return frozen ? Collections.unmodifiableMap(out) : out;
    }
    if (value instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      list.forEach(v -> out.add(deep(v, frozen)));
      return frozen ? Collections.unmodifiableList(out) : out;
    }
    return value;
  }
}
