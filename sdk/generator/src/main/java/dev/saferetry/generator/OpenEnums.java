package dev.saferetry.generator;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeSpec;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import javax.lang.model.element.Modifier;

/**
 * Writes an open enum: a final class with a constant per value the document lists, and {@code
 * of(String)} that keeps any other value as its raw text. A provider adding a status never breaks a
 * client, and the value is never lost or turned into null.
 */
final class OpenEnums {
  private OpenEnums() {}

  static TypeSpec write(ClassName name, List<String> values, String description) {
    TypeSpec.Builder t =
        TypeSpec.classBuilder(name)
            .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
            .addJavadoc(Docs.of(description, "A value of {@code " + name.simpleName() + "}."))
            .addJavadoc(
                "\n<p>An open set: the constants are the values the document lists; {@link #of}"
                    + " keeps any other as its raw text ({@link #isKnown()} is then false).\n"
                    + "\n<p>Instances are immutable and thread-safe.\n");
    if (name.enclosingClassName() != null) {
      t.addModifiers(Modifier.STATIC);
    }
    CodeBlock.Builder known =
        CodeBlock.builder()
            .add(
                "$T<$T, $T> m = new $T<>();\n", Map.class, String.class, name, LinkedHashMap.class);
    Set<String> used = new HashSet<>();
    for (String v : values) {
      String constant = Names.constant(v);
      while (!used.add(constant)) {
        constant = constant + "_";
      }
      t.addField(
          FieldSpec.builder(name, constant, Modifier.PUBLIC, Modifier.STATIC, Modifier.FINAL)
              .addJavadoc("{@code $L}\n", v.replace("*/", "*&#47;").replace("@", "&#64;"))
              .initializer("new $T($S, true)", name, v)
              .build());
      known.add("m.put($S, $N);\n", v, constant);
    }
    known.add("KNOWN = $T.unmodifiableMap(m);\n", java.util.Collections.class);
    t.addField(
        FieldSpec.builder(
                ParameterizedTypeName.get(
                    ClassName.get(Map.class), ClassName.get(String.class), name),
                "KNOWN",
                Modifier.PRIVATE,
                Modifier.STATIC,
                Modifier.FINAL)
            .build());
    t.addStaticBlock(known.build());
    t.addField(String.class, "value", Modifier.PRIVATE, Modifier.FINAL);
    t.addField(boolean.class, "known", Modifier.PRIVATE, Modifier.FINAL);
    t.addMethod(
        MethodSpec.constructorBuilder()
            .addModifiers(Modifier.PRIVATE)
            .addParameter(String.class, "value")
            .addParameter(boolean.class, "known")
            .addStatement("this.value = value")
            .addStatement("this.known = known")
            .build());
    t.addMethod(
        MethodSpec.methodBuilder("of")
            .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
            .addAnnotation(Types.JSON_CREATOR)
            .returns(name)
            .addParameter(String.class, "value")
            .addJavadoc(
                "{@return the constant for {@code value}, or a new instance keeping it as given}\n"
                    + "\n@param value the raw value\n@throws NullPointerException if it is null\n")
            .addStatement("$T.requireNonNull(value, $S)", Objects.class, "value")
            .addStatement("$T k = KNOWN.get(value)", name)
            .addStatement("return k != null ? k : new $T(value, false)", name)
            .build());
    t.addMethod(
        MethodSpec.methodBuilder("value")
            .addModifiers(Modifier.PUBLIC)
            .addAnnotation(Types.JSON_VALUE)
            .returns(String.class)
            .addJavadoc("{@return the raw value, as sent and received}\n")
            .addStatement("return value")
            .build());
    t.addMethod(
        MethodSpec.methodBuilder("isKnown")
            .addModifiers(Modifier.PUBLIC)
            .returns(boolean.class)
            .addJavadoc("{@return whether the value is one the document lists}\n")
            .addStatement("return known")
            .build());
    t.addMethod(
        MethodSpec.methodBuilder("values")
            .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
            .returns(ParameterizedTypeName.get(ClassName.get(List.class), name))
            .addJavadoc("{@return the values the document lists, in its order}\n")
            .addStatement("return $T.copyOf(KNOWN.values())", List.class)
            .build());
    t.addMethod(
        MethodSpec.methodBuilder("equals")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(boolean.class)
            .addParameter(Object.class, "o")
            .addStatement("return o instanceof $T other && other.value.equals(value)", name)
            .build());
    t.addMethod(
        MethodSpec.methodBuilder("hashCode")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(int.class)
            .addStatement("return value.hashCode()")
            .build());
    t.addMethod(
        MethodSpec.methodBuilder("toString")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(String.class)
            .addStatement("return value")
            .build());
    return t.build();
  }
}
