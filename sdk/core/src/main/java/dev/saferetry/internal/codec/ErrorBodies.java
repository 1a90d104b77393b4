package dev.saferetry.internal.codec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Looks for a text at a place in a JSON error body, for provider presets. A place is a JSON pointer
 * (RFC 6901) that selects objects, where a segment {@code *} stands for every element of an array;
 * a second pointer, relative to each selected object, names the field to compare. Bodies that are
 * not JSON match nothing.
 */
public final class ErrorBodies {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private ErrorBodies() {}

  /**
   * Returns, for the first object under {@code select} whose {@code field} is the text {@code
   * equals}, the text at {@code result} relative to the same object; empty if none matches or the
   * result is absent.
   */
  public static Optional<String> find(
      String body, String select, String field, String equals, String result) {
    JsonNode root = parse(body);
    if (root == null) {
      return Optional.empty();
    }
    for (JsonNode candidate : select(root, select)) {
      JsonNode value = candidate.at(field);
      if (value.isValueNode() && value.asText().equals(equals)) {
        JsonNode out = candidate.at(result);
        return out.isValueNode() && !out.isNull() ? Optional.of(out.asText()) : Optional.empty();
      }
    }
    return Optional.empty();
  }

  /** Returns the text at {@code pointer} (no wildcards), or empty. */
  public static Optional<String> text(String body, String pointer) {
    JsonNode root = parse(body);
    if (root == null) {
      return Optional.empty();
    }
    JsonNode value = root.at(pointer);
    return value.isValueNode() && !value.isNull() ? Optional.of(value.asText()) : Optional.empty();
  }

  /**
   * Checks that {@code pointer} is empty or starts with {@code /}; {@code *} segments only when
   * {@code wildcards}.
   */
  public static void checkPointer(String pointer, boolean wildcards, String what) {
    if (!pointer.isEmpty() && !pointer.startsWith("/")) {
      throw new IllegalArgumentException(what + " must be a JSON pointer starting with '/'");
    }
    if (!wildcards && (pointer.contains("/*/") || pointer.endsWith("/*"))) {
      throw new IllegalArgumentException(what + " cannot contain '*'");
    }
  }

  private static JsonNode parse(String body) {
    if (body == null || body.isBlank()) {
      return null;
    }
    try {
      return MAPPER.readTree(body);
    } catch (JsonProcessingException e) {
      return null;
    }
  }

  private static List<JsonNode> select(JsonNode root, String pointer) {
    List<JsonNode> current = List.of(root);
    if (pointer.isEmpty()) {
      return current;
    }
    for (String raw : pointer.substring(1).split("/", -1)) {
      List<JsonNode> next = new ArrayList<>();
      for (JsonNode node : current) {
        if (raw.equals("*")) {
          if (node.isArray()) {
            node.forEach(next::add);
          }
        } else {
          JsonNode child = node.at("/" + raw);
          if (!child.isMissingNode()) {
            next.add(child);
          }
        }
      }
      current = next;
    }
    return current;
  }
}
