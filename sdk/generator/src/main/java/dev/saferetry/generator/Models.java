package dev.saferetry.generator;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Schema;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Maps the document's schemas to Java types, writing a type the first time it is needed: a record
 * per object schema, an open enum per enum, a sealed interface per union. Component schemas become
 * top-level types; inline ones nest in the type that uses them.
 */
final class Models {
  private final OpenAPI api;
  private final String pkg;
  private final KeyRules keys;
  private final Map<String, Schema<?>> components;
  private final Map<String, TypeName> componentTypes = new HashMap<>();
  private final Map<String, TypeSpec> topLevel = new TreeMap<>();
  private final Map<String, TypeSpec.Builder> topRecords = new TreeMap<>();
  private final Set<String> usedTopNames = new HashSet<>();
  private final Set<String> requestOnly;
  private final Map<ClassName, RecordShape> records = new HashMap<>();
  private final Map<String, Set<ClassName>> interfaces = new HashMap<>();
  private final Set<String> warnings = new java.util.TreeSet<>();

  @SuppressWarnings({"rawtypes", "unchecked"})
  Models(OpenAPI api, String pkg, KeyRules keys, Set<String> requestOnly) {
    this.api = api;
    this.pkg = pkg;
    this.keys = keys;
    this.requestOnly = requestOnly;
    Map<String, Schema<?>> c = new TreeMap<>();
    if (api.getComponents() != null && api.getComponents().getSchemas() != null) {
      ((Map) api.getComponents().getSchemas()).forEach((k, v) -> c.put((String) k, (Schema<?>) v));
    }
    this.components = c;
    for (String name : c.keySet()) {
      usedTopNames.add(Names.type(name));
    }
  }

  /** {@return the shape of a generated record, or null if the type is none} */
  RecordShape record(TypeName type) {
    return type instanceof ClassName c ? records.get(c) : null;
  }

  void remember(ClassName name, RecordShape shape) {
    records.put(name, shape);
  }

  /** {@return the schema a reference points to, following chains} */
  Schema<?> resolve(Schema<?> s) {
    int hops = 0;
    while (s != null && s.get$ref() != null && hops++ < 20) {
      s = components.get(SchemaKind.refName(s));
    }
    return s;
  }

  /** Reserves a top-level name derived from {@code base}; never one a component takes. */
  ClassName newTopName(String base) {
    String name = Names.type(base);
    String candidate = name;
    for (int i = 2; usedTopNames.contains(candidate); i++) {
      candidate = name + i;
    }
    usedTopNames.add(candidate);
    return ClassName.get(pkg, candidate);
  }

  void addTopLevel(TypeSpec spec) {
    topLevel.put(spec.name(), spec);
  }

  /**
   * {@return the Java type of {@code s}}
   *
   * @param owner where a new inline type nests; null to make it top-level under {@code hint}
   * @param hint the name an inline type takes (the property, or the operation's request)
   * @param request whether the value is sent (decides tri-state fields and key fields)
   */
  TypeName typeOf(Schema<?> s, Owner owner, String hint, boolean request) {
    if (s == null) {
      return ClassName.get(Object.class);
    }
    if (s.get$ref() != null) {
      return component(SchemaKind.refName(s));
    }
    List<Schema<?>> alternatives = SchemaKind.alternatives(s);
    if (!alternatives.isEmpty()) {
      return union(s, alternatives, owner, hint, request);
    }
    if (s.getAllOf() != null && !s.getAllOf().isEmpty()) {
      if (s.getAllOf().size() == 1 && (s.getProperties() == null || s.getProperties().isEmpty())) {
        return typeOf(s.getAllOf().get(0), owner, hint, request);
      }
      return object(merged(s), owner, hint, request);
    }
    String type = SchemaKind.type(s);
    if (type == null && s.getProperties() != null) {
      type = "object";
    }
    if (type == null) {
      return ClassName.get(Object.class);
    }
    switch (type) {
      case "string":
        return string(s, owner, hint);
      case "integer":
        if ("unix-time".equals(s.getFormat())) {
          return Types.UNIX_TIME;
        }
        return "int32".equals(s.getFormat())
            ? ClassName.get(Integer.class)
            : ClassName.get(Long.class);
      case "number":
        return ClassName.get(BigDecimal.class);
      case "boolean":
        return ClassName.get(Boolean.class);
      case "array":
        return ParameterizedTypeName.get(
            ClassName.get(List.class), typeOf(s.getItems(), owner, hint + "_item", request));
      case "object":
        return object(s, owner, hint, request);
      default:
        return ClassName.get(Object.class);
    }
  }

  private TypeName string(Schema<?> s, Owner owner, String hint) {
    List<String> values = SchemaKind.enumValues(s);
    if (values != null && !(values.size() == 1 && values.get(0).isEmpty())) {
      ClassName name = owner == null ? newTopName(hint) : owner.nestedName(hint);
      TypeSpec spec = OpenEnums.write(name, values, s.getDescription());
      place(owner, spec);
      return name;
    }
    if ("decimal".equals(s.getFormat())) {
      return ClassName.get(BigDecimal.class);
    }
    return ClassName.get(String.class);
  }

  private TypeName object(Schema<?> s, Owner owner, String hint, boolean request) {
    boolean hasProperties = s.getProperties() != null && !s.getProperties().isEmpty();
    Object additional = s.getAdditionalProperties();
    if (!hasProperties) {
      TypeName value =
          additional instanceof Schema<?> a
              ? typeOf(a, owner, hint + "_value", request)
              : ClassName.get(Object.class);
      return ParameterizedTypeName.get(
          ClassName.get(Map.class), ClassName.get(String.class), value);
    }
    ClassName name = owner == null ? newTopName(hint) : owner.nestedName(hint);
    TypeSpec.Builder record = Records.write(this, name, s, request, keys);
    if (owner == null) {
      topRecords.put(name.simpleName(), record);
    } else {
      owner.addRecord(record);
    }
    return name;
  }

  private TypeName union(
      Schema<?> s, List<Schema<?>> alternatives, Owner owner, String hint, boolean request) {
    List<Schema<?>> real = new ArrayList<>();
    boolean clearable = false;
    for (Schema<?> a : alternatives) {
      if (SchemaKind.isNullOnly(a)) {
        continue;
      }
      if (SchemaKind.isEmptyStringOnly(a)) {
        clearable = true;
        continue;
      }
      real.add(a);
    }
    if (real.isEmpty()) {
      return clearable ? ClassName.get(String.class) : ClassName.get(Object.class);
    }
    if (real.size() == 1) {
      return typeOf(real.get(0), owner, hint, request);
    }
    // Stripe's expandable field: the id as a string, or the object it names.
    if (real.size() == 2) {
      Schema<?> str = null;
      Schema<?> obj = null;
      for (Schema<?> a : real) {
        if (a.get$ref() == null && "string".equals(SchemaKind.type(a)) && a.getEnum() == null) {
          str = a;
        } else {
          obj = a;
        }
      }
      if (str != null && obj != null) {
        TypeName target = typeOf(obj, owner, hint, request);
        return ParameterizedTypeName.get(Types.EXPANDABLE, target.box());
      }
    }
    return Unions.write(this, s, real, owner, hint, request);
  }

  /** {@return the type of a component, writing it the first time} */
  TypeName component(String name) {
    TypeName known = componentTypes.get(name);
    if (known != null) {
      return known;
    }
    Schema<?> s = components.get(name);
    if (s == null) {
      // A provider's own document may hold a dangling reference: the value stays raw JSON.
      warnings.add(
          "the document refers to a schema it does not define: " + name + "; read as Object");
      componentTypes.put(name, ClassName.get(Object.class));
      return ClassName.get(Object.class);
    }
    ClassName cls = ClassName.get(pkg, Names.type(name));
    boolean isObject =
        s.get$ref() == null
            && SchemaKind.alternatives(s).isEmpty()
            && (s.getProperties() != null && !s.getProperties().isEmpty()
                || (s.getAllOf() != null && s.getAllOf().size() > 1));
    boolean isEnum = "string".equals(SchemaKind.type(s)) && SchemaKind.enumValues(s) != null;
    // A base schema whose discriminator maps values to schemas that extend it (allOf): a union.
    boolean isBase =
        SchemaKind.alternatives(s).isEmpty()
            && s.getDiscriminator() != null
            && s.getDiscriminator().getMapping() != null
            && !s.getDiscriminator().getMapping().isEmpty();
    boolean isUnion = !SchemaKind.alternatives(s).isEmpty() || isBase;
    if (isBase) {
      isObject = false;
    }
    if (!isObject && !isEnum && !isUnion) {
      TypeName t = typeOf(s, null, name, requestOnly.contains(name));
      componentTypes.put(name, t);
      return t;
    }
    componentTypes.put(name, cls); // before writing: schemas may refer to themselves
    boolean request = requestOnly.contains(name);
    if (isEnum) {
      addTopLevel(OpenEnums.write(cls, SchemaKind.enumValues(s), s.getDescription()));
    } else if (isObject) {
      Schema<?> m = s.getAllOf() != null && s.getAllOf().size() > 1 ? merged(s) : s;
      topRecords.put(cls.simpleName(), Records.write(this, cls, m, request, keys));
    } else {
      TypeName t =
          isBase
              ? Unions.writeBase(this, cls, s, request)
              : Unions.writeComponent(this, cls, s, request);
      if (!t.equals(cls)) {
        componentTypes.put(name, t);
        return t;
      }
    }
    return cls;
  }

  /** {@return what the generator worked around, in a stable order} */
  List<String> warnings() {
    return List.copyOf(warnings);
  }

  /** Records that {@code variant}, a top-level record, implements the union {@code union}. */
  void implement(ClassName variant, ClassName union) {
    interfaces.computeIfAbsent(variant.simpleName(), k -> new java.util.TreeSet<>()).add(union);
  }

  /** {@return the top-level types with the unions each variant implements added} */
  List<TypeSpec> finished() {
    Map<String, TypeSpec> all = new TreeMap<>(topLevel);
    for (Map.Entry<String, TypeSpec.Builder> r : topRecords.entrySet()) {
      Set<ClassName> extra = interfaces.get(r.getKey());
      if (extra != null) {
        r.getValue().addSuperinterfaces(extra);
      }
      all.put(r.getKey(), r.getValue().build());
    }
    return new ArrayList<>(all.values());
  }

  private void place(Owner owner, TypeSpec spec) {
    if (owner == null) {
      addTopLevel(spec);
    } else {
      owner.add(spec);
    }
  }

  /** Merges allOf parts into one object schema: properties and required of every part. */
  @SuppressWarnings({"rawtypes", "unchecked"})
  Schema<?> merged(Schema<?> s) {
    Schema<Object> m = new Schema<>();
    m.setType("object");
    m.setDescription(s.getDescription());
    Map<String, Schema> props = new java.util.LinkedHashMap<>();
    List<String> required = new ArrayList<>();
    List<Schema<?>> parts = new ArrayList<>();
    if (s.getAllOf() != null) {
      parts.addAll((List) s.getAllOf());
    }
    parts.add(s);
    for (Schema<?> part : parts) {
      Schema<?> r = resolve(part);
      if (r == null) {
        continue;
      }
      if (r.getAllOf() != null && r != s) {
        r = merged(r);
      }
      if (r.getProperties() != null) {
        props.putAll((Map) r.getProperties());
      }
      if (r.getRequired() != null) {
        required.addAll(r.getRequired());
      }
      if (r.getAdditionalProperties() != null) {
        m.setAdditionalProperties(r.getAdditionalProperties());
      }
    }
    m.setProperties(props);
    m.setRequired(required);
    return m;
  }
}
