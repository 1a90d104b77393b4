package dev.saferetry.generator;

import com.palantir.javapoet.AnnotationSpec;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import io.swagger.v3.oas.models.media.Discriminator;
import io.swagger.v3.oas.models.media.Schema;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.Modifier;

/**
 * Writes a {@code oneOf} or {@code anyOf} of objects as a sealed interface that its variants
 * implement, read by Jackson from the value that tells them apart: the document's discriminator,
 * else an {@code object} or {@code type} property whose schema has one value per variant, else the
 * variants' field names. A value no variant matches becomes {@code Unknown}, which keeps every
 * field: never an exception, never data lost. Unions of plain values stay {@code Object}.
 */
final class Unions {
  private static final List<String> TELLERS = List.of("object", "type");

  private Unions() {}

  static TypeName writeComponent(Models models, ClassName name, Schema<?> s, boolean request) {
    List<Schema<?>> real = new ArrayList<>();
    for (Schema<?> a : SchemaKind.alternatives(s)) {
      if (!SchemaKind.isNullOnly(a) && !SchemaKind.isEmptyStringOnly(a)) {
        real.add(a);
      }
    }
    if (real.size() == 1) {
      return models.typeOf(real.get(0), null, name.simpleName(), request);
    }
    TypeSpec spec = build(models, name, s, real, request);
    if (spec == null) {
      return ClassName.get(Object.class);
    }
    models.addTopLevel(spec);
    return name;
  }

  /** A base schema with a discriminator mapping: its mapped schemas are the variants. */
  static TypeName writeBase(Models models, ClassName name, Schema<?> base, boolean request) {
    List<Schema<?>> real = new ArrayList<>();
    for (String ref :
        new java.util.LinkedHashSet<>(base.getDiscriminator().getMapping().values())) {
      Schema<Object> r = new Schema<>();
      r.set$ref(ref);
      real.add(r);
    }
    TypeSpec spec = build(models, name, base, real, request);
    if (spec == null) {
      return ClassName.get(Object.class);
    }
    models.addTopLevel(spec);
    return name;
  }

  static TypeName write(
      Models models, Schema<?> s, List<Schema<?>> real, Owner owner, String hint, boolean request) {
    ClassName name = owner == null ? models.newTopName(hint) : owner.nestedName(hint);
    TypeSpec spec = build(models, name, s, real, request);
    if (spec == null) {
      return ClassName.get(Object.class);
    }
    if (owner == null) {
      models.addTopLevel(spec);
    } else {
      owner.add(spec);
    }
    return name;
  }

  /** {@return the union's interface, or null when a variant is not an object} */
  private static TypeSpec build(
      Models models, ClassName name, Schema<?> s, List<Schema<?>> real, boolean request) {
    // Every variant must be an object schema, named (a component) or inline.
    List<ClassName> variants = new ArrayList<>();
    Owner inner = new Owner(name);
    List<Schema<?>> resolved = new ArrayList<>();
    for (Schema<?> a : real) {
      Schema<?> r = models.resolve(a);
      if (r == null || !isObject(r)) {
        return null;
      }
      resolved.add(r);
    }
    for (int i = 0; i < real.size(); i++) {
      Schema<?> a = real.get(i);
      TypeName t =
          a.get$ref() != null
              ? models.component(SchemaKind.refName(a))
              : models.typeOf(a, inner, variantHint(a, resolved.get(i), i), request);
      if (!(t instanceof ClassName c) || models.record(c) == null) {
        return null;
      }
      variants.add(c);
    }
    String property = null;
    Map<String, ClassName> byValue = new LinkedHashMap<>();
    Discriminator d = s.getDiscriminator();
    if (d != null && d.getPropertyName() != null) {
      property = d.getPropertyName();
      if (d.getMapping() != null) {
        for (Map.Entry<String, String> m : d.getMapping().entrySet()) {
          String ref = m.getValue();
          String comp = ref.substring(ref.lastIndexOf('/') + 1);
          byValue.put(m.getKey(), (ClassName) models.component(comp));
        }
      }
      for (int i = 0; i < real.size(); i++) {
        if (!byValue.containsValue(variants.get(i))) {
          List<String> values = valuesOf(models, resolved.get(i), property);
          String v =
              values != null && values.size() == 1
                  ? values.get(0)
                  : real.get(i).get$ref() != null ? SchemaKind.refName(real.get(i)) : null;
          if (v != null) {
            byValue.put(v, variants.get(i));
          }
        }
      }
    } else {
      for (String teller : TELLERS) {
        Map<String, ClassName> found = new LinkedHashMap<>();
        for (int i = 0; i < real.size(); i++) {
          List<String> values = valuesOf(models, resolved.get(i), teller);
          if (values == null || values.isEmpty()) {
            found = null;
            break;
          }
          for (String v : values) {
            if (found.putIfAbsent(v, variants.get(i)) != null) {
              found = null;
              break;
            }
          }
          if (found == null) {
            break;
          }
        }
        if (found != null) {
          property = teller;
          byValue = found;
          break;
        }
      }
    }
    if (property == null && !deducible(models, variants)) {
      return null; // no value and no field set tells the variants apart: raw JSON, never a guess
    }
    ClassName unknown = name.nestedClass("Unknown");
    TypeSpec.Builder t =
        TypeSpec.interfaceBuilder(name)
            .addModifiers(Modifier.PUBLIC, Modifier.SEALED)
            .addJavadoc(Docs.of(s.getDescription(), "One of several object types."))
            .addJavadoc(
                property != null
                    ? "\n<p>Told apart by {@code "
                        + property
                        + "}; another value reads as {@link Unknown}.\n"
                    : "\n<p>Told apart by which fields are present; a value no variant matches reads"
                        + " as {@link Unknown}.\n")
            .addJavadoc("\n<p>Its variants are immutable; thread-safe when their values are.\n");
    if (name.enclosingClassName() != null) {
      t.addModifiers(Modifier.STATIC);
    }
    AnnotationSpec.Builder info = AnnotationSpec.builder(Types.JSON_TYPE_INFO);
    AnnotationSpec.Builder subs = AnnotationSpec.builder(Types.JSON_SUB_TYPES);
    if (property != null) {
      info.addMember("use", "$T.NAME", Types.JSON_TYPE_INFO_ID)
          .addMember("include", "$T.EXISTING_PROPERTY", Types.JSON_TYPE_INFO_AS)
          .addMember("property", "$S", property)
          .addMember("visible", "true");
      for (Map.Entry<String, ClassName> e : byValue.entrySet()) {
        subs.addMember(
            "value",
            "$L",
            AnnotationSpec.builder(Types.JSON_SUB_TYPE)
                .addMember("value", "$T.class", e.getValue())
                .addMember("name", "$S", e.getKey())
                .build());
      }
    } else {
      info.addMember("use", "$T.DEDUCTION", Types.JSON_TYPE_INFO_ID);
      for (ClassName v : variants) {
        subs.addMember(
            "value",
            "$L",
            AnnotationSpec.builder(Types.JSON_SUB_TYPE).addMember("value", "$T.class", v).build());
      }
    }
    info.addMember("defaultImpl", "$T.class", unknown);
    t.addAnnotation(info.build()).addAnnotation(subs.build());
    List<TypeName> permitted = new ArrayList<>(variants);
    permitted.add(unknown);
    t.addPermittedSubclasses(permitted);
    for (ClassName v : variants) {
      if (name.equals(v.enclosingClassName())) {
        inner.implement(v.simpleName(), name);
      } else {
        models.implement(v, name);
      }
    }
    inner.nested().forEach(t::addType);
    t.addType(unknownRecord(unknown, name));
    return t.build();
  }

  // Jackson tells variants apart by their fields only when no variant's fields are all another's:
  // else a value with only the shared fields would match several and fail to read.
  private static boolean deducible(Models models, List<ClassName> variants) {
    List<java.util.Set<String>> fields = new ArrayList<>();
    for (ClassName v : variants) {
      java.util.Set<String> names = new java.util.HashSet<>();
      models.record(v).properties().forEach(p -> names.add(p.json()));
      fields.add(names);
    }
    for (int i = 0; i < fields.size(); i++) {
      for (int j = 0; j < fields.size(); j++) {
        if (i != j && fields.get(j).containsAll(fields.get(i))) {
          return false;
        }
      }
    }
    return true;
  }

  private static String variantHint(Schema<?> a, Schema<?> r, int i) {
    if (a.getTitle() != null) {
      return a.getTitle();
    }
    for (String teller : TELLERS) {
      if (r.getProperties() != null && r.getProperties().get(teller) != null) {
        List<String> v = SchemaKind.enumValues(r.getProperties().get(teller));
        if (v != null && v.size() == 1) {
          return v.get(0);
        }
      }
    }
    return "Variant" + (i + 1);
  }

  private static boolean isObject(Schema<?> r) {
    return (r.getProperties() != null && !r.getProperties().isEmpty())
        || (r.getAllOf() != null && !r.getAllOf().isEmpty());
  }

  private static List<String> valuesOf(Models models, Schema<?> variant, String property) {
    Schema<?> v = variant.getAllOf() != null ? models.merged(variant) : variant;
    if (v.getProperties() == null) {
      return null;
    }
    Schema<?> p = models.resolve(v.getProperties().get(property));
    return p == null ? null : SchemaKind.enumValues(p);
  }

  private static TypeSpec unknownRecord(ClassName unknown, ClassName union) {
    TypeName map =
        ParameterizedTypeName.get(
            ClassName.get(Map.class), ClassName.get(String.class), ClassName.get(Object.class));
    return TypeSpec.recordBuilder(unknown)
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .addSuperinterface(union)
        .addJavadoc(
            "A variant this client does not know: every field kept as read, and written back.\n"
                + "\n@param fields the fields, by JSON name\n")
        .recordConstructor(
            MethodSpec.compactConstructorBuilder()
                .addJavadoc(
                    "Copies the fields; none is an empty map.\n\n@param fields the fields, by JSON name\n")
                .addModifiers(Modifier.PUBLIC)
                .addParameter(
                    ParameterSpec.builder(map, "fields")
                        .addAnnotation(Types.JSON_ANY_SETTER)
                        .build())
                .addStatement(
                    "fields = fields == null ? $T.of() : $T.unmodifiableMap(new $T<>(fields))",
                    Map.class,
                    Collections.class,
                    LinkedHashMap.class)
                .build())
        .addMethod(
            MethodSpec.methodBuilder("fields")
                .addModifiers(Modifier.PUBLIC)
                .addAnnotation(Override.class)
                .addAnnotation(Types.JSON_ANY_GETTER)
                .returns(map)
                .addJavadoc("{@return the fields, by JSON name}\n")
                .addStatement("return fields")
                .build())
        .build();
  }
}
