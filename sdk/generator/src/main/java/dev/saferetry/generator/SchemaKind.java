package dev.saferetry.generator;

import io.swagger.v3.oas.models.media.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Reads what a schema is, the same way for OpenAPI 3.0 ({@code nullable}) and 3.1 (type lists). */
final class SchemaKind {
  private SchemaKind() {}

  /** {@return the schema's one non-null type, or null when it states none} */
  static String type(Schema<?> s) {
    if (s.getType() != null) {
      return s.getType();
    }
    Set<String> types = s.getTypes();
    if (types != null) {
      for (String t : types) {
        if (!"null".equals(t)) {
          return t;
        }
      }
    }
    return null;
  }

  /** {@return whether null is a value of the schema} */
  static boolean nullable(Schema<?> s) {
    return Boolean.TRUE.equals(s.getNullable())
        || (s.getTypes() != null && s.getTypes().contains("null"))
        || "null".equals(s.getType());
  }

  /** {@return whether the schema is only {@code null} (3.1 {@code type: 'null'})} */
  static boolean isNullOnly(Schema<?> s) {
    return s.get$ref() == null
        && ("null".equals(s.getType())
            || (s.getTypes() != null && s.getTypes().size() == 1 && s.getTypes().contains("null")));
  }

  /** {@return whether it is Stripe's "clear me" alternative: a string whose only value is ""} */
  static boolean isEmptyStringOnly(Schema<?> s) {
    return "string".equals(type(s))
        && s.getEnum() != null
        && s.getEnum().size() == 1
        && "".equals(String.valueOf(s.getEnum().get(0)));
  }

  /** {@return the alternatives of a oneOf or anyOf, or empty} */
  @SuppressWarnings({"rawtypes", "unchecked"})
  static List<Schema<?>> alternatives(Schema<?> s) {
    List<Schema<?>> all = new ArrayList<>();
    if (s.getOneOf() != null) {
      all.addAll((List) s.getOneOf());
    }
    if (s.getAnyOf() != null) {
      all.addAll((List) s.getAnyOf());
    }
    return all;
  }

  /** {@return the component name of a {@code #/components/schemas/X} reference, or null} */
  static String refName(Schema<?> s) {
    String ref = s.get$ref();
    if (ref == null) {
      return null;
    }
    int slash = ref.lastIndexOf('/');
    return slash < 0 ? ref : ref.substring(slash + 1);
  }

  /** {@return the enum values as text, or null when the schema is no enum} */
  static List<String> enumValues(Schema<?> s) {
    if (s.getEnum() == null || s.getEnum().isEmpty()) {
      return null;
    }
    List<String> values = new ArrayList<>();
    for (Object v : s.getEnum()) {
      if (v != null) {
        values.add(String.valueOf(v));
      }
    }
    return values;
  }
}
