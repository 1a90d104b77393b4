package dev.saferetry;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;

/** JSON chores: the client's mapper, error bodies, resource ids. */
final class Json {
  // Per response class: the accessor of a record component that holds JSON field "id".
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
  static ObjectMapper lenientCopy(ObjectMapper mapper) {
    ObjectMapper base = mapper == null ? new ObjectMapper() : mapper.copy();
    return base.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
  }

  /** The typed fields of an error body, each possibly null. */
  record ErrorFields(String type, String code, String message) {}

  /** Parses {@code {"error":{"type","code","message"}}} or the same at the top level. */
  static ErrorFields parseError(ObjectMapper mapper, String body) {
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
  static String resourceId(ObjectMapper mapper, Object value, byte[] body) throws IOException {
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
  static String resourceId(JsonNode response) {
    if (response == null) {
      return null;
    }
    JsonNode id = response.at("/id");
    return id.isValueNode() && !id.isNull() ? id.asText() : null;
  }
}
