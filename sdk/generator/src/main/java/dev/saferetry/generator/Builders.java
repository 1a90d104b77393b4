package dev.saferetry.generator;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import javax.lang.model.element.Modifier;

/**
 * Adds {@code builder()}, {@code toBuilder()} and a nested {@code Builder} to a record: a setter
 * per field, {@code clearX()} for a field that can be cleared, and {@code putExtra} for fields the
 * document does not name. A request's required fields are checked by {@code build()}.
 */
final class Builders {
  private Builders() {}

  static void add(TypeSpec.Builder record, ClassName name, RecordShape shape, boolean request) {
    ClassName builder = name.nestedClass("Builder");
    TypeSpec.Builder b =
        TypeSpec.classBuilder(builder)
            .addModifiers(Modifier.PUBLIC, Modifier.STATIC, Modifier.FINAL)
            .addJavadoc("Builds a {@link $T}. Not thread-safe.\n", name);
    b.addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE).build());
    CodeBlock.Builder args = CodeBlock.builder();
    CodeBlock.Builder copy = CodeBlock.builder();
    for (RecordShape.Property p : shape.properties()) {
      FieldSpec.Builder f = FieldSpec.builder(p.type(), p.member(), Modifier.PRIVATE);
      if (p.tristate()) {
        f.initializer("$T.absent()", Types.FIELD_VALUE);
      }
      b.addField(f.build());
      TypeName valueType =
          p.tristate() ? ((ParameterizedTypeName) p.type()).typeArguments().get(0) : p.type();
      MethodSpec.Builder set =
          MethodSpec.methodBuilder(p.member())
              .addModifiers(Modifier.PUBLIC)
              .returns(builder)
              .addParameter(valueType, p.member())
              .addJavadoc(
                  "Sets {@code $L}$L.\n\n@param $L the value$L\n@return this builder\n",
                  p.json(),
                  p.required() && request ? " (required)" : "",
                  p.member(),
                  p.tristate() ? "; null leaves the field out" : "");
      if (p.tristate()) {
        set.addStatement("this.$1N = $2T.ofNullable($1N)", p.member(), Types.FIELD_VALUE);
      } else {
        set.addStatement("this.$1N = $1N", p.member());
      }
      b.addMethod(set.addStatement("return this").build());
      if (p.tristate()) {
        String clear =
            "clear" + Character.toUpperCase(p.member().charAt(0)) + p.member().substring(1);
        b.addMethod(
            MethodSpec.methodBuilder(clear.replace("_", ""))
                .addModifiers(Modifier.PUBLIC)
                .returns(builder)
                .addJavadoc(
                    "Clears {@code $L}: sends it as null (an empty value in a form).\n\n"
                        + "@return this builder\n",
                    p.json())
                .addStatement("this.$N = $T.cleared()", p.member(), Types.FIELD_VALUE)
                .addStatement("return this")
                .build());
      }
      args.add("$N, ", p.member());
      copy.addStatement("b.$1N = $1N", p.member());
    }
    TypeName extraType =
        ParameterizedTypeName.get(
            ClassName.get(Map.class), ClassName.get(String.class), ClassName.get(Object.class));
    b.addField(
        FieldSpec.builder(extraType, shape.extraName(), Modifier.PRIVATE, Modifier.FINAL)
            .initializer("new $T<>()", LinkedHashMap.class)
            .build());
    b.addMethod(
        MethodSpec.methodBuilder("putExtra")
            .addModifiers(Modifier.PUBLIC)
            .returns(builder)
            .addParameter(String.class, "name")
            .addParameter(Object.class, "value")
            .addJavadoc(
                "Adds a field the document does not name, sent as given.\n\n"
                    + "@param name the JSON name\n@param value the value\n@return this builder\n")
            .addStatement(
                "$N.put($T.requireNonNull(name, $S), value)",
                shape.extraName(),
                Objects.class,
                "name")
            .addStatement("return this")
            .build());
    MethodSpec.Builder build =
        MethodSpec.methodBuilder("build")
            .addModifiers(Modifier.PUBLIC)
            .returns(name)
            .addJavadoc("{@return the record}\n");
    boolean anyRequired = false;
    for (RecordShape.Property p : shape.properties()) {
      if (request && p.required()) {
        anyRequired = true;
        build.addStatement(
            "$T.requireNonNull($N, $S)", Objects.class, p.member(), p.json() + " is required");
      }
    }
    if (anyRequired) {
      build.addJavadoc("\n@throws NullPointerException if a required field is not set\n");
    }
    build.addStatement("return new $T($L$N)", name, args.build(), shape.extraName());
    b.addMethod(build.build());
    record.addType(b.build());
    record.addMethod(
        MethodSpec.methodBuilder("builder")
            .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
            .returns(builder)
            .addJavadoc("{@return a builder with no field set}\n")
            .addStatement("return new $T()", builder)
            .build());
    record.addMethod(
        MethodSpec.methodBuilder("toBuilder")
            .addModifiers(Modifier.PUBLIC)
            .returns(builder)
            .addJavadoc("{@return a builder holding this record's fields}\n")
            .addStatement("$T b = new $T()", builder, builder)
            .addCode(copy.build())
            .addStatement("b.$1N.putAll($1N)", shape.extraName())
            .addStatement("return b")
            .build());
  }
}
