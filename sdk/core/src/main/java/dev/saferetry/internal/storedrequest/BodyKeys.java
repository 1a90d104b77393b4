package dev.saferetry.internal.storedrequest;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Proves that stored body bytes carry an intent's key where its placement says, before they are
 * stored and again before they are sent: a JSON object, or form fields, with exactly one top-level
 * field of that name (no second one differing only in case, no {@code name[...]} form field that a
 * server could merge with it) whose value is exactly the key. Anything else — no such field, two,
 * another value, bytes that are not UTF-8, JSON that is not one object, a content type that is
 * neither JSON nor a form — is refused: such bytes would reach the provider without the intent's
 * key, or with two.
 *
 * <p>Stateless and thread-safe.
 */
public final class BodyKeys {
  private static final JsonFactory JSON = new JsonFactory();

  private BodyKeys() {}

  /**
   * Checks that {@code body} carries {@code key} in the top-level field {@code field}.
   *
   * @param contentType the body's media type
   * @throws IllegalArgumentException saying what is wrong, never quoting the body or the key
   */
  public static void check(String field, String key, String contentType, byte[] body) {
    if (body == null || contentType == null) {
      throw new IllegalArgumentException("the key goes in a body field but there is no body");
    }
    String type = mediaType(contentType);
    String text = utf8(body);
    int found =
        switch (type) {
          case "form" -> formField(field, key, text);
          case "json" -> jsonField(field, key, text);
          default ->
              throw new IllegalArgumentException(
                  "the key goes in a body field, which is checked only in JSON and form bodies");
        };
    if (found != 1) {
      throw new IllegalArgumentException(
          "the body must carry the intent's key exactly once, in the field its placement names");
    }
  }

  // json, form or the bare media type; a charset other than UTF-8 is refused.
  private static String mediaType(String contentType) {
    String[] parts = contentType.split(";");
    for (int i = 1; i < parts.length; i++) {
      String p = parts[i].strip().toLowerCase(Locale.ROOT);
      if (p.startsWith("charset=") && !p.replace("\"", "").equals("charset=utf-8")) {
        throw new IllegalArgumentException("a body carrying the key must be UTF-8");
      }
    }
    String type = parts[0].strip().toLowerCase(Locale.ROOT);
    if (type.equals("application/x-www-form-urlencoded")) {
      return "form";
    }
    return type.equals("application/json")
            || (type.startsWith("application/") && type.endsWith("+json"))
        ? "json"
        : type;
  }

  private static String utf8(byte[] body) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(body))
          .toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("a body carrying the key must be UTF-8");
    }
  }

  // Counts the top-level fields named field in any case; -1 if one of them is not exactly that name
  // with the key as its string value.
  private static int jsonField(String field, String key, String text) {
    int found = 0;
    try (JsonParser p = JSON.createParser(text)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IllegalArgumentException("a body carrying the key must be a JSON object");
      }
      for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
        String name = p.currentName();
        JsonToken value = p.nextToken();
        if (name.equalsIgnoreCase(field)) {
          boolean exact =
              name.equals(field) && value == JsonToken.VALUE_STRING && p.getText().equals(key);
          found = exact && found >= 0 ? found + 1 : -1;
        }
        p.skipChildren();
      }
      if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
        throw new IllegalArgumentException("a body carrying the key must be one JSON object");
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("a body carrying the key must be valid JSON");
    }
    return found;
  }

  // As jsonField, for name=value pairs joined by &.
  private static int formField(String field, String key, String text) {
    int found = 0;
    String bracket = field.toLowerCase(Locale.ROOT) + "[";
    for (String pair : text.split("&", -1)) {
      int eq = pair.indexOf('=');
      String name = formDecode(eq < 0 ? pair : pair.substring(0, eq));
      String value = eq < 0 ? null : formDecode(pair.substring(eq + 1));
      if (name.equalsIgnoreCase(field)) {
        found = name.equals(field) && key.equals(value) && found >= 0 ? found + 1 : -1;
      } else if (name.toLowerCase(Locale.ROOT).startsWith(bracket)) {
        found = -1;
      }
    }
    return found;
  }

  private static String formDecode(String text) {
    byte[] out = new byte[text.length()];
    int n = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '+') {
        out[n++] = ' ';
      } else if (c != '%') {
        if (c > 0x7F) {
          throw new IllegalArgumentException("a form body carrying the key must be ASCII");
        }
        out[n++] = (byte) c;
      } else {
        int hi = i + 2 < text.length() ? Character.digit(text.charAt(i + 1), 16) : -1;
        int lo = i + 2 < text.length() ? Character.digit(text.charAt(i + 2), 16) : -1;
        if (hi < 0 || lo < 0) {
          throw new IllegalArgumentException("a form body carrying the key is malformed");
        }
        out[n++] = (byte) (hi * 16 + lo);
        i += 2;
      }
    }
    byte[] bytes = new byte[n];
    System.arraycopy(out, 0, bytes, 0, n);
    return utf8(bytes);
  }
}
