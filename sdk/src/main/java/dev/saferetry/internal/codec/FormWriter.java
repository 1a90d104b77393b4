package dev.saferetry.internal.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.saferetry.codec.FormStyle;
import java.math.BigDecimal;
import java.util.Iterator;
import java.util.Map;

/**
 * Flattens a JSON tree into form pairs with bracketed names. Names are percent-encoded with their
 * structural brackets left literal, as Stripe's libraries write them; a bracket inside a field name
 * is refused, because a server parsing brackets could not tell it from structure.
 */
final class FormWriter {
  /** Deeper nesting than this is a mistake (or a cycle), not a payment parameter. */
  static final int MAX_DEPTH = 32;

  private final FormStyle style;
  private final StringBuilder out = new StringBuilder(128);

  FormWriter(FormStyle style) {
    this.style = style;
  }

  /** Writes every field of {@code root}; then {@link #pair} may add more. */
  FormWriter fields(ObjectNode root) {
    object(root, null, null, 0);
    return this;
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

  private void object(ObjectNode node, String key, String path, int depth) {
    if (depth > MAX_DEPTH) {
      throw new IllegalArgumentException(
          "form body nests deeper than " + MAX_DEPTH + " levels at " + path);
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      String name = field.getKey();
      checkName(name, path);
      String childKey = key == null ? encodeName(name) : key + '[' + encodeName(name) + ']';
      String childPath = path == null ? name : path + '[' + name + ']';
      value(field.getValue(), childKey, childPath, depth);
    }
  }

  private void value(JsonNode v, String key, String path, int depth) {
    if (v == null || v.isNull() || v.isMissingNode()) {
      if (style.nulls() == FormStyle.Nulls.EMPTY) {
        pair(key, "", path);
      }
    } else if (v.isObject()) {
      object((ObjectNode) v, key, path, depth + 1); // an empty object adds nothing
    } else if (v.isArray()) {
      list(v, key, path, depth + 1);
    } else if (v.isTextual()) {
      pair(key, v.textValue(), path);
    } else if (v.isBoolean()) {
      pair(key, v.booleanValue() ? "true" : "false", path);
    } else if (v.isNumber()) {
      pair(key, number(v, path), path);
    } else {
      throw new IllegalArgumentException(
          "value of " + path + " (" + v.getNodeType() + ") cannot be form-encoded");
    }
  }

  private void list(JsonNode array, String key, String path, int depth) {
    if (array.isEmpty()) {
      pair(key, "", path); // the convention for an empty (cleared) list: a=
      return;
    }
    boolean brackets = style.lists() == FormStyle.Lists.BRACKETS && allPlain(array);
    int i = 0;
    for (JsonNode element : array) {
      String elementPath = path + '[' + i + ']';
      if (element.isNull() && style.nulls() == FormStyle.Nulls.OMIT) {
        throw new IllegalArgumentException(
            elementPath + " is null; a list element cannot be omitted without renumbering");
      }
      value(element, brackets ? key + "[]" : key + '[' + i + ']', elementPath, depth);
      i++;
    }
  }

  private static boolean allPlain(JsonNode array) {
    for (JsonNode element : array) {
      if (element.isContainerNode()) {
        return false;
      }
    }
    return true;
  }

  private static String number(JsonNode v, String path) {
    if (v.isIntegralNumber()) {
      return v.isBigInteger() ? v.bigIntegerValue().toString() : Long.toString(v.longValue());
    }
    if (v.isBigDecimal()) {
      return v.decimalValue().toPlainString();
    }
    double d = v.doubleValue();
    if (!Double.isFinite(d)) {
      throw new IllegalArgumentException("value of " + path + " is not a finite number");
    }
    BigDecimal exact =
        v.isFloat() ? new BigDecimal(Float.toString(v.floatValue())) : BigDecimal.valueOf(d);
    return exact.stripTrailingZeros().toPlainString();
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
