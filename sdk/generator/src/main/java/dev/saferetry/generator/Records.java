package dev.saferetry.generator;

import com.palantir.javapoet.AnnotationSpec;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import io.swagger.v3.oas.models.media.Schema;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.Modifier;

/**
 * Writes a record for an object schema: a component per property under its JSON name, unknown
 * fields kept in {@code extra} (read into it, written back from it), a builder, and a {@code
 * toString} that masks secrets.
 */
final class Records {
  private static final TypeName EXTRA_TYPE =
      ParameterizedTypeName.get(
          ClassName.get(Map.class), ClassName.get(String.class), ClassName.get(Object.class));

  private Records() {}

  @SuppressWarnings({"rawtypes", "unchecked"})
  static TypeSpec.Builder write(
      Models models, ClassName name, Schema<?> schema, boolean request, KeyRules keys) {
    Owner owner = new Owner(name);
    List<RecordShape.Property> props = new ArrayList<>();
    Set<String> members = new HashSet<>();
    Set<String> required =
        new HashSet<>(schema.getRequired() == null ? List.of() : schema.getRequired());
    Map<String, Schema> properties = (Map) schema.getProperties();
    for (Map.Entry<String, Schema> e : properties.entrySet()) {
      String json = e.getKey();
      Schema<?> p = e.getValue();
      Schema<?> resolved = models.resolve(p);
      if (request && keys.isKeyField(json, resolved)) {
        continue; // SafeRetry puts the intent's key there
      }
      if (request && resolved != null && Boolean.TRUE.equals(resolved.getReadOnly())) {
        continue; // the server's to set
      }
      TypeName type = models.typeOf(p, owner, json, request).box();
      boolean tristate = request && !required.contains(json) && clearable(p, resolved);
      String member = Names.member(json);
      while (!members.add(member)) {
        member = member + "_";
      }
      boolean secret = resolved != null && "password".equals(resolved.getFormat());
      boolean decimal =
          resolved != null
              && "decimal".equals(resolved.getFormat())
              && "string".equals(SchemaKind.type(resolved));
      String description =
          resolved == null
              ? p.getDescription()
              : firstNonNull(p.getDescription(), resolved.getDescription());
      props.add(
          new RecordShape.Property(
              json,
              member,
              tristate ? ParameterizedTypeName.get(Types.FIELD_VALUE, type) : type,
              required.contains(json),
              tristate,
              secret,
              decimal,
              description));
    }
    String extra = "extra";
    while (!members.add(extra)) {
      extra = extra + "_";
    }
    RecordShape shape = new RecordShape(List.copyOf(props), extra);
    models.remember(name, shape);

    TypeSpec.Builder t =
        TypeSpec.recordBuilder(name)
            .addModifiers(Modifier.PUBLIC)
            .addAnnotation(
                AnnotationSpec.builder(Types.JSON_INCLUDE)
                    .addMember("value", "$T.NON_NULL", Types.JSON_INCLUDE_KIND)
                    .build())
            .addJavadoc(
                Docs.of(schema.getDescription(), "The {@code " + name.simpleName() + "} object."));
    if (name.enclosingClassName() != null) {
      t.addModifiers(Modifier.STATIC);
    }
    t.addJavadoc("\n<p>Fields the document does not name are kept in {@code $L()}", extra)
        .addJavadoc(request ? " and sent as given.\n" : " and written back as read.\n")
        .addJavadoc("\n<p>Immutable; thread-safe when its values are.\n");
    for (RecordShape.Property p : props) {
      t.addJavadoc(
          "\n@param $L $L",
          p.member(),
          Docs.of(p.description(), "the {@code " + p.json() + "} field").strip());
      t.addJavadoc(p.tristate() ? " (absent, cleared or set)" : "");
    }
    t.addJavadoc("\n@param $L fields the document does not name, by JSON name\n", extra);

    MethodSpec.Builder ctor =
        MethodSpec.compactConstructorBuilder()
            .addModifiers(Modifier.PUBLIC)
            .addJavadoc(
                "Copies the lists and maps it is given; an absent tri-state field is {@link $T#absent()}, no extra\nfields an empty map.\n",
                Types.FIELD_VALUE);
    for (RecordShape.Property p : props) {
      ParameterSpec.Builder param = ParameterSpec.builder(p.type(), p.member());
      param.addAnnotation(
          AnnotationSpec.builder(Types.JSON_PROPERTY).addMember("value", "$S", p.json()).build());
      if (p.tristate()) {
        param.addAnnotation(
            AnnotationSpec.builder(Types.JSON_INCLUDE)
                .addMember("value", "$T.CUSTOM", Types.JSON_INCLUDE_KIND)
                .addMember("valueFilter", "$T.OmitAbsent.class", Types.FIELD_VALUE)
                .build());
        ctor.addStatement("$1N = $1N == null ? $2T.absent() : $1N", p.member(), Types.FIELD_VALUE);
      }
      if (p.decimal()) {
        param.addAnnotation(
            AnnotationSpec.builder(Types.JSON_FORMAT)
                .addMember("shape", "$T.STRING", Types.JSON_FORMAT_SHAPE)
                .build());
      }
      copyCollection(ctor, p.type(), p.member());
      ctor.addParameter(param.build());
    }
    ctor.addJavadoc("\n");
    for (RecordShape.Property p : props) {
      ctor.addJavadoc("@param $L the {@code $L} field\n", p.member(), p.json());
    }
    ctor.addJavadoc("@param $L fields the document does not name\n", extra);
    ctor.addParameter(
        ParameterSpec.builder(EXTRA_TYPE, extra).addAnnotation(Types.JSON_ANY_SETTER).build());
    ctor.addStatement(
        "$1N = $1N == null || $1N.isEmpty() ? $2T.of() : $3T.unmodifiableMap(new $4T<>($1N))",
        extra,
        Map.class,
        Collections.class,
        LinkedHashMap.class);
    t.recordConstructor(ctor.build());
    t.addMethod(
        MethodSpec.methodBuilder(extra)
            .addModifiers(Modifier.PUBLIC)
            .addAnnotation(Override.class)
            .addAnnotation(Types.JSON_ANY_GETTER)
            .returns(EXTRA_TYPE)
            .addJavadoc(
                "{@return fields the document does not name, by JSON name: kept, never lost}\n")
            .addStatement("return $N", extra)
            .build());
    Builders.add(t, name, shape, request);
    if (props.stream().anyMatch(RecordShape.Property::secret)) {
      t.addMethod(maskedToString(name, shape));
    }
    owner.nested().forEach(t::addType);
    return t;
  }

  private static boolean clearable(Schema<?> p, Schema<?> resolved) {
    if (SchemaKind.nullable(p) || (resolved != null && SchemaKind.nullable(resolved))) {
      return true;
    }
    for (Schema<?> a : SchemaKind.alternatives(p)) {
      if (SchemaKind.isEmptyStringOnly(a) || SchemaKind.isNullOnly(a)) {
        return true;
      }
    }
    return false;
  }

  private static void copyCollection(MethodSpec.Builder ctor, TypeName type, String member) {
    if (!(type instanceof ParameterizedTypeName pt)) {
      return;
    }
    if (pt.rawType().equals(ClassName.get(List.class))) {
      ctor.addStatement(
          "$1N = $1N == null ? null : $2T.unmodifiableList(new $3T<>($1N))",
          member,
          Collections.class,
          ArrayList.class);
    } else if (pt.rawType().equals(ClassName.get(Map.class))) {
      ctor.addStatement(
          "$1N = $1N == null ? null : $2T.unmodifiableMap(new $3T<>($1N))",
          member,
          Collections.class,
          LinkedHashMap.class);
    }
  }

  private static MethodSpec maskedToString(ClassName name, RecordShape shape) {
    CodeBlock.Builder b = CodeBlock.builder().add("return $S", name.simpleName() + "[");
    String sep = "";
    for (RecordShape.Property p : shape.properties()) {
      if (p.secret()) {
        b.add("\n+ $S + ($N == null ? \"null\" : \"***\")", sep + p.member() + "=", p.member());
      } else {
        b.add("\n+ $S + $N", sep + p.member() + "=", p.member());
      }
      sep = ", ";
    }
    b.add("\n+ $S + $N.keySet()", sep + shape.extraName() + "=", shape.extraName());
    b.add("\n+ $S", "]");
    return MethodSpec.methodBuilder("toString")
        .addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC)
        .returns(String.class)
        .addJavadoc(
            "{@return the fields, secrets masked as {@code ***}; unknown fields by name only}\n")
        .addStatement(b.build())
        .build();
  }

  private static String firstNonNull(String a, String b) {
    return a != null ? a : b;
  }
}
