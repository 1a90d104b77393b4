package dev.saferetry.webhook;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads one top-level string member of a JSON object without a JSON library: enough to take an
 * event's {@code id} out of a verified payload. Strict where it matters for a dedup key — the
 * payload must be valid UTF-8 and a JSON object, the member must be a string and appear once (a
 * repeated member is ambiguous: parsers disagree on which one wins) — and tolerant inside values it
 * skips. Nesting is bounded. Stateless; thread-safe.
 */
final class TopLevelJson {
  private static final int MAX_DEPTH = 256;

  private final String text;
  private int pos;

  private TopLevelJson(String text) {
    this.text = text;
  }

  /**
   * Returns the member's string value, or null when absent, repeated, not a string or malformed.
   */
  static String stringMember(byte[] utf8, String name) {
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(utf8))
              .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
    try {
      return new TopLevelJson(text).find(name);
    } catch (IllegalStateException | StringIndexOutOfBoundsException e) {
      return null;
    }
  }

  private String find(String name) {
    String found = null;
    boolean seen = false;
    expect('{');
    if (peek() == '}') {
      pos++;
      return end(null);
    }
    while (true) {
      String key = string();
      expect(':');
      if (key.equals(name)) {
        if (seen || peek() != '"') {
          return null;
        }
        seen = true;
        found = string();
      } else {
        skipValue();
      }
      char c = next();
      if (c == '}') {
        return end(found);
      }
      if (c != ',') {
        throw new IllegalStateException();
      }
    }
  }

  private String end(String found) {
    skipSpace();
    if (pos != text.length()) {
      throw new IllegalStateException();
    }
    return found;
  }

  private void skipValue() {
    char first = peek();
    if (first == '"') {
      string();
    } else if (first == '{' || first == '[') {
      skipContainer();
    } else {
      int start = pos;
      while (pos < text.length() && isScalarChar(text.charAt(pos))) {
        pos++;
      }
      if (pos == start) {
        throw new IllegalStateException();
      }
    }
  }

  /** Skips a nested object or array, minding strings; brackets are counted, not matched. */
  private void skipContainer() {
    int depth = 0;
    while (true) {
      char c = text.charAt(pos);
      if (c == '"') {
        string();
        continue;
      }
      pos++;
      if (c == '{' || c == '[') {
        if (++depth > MAX_DEPTH) {
          throw new IllegalStateException();
        }
      } else if ((c == '}' || c == ']') && --depth == 0) {
        return;
      }
    }
  }

  private static boolean isScalarChar(char c) {
    return (c >= '0' && c <= '9')
        || (c >= 'a' && c <= 'z')
        || c == '-'
        || c == '+'
        || c == '.'
        || c == 'E';
  }

  private String string() {
    expect('"');
    StringBuilder out = new StringBuilder();
    while (true) {
      char c = text.charAt(pos++);
      if (c == '"') {
        return out.toString();
      }
      if (c < 0x20) {
        throw new IllegalStateException();
      }
      if (c != '\\') {
        out.append(c);
        continue;
      }
      char e = text.charAt(pos++);
      switch (e) {
        case '"', '\\', '/' -> out.append(e);
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'u' -> out.append(hex4());
        default -> throw new IllegalStateException();
      }
    }
  }

  private char hex4() {
    int value = 0;
    for (int i = 0; i < 4; i++) {
      int digit = Character.digit(text.charAt(pos++), 16);
      if (digit < 0) {
        throw new IllegalStateException();
      }
      value = value << 4 | digit;
    }
    return (char) value;
  }

  private void expect(char wanted) {
    if (next() != wanted) {
      throw new IllegalStateException();
    }
  }

  private char next() {
    skipSpace();
    return text.charAt(pos++);
  }

  private char peek() {
    skipSpace();
    return text.charAt(pos);
  }

  private void skipSpace() {
    while (pos < text.length() && " \t\r\n".indexOf(text.charAt(pos)) >= 0) {
      pos++;
    }
  }
}
