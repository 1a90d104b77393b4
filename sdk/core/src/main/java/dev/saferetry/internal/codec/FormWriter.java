package dev.saferetry.internal.codec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Flattens a serialized value, read as a stream of tokens, into form pairs with bracketed names.
 * Names are percent-encoded with their structural brackets left literal, as Stripe's libraries
 * write them; a bracket inside a field name is refused, because a server parsing brackets could not
 * tell it from structure.
 *
 * <p>Reading tokens (rather than a tree built from them) writes each pair as it is read; a list is
 * held back only as far as its plain values, until it is known whether every element is plain
 * (then, with bracketed lists, they share the name {@code key[]}).
 */
final class FormWriter {
  /** Deeper nesting than this is a mistake (or a cycle), not a payment parameter. */
  static final int MAX_DEPTH = 32;

  private final boolean indexedLists;
  private final boolean emptyNulls;
  private final StringBuilder out = new StringBuilder(128);
  private final Set<String> topLevelNames = new HashSet<>();

  FormWriter(boolean indexedLists, boolean emptyNulls) {
    this.indexedLists = indexedLists;
    this.emptyNulls = emptyNulls;
  }

  /**
   * Writes every field of the object {@code tokens} holds; then {@link #topLevel} may add more.
   *
   * @throws IllegalArgumentException if the value is not an object, or any part of it cannot be
   *     form-encoded
   */
  FormWriter fields(JsonParser tokens) throws IOException {
    JsonToken first = tokens.nextToken();
    if (first != JsonToken.START_OBJECT) {
      throw new IllegalArgumentException(
          "a form body must be an object with named fields; the body is a "
              + typeName(tokens, first));
    }
    object(tokens, null, null, 0);
    return this;
  }

  /** Whether the object written by {@link #fields} has a top-level field {@code name}. */
  boolean hasTopLevel(String name) {
    return topLevelNames.contains(name);
  }

  /** Appends one top-level pair. */
  FormWriter topLevel(String name, String value) {
    checkName(name, null);
    pair(encodeName(name), value, name);
    return this;
  }

  String text() {
    return out.toString();
  }

  // Writes the fields of the object whose START_OBJECT was just read, up to its END_OBJECT.
  private void object(JsonParser p, String key, String path, int depth) throws IOException {
    checkDepth(depth, path);
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      checkName(name, path);
      if (depth == 0) {
        topLevelNames.add(name);
      }
      String childKey = key == null ? encodeName(name) : key + '[' + encodeName(name) + ']';
      String childPath = path == null ? name : path + '[' + name + ']';
      value(p, p.nextToken(), childKey, childPath, depth);
    }
  }

  private static void checkDepth(int depth, String path) {
    if (depth > MAX_DEPTH) {
      throw new IllegalArgumentException(
          "form body nests deeper than " + MAX_DEPTH + " levels at " + path);
    }
  }

  private void value(JsonParser p, JsonToken t, String key, String path, int depth)
      throws IOException {
    if (t == JsonToken.START_OBJECT) {
      object(p, key, path, depth + 1); // an empty object adds nothing
    } else if (t == JsonToken.START_ARRAY) {
      list(p, key, path, depth + 1);
    } else if (t == JsonToken.VALUE_NULL) {
      if (emptyNulls) {
        pair(key, "", path);
      }
    } else {
      pair(key, scalar(p, t, path), path);
    }
  }

  // A plain value as text: a string, boolean or number.
  private static String scalar(JsonParser p, JsonToken t, String path) throws IOException {
    switch (t) {
      case VALUE_STRING:
        return p.getText();
      case VALUE_TRUE:
        return "true";
      case VALUE_FALSE:
        return "false";
      case VALUE_NUMBER_INT:
      case VALUE_NUMBER_FLOAT:
        return number(p);
      default:
        throw new IllegalArgumentException(
            "value of " + path + " (" + typeName(p, t) + ") cannot be form-encoded");
    }
  }

  // Writes the list whose START_ARRAY was just read. Plain elements wait until the list ends or an
  // element is an object or a list: only a list of plain values may use key[].
  private void list(JsonParser p, String key, String path, int depth) throws IOException {
    checkDepth(depth, path);
    List<String> plain = new ArrayList<>(); // null: a null element written as empty
    boolean indexed = indexedLists;
    boolean flushed = false;
    int i = 0;
    for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
      String elementPath = path + '[' + i + ']';
      String elementKey = key + '[' + i + ']';
      if (t == JsonToken.VALUE_NULL && !emptyNulls) {
        throw new IllegalArgumentException(
            elementPath + " is null; a list element cannot be omitted without renumbering");
      }
      boolean container = t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY;
      if (container && !flushed) {
        writeHeld(plain, key, path, true); // a list with a container is numbered throughout
        flushed = true;
      }
      if (flushed) {
        value(p, t, elementKey, elementPath, depth);
      } else {
        plain.add(t == JsonToken.VALUE_NULL ? null : scalar(p, t, elementPath));
      }
      i++;
    }
    if (i == 0) {
      pair(key, "", path); // the convention for an empty (cleared) list: a=
    } else if (!flushed) {
      writeHeld(plain, key, path, indexed);
    }
  }

  private void writeHeld(List<String> plain, String key, String path, boolean indexed) {
    for (int j = 0; j < plain.size(); j++) {
      String v = plain.get(j);
      pair(indexed ? key + '[' + j + ']' : key + "[]", v == null ? "" : v, path + '[' + j + ']');
    }
  }

  private static String number(JsonParser p) throws IOException {
    switch (p.getNumberType()) {
      case INT:
      case LONG:
        return Long.toString(p.getLongValue());
      case BIG_INTEGER:
        return p.getBigIntegerValue().toString();
      case BIG_DECIMAL:
        return p.getDecimalValue().toPlainString();
      case FLOAT:
        return Numbers.plain(p.getFloatValue()); // finite and bounded: checked when written
      default:
        return Numbers.plain(p.getDoubleValue());
    }
  }

  // The kind of value a token starts, named as Jackson's tree nodes name it.
  private static String typeName(JsonParser p, JsonToken t) throws IOException {
    switch (t) {
      case START_ARRAY:
        return "ARRAY";
      case VALUE_STRING:
        return "STRING";
      case VALUE_NUMBER_INT:
      case VALUE_NUMBER_FLOAT:
        return "NUMBER";
      case VALUE_TRUE:
      case VALUE_FALSE:
        return "BOOLEAN";
      case VALUE_NULL:
        return "NULL";
      case VALUE_EMBEDDED_OBJECT:
        return p.getEmbeddedObject() instanceof byte[] ? "BINARY" : "POJO";
      default:
        return String.valueOf(t);
    }
  }

  private static void checkName(String name, String parentPath) {
    if (name.isEmpty()) {
      throw new IllegalArgumentException("a field name in " + where(parentPath) + " is empty");
    }
    if (name.indexOf('[') >= 0 || name.indexOf(']') >= 0) {
      throw new IllegalArgumentException(
          "a field name in "
              + where(parentPath)
              + " contains '[' or ']', which form encoding uses for nesting");
    }
    for (int i = 0; i < name.length(); i++) {
      if (Character.isSurrogate(name.charAt(i))) {
        // Only then is the message needed; building it for every field costs on every call.
        Percent.requireWellFormed(name, "a field name in " + where(parentPath));
        break;
      }
    }
  }

  private static String where(String parentPath) {
    return parentPath == null ? "the body" : parentPath;
  }

  private static String encodeName(String name) {
    StringBuilder b = new StringBuilder(name.length() + 8);
    Percent.component(b, name, Percent.Space.PLUS, false, "a field name");
    return b.toString();
  }

  private void pair(String encodedKey, String value, String path) {
    if (out.length() > 0) {
      out.append('&');
    }
    out.append(encodedKey).append('=');
    int start = out.length();
    try {
      Percent.component(out, value, Percent.Space.PLUS, false, "a value");
    } catch (IllegalArgumentException e) {
      out.setLength(start);
      // The message is built only on failure: naming the field, never the value.
      Percent.component(new StringBuilder(), value, Percent.Space.PLUS, false, "value of " + path);
      throw e;
    }
  }
}
