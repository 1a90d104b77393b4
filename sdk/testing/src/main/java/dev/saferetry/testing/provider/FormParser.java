package dev.saferetry.testing.provider;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads {@code application/x-www-form-urlencoded} text (a body or a query string) into nested maps
 * and lists the way Stripe's API reads it, which is Rack's nested-parameter convention: {@code
 * a[b]=1} is a map, {@code a[]=1&a[]=2} a list, {@code a[][b]=1&a[][c]=2} a list of maps (a new
 * element starts when a key repeats), and a map whose keys are exactly {@code 0..n-1} is a list
 * ({@code a[0]=x&a[1]=y}). A plain name given twice keeps the last value. {@code +} is a space;
 * malformed escapes, invalid UTF-8 and conflicting shapes ({@code a=1&a[b]=2}) are errors.
 */
final class FormParser {
  static final int MAX_DEPTH = 32;
  static final int MAX_PAIRS = 1_000;

  /** Thrown for text that is not a valid nested form. */
  static final class FormException extends Exception {
    FormException(String message) {
      super(message);
    }
  }

  private FormParser() {}

  /**
   * Parses {@code text}, the raw bytes of a body or query read as ISO-8859-1 (one char per byte),
   * so that escapes and raw bytes alike are decoded as UTF-8 once, strictly. Null or empty gives an
   * empty map.
   */
  static Map<String, Object> parse(String text) throws FormException {
    Map<String, Object> params = new LinkedHashMap<>();
    if (text == null || text.isEmpty()) {
      return params;
    }
    String[] pairs = text.split("&", -1);
    if (pairs.length > MAX_PAIRS) {
      throw new FormException("too many parameters");
    }
    for (String pair : pairs) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String name = decode(eq < 0 ? pair : pair.substring(0, eq));
      String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
      if (name.isEmpty() || name.startsWith("[")) {
        throw new FormException("invalid parameter name");
      }
      put(params, name, value, 0);
    }
    return arrays(params);
  }

  private static void put(Map<String, Object> target, String name, Object value, int depth)
      throws FormException {
    if (depth > MAX_DEPTH) {
      throw new FormException("parameters nest too deeply");
    }
    int open = name.indexOf('[');
    String key = open < 0 ? name : name.substring(0, open);
    String after = open < 0 ? "" : name.substring(open);
    if (after.isEmpty()) {
      if (target.get(key) instanceof Map || target.get(key) instanceof List) {
        throw new FormException("conflicting shapes for parameter " + key);
      }
      target.put(key, value);
    } else if (after.equals("[]")) {
      list(target, key).add(value);
    } else if (after.startsWith("[][")) {
      List<Object> list = list(target, key);
      String child = childName(after.substring(2));
      Object last = list.isEmpty() ? null : list.get(list.size() - 1);
      if (last instanceof Map<?, ?> map && !map.containsKey(childKey(child))) {
        put(cast(map), child, value, depth + 1);
      } else {
        Map<String, Object> element = new LinkedHashMap<>();
        put(element, child, value, depth + 1);
        list.add(element);
      }
    } else if (after.startsWith("[")) {
      Object existing = target.computeIfAbsent(key, k -> new LinkedHashMap<String, Object>());
      if (!(existing instanceof Map<?, ?> map)) {
        throw new FormException("conflicting shapes for parameter " + key);
      }
      put(cast(map), childName(after), value, depth + 1);
    } else {
      throw new FormException("invalid parameter name");
    }
  }

  /** {@code [b][c]} becomes {@code b[c]}: the next level's name. */
  private static String childName(String bracketed) throws FormException {
    int close = bracketed.indexOf(']');
    if (close < 1) {
      throw new FormException("invalid parameter name");
    }
    return bracketed.substring(1, close) + bracketed.substring(close + 1);
  }

  private static String childKey(String name) {
    int open = name.indexOf('[');
    return open < 0 ? name : name.substring(0, open);
  }

  @SuppressWarnings("unchecked")
  private static List<Object> list(Map<String, Object> target, String key) throws FormException {
    Object existing = target.computeIfAbsent(key, k -> new ArrayList<>());
    if (!(existing instanceof List<?>)) {
      throw new FormException("conflicting shapes for parameter " + key);
    }
    return (List<Object>) existing;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> cast(Map<?, ?> map) {
    return (Map<String, Object>) map;
  }

  /** Turns maps keyed exactly 0..n-1 into lists, everywhere. */
  private static Map<String, Object> arrays(Map<String, Object> map) throws FormException {
    for (Map.Entry<String, Object> e : map.entrySet()) {
      e.setValue(arrays(e.getValue()));
    }
    return map;
  }

  private static Object arrays(Object value) throws FormException {
    if (value instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      for (Object element : list) {
        out.add(arrays(element));
      }
      return out;
    }
    if (!(value instanceof Map<?, ?> map)) {
      return value;
    }
    Map<String, Object> m = arrays(cast(map));
    if (m.isEmpty() || !m.keySet().stream().allMatch(k -> k.matches("0|[1-9][0-9]{0,5}"))) {
      return m;
    }
    Object[] elements = new Object[m.size()];
    for (Map.Entry<String, Object> e : m.entrySet()) {
      int index = Integer.parseInt(e.getKey());
      if (index >= elements.length) {
        throw new FormException("invalid array: indexes must run from 0 without gaps");
      }
      elements[index] = e.getValue();
    }
    return new ArrayList<>(List.of(elements));
  }

  /**
   * Percent-decodes one name or value strictly: {@code +} is a space, escapes must be complete and
   * the bytes valid UTF-8.
   */
  static String decode(String text) throws FormException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '+') {
        bytes.write(' ');
      } else if (c == '%') {
        if (i + 2 >= text.length()) {
          throw new FormException("incomplete percent escape");
        }
        int hi = Character.digit(text.charAt(i + 1), 16);
        int lo = Character.digit(text.charAt(i + 2), 16);
        if (hi < 0 || lo < 0) {
          throw new FormException("invalid percent escape");
        }
        bytes.write(hi * 16 + lo);
        i += 2;
      } else if (c > 0xFF) {
        throw new FormException("parameters must be given as bytes (ISO-8859-1 text)");
      } else {
        bytes.write(c);
      }
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes.toByteArray()))
          .toString();
    } catch (CharacterCodingException e) {
      throw new FormException("parameters are not valid UTF-8");
    }
  }
}
