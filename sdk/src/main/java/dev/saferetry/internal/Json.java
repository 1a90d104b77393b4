package dev.saferetry.internal;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** JSON chores: the client's mapper, request fingerprints, error bodies, resource ids. */
public final class Json {
  private static final MessageDigest SHA256;

  static {
    try {
      SHA256 = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** Per response class: the accessor of a record component that holds JSON field "id". */
  private static final ClassValue<Method> ID_ACCESSOR =
      new ClassValue<>() {
        @Override
        protected Method computeValue(Class<?> type) {
          if (!type.isRecord()) {
            return null;
          }
          Method found = null;
          for (RecordComponent c : type.getRecordComponents()) {
            JsonProperty p = c.getAnnotation(JsonProperty.class);
            String json = p != null && !p.value().isEmpty() ? p.value() : c.getName();
            if (json.equals("id")) {
              if (found != null || !c.getAccessor().trySetAccessible()) {
                return null;
              }
              found = c.getAccessor();
            }
          }
          return found;
        }
      };

  private Json() {}

  /** Returns a mapper that never fails on unknown fields: a copy, so the caller's is untouched. */
  public static ObjectMapper lenientCopy(ObjectMapper mapper) {
    ObjectMapper base = mapper == null ? new ObjectMapper() : mapper.copy();
    return base.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
  }

  /**
   * Returns hex SHA-256 of method, path and the canonical JSON of the body (object keys sorted, no
   * whitespace), so that key order and formatting do not change a request's identity.
   */
  public static String fingerprint(ObjectMapper mapper, String method, String path, JsonNode body) {
    MessageDigest sha256 = sha256();
    sha256.update((method + ' ' + path + '\n').getBytes(StandardCharsets.UTF_8));
    if (body != null) {
      // Stream the canonical JSON straight into the digest: no intermediate byte array.
      try (JsonGenerator g =
          mapper
              .getFactory()
              .createGenerator(new DigestOutputStream(OutputStream.nullOutputStream(), sha256))) {
        writeCanonical(g, body);
      } catch (IOException e) {
        throw new IllegalStateException("cannot fingerprint request", e);
      }
    }
    return hex(sha256.digest());
  }

  /** A fresh SHA-256: cloning a prototype skips the provider lookup of getInstance. */
  private static MessageDigest sha256() {
    try {
      return (MessageDigest) SHA256.clone();
    } catch (CloneNotSupportedException e) {
      try {
        return MessageDigest.getInstance("SHA-256");
      } catch (NoSuchAlgorithmException impossible) {
        throw new IllegalStateException("SHA-256 is missing", impossible);
      }
    }
  }

  private static void writeCanonical(JsonGenerator g, JsonNode node) throws IOException {
    if (node.isObject()) {
      List<Map.Entry<String, JsonNode>> fields = new ArrayList<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        fields.add(it.next());
      }
      fields.sort(Map.Entry.comparingByKey());
      g.writeStartObject();
      for (Map.Entry<String, JsonNode> f : fields) {
        g.writeFieldName(f.getKey());
        writeCanonical(g, f.getValue());
      }
      g.writeEndObject();
    } else if (node.isArray()) {
      g.writeStartArray();
      for (JsonNode element : node) {
        writeCanonical(g, element);
      }
      g.writeEndArray();
    } else {
      g.writeTree(node);
    }
  }

  private static String hex(byte[] bytes) {
    char[] digits = "0123456789abcdef".toCharArray();
    char[] out = new char[bytes.length * 2];
    for (int i = 0; i < bytes.length; i++) {
      out[2 * i] = digits[(bytes[i] >> 4) & 0xf];
      out[2 * i + 1] = digits[bytes[i] & 0xf];
    }
    return new String(out);
  }

  /** Returns the body with the key added as a top-level field; the body must be an object. */
  public static JsonNode withField(JsonNode body, String field, String value) {
    if (body != null && !body.isObject()) {
      throw new IllegalArgumentException(
          "the idempotency key goes into the body, so the request must be a JSON object");
    }
    ObjectNode copy =
        body == null ? JsonNodeFactory.instance.objectNode() : ((ObjectNode) body).deepCopy();
    copy.put(field, value);
    return copy;
  }

  /** The typed fields of an error body, each possibly null. */
  public record ErrorFields(String type, String code, String message) {}

  /** Parses {@code {"error":{"type","code","message"}}} or the same at the top level. */
  public static ErrorFields parseError(ObjectMapper mapper, String body) {
    if (body == null || body.isBlank()) {
      return new ErrorFields(null, null, null);
    }
    try {
      JsonNode root = mapper.readTree(body);
      JsonNode error = root != null && root.path("error").isObject() ? root.get("error") : root;
      if (error == null || !error.isObject()) {
        return new ErrorFields(null, null, null);
      }
      return new ErrorFields(text(error, "type"), text(error, "code"), text(error, "message"));
    } catch (IOException e) {
      return new ErrorFields(null, null, null); // documented fallback: only errorBody() is set
    }
  }

  private static String text(JsonNode node, String field) {
    JsonNode v = node.get(field);
    return v != null && v.isValueNode() ? v.asText() : null;
  }

  /**
   * Returns the resource id of a parsed response without parsing it again when the response type is
   * a record with an {@code id} component; otherwise the text at {@code /id} of the body.
   */
  public static String resourceId(ObjectMapper mapper, Object value, byte[] body)
      throws IOException {
    Method accessor = value == null ? null : ID_ACCESSOR.get(value.getClass());
    if (accessor != null) {
      try {
        Object id = accessor.invoke(value);
        return id == null ? null : id.toString();
      } catch (ReflectiveOperationException e) {
        // Fall back to the tree.
      }
    }
    return resourceId(mapper.readTree(body));
  }

  /** Returns the text at {@code /id} of a response tree, or null. */
  public static String resourceId(JsonNode response) {
    if (response == null) {
      return null;
    }
    JsonNode id = response.at("/id");
    return id.isValueNode() && !id.isNull() ? id.asText() : null;
  }
}
