package dev.saferetry.generator;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import io.swagger.v3.oas.models.parameters.Parameter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.Modifier;

/**
 * Writes an operation's query parameters as a record with a builder and {@code toQuery()}, which
 * encodes them as the document's style says: {@code deepObject} lists as {@code expand[]=a}, maps
 * as {@code metadata[k]=v}; {@code form} lists repeated ({@code explode}) or joined by commas.
 */
final class Queries {
  private static final TypeName EXTRA =
      ParameterizedTypeName.get(
          ClassName.get(Map.class), ClassName.get(String.class), ClassName.get(Object.class));

  private Queries() {}

  static TypeSpec write(Models models, ClassName name, List<Parameter> params, String what) {
    Owner owner = new Owner(name);
    List<RecordShape.Property> props = new ArrayList<>();
    List<String> styles = new ArrayList<>();
    Set<String> members = new HashSet<>();
    for (Parameter p : params) {
      TypeName type = models.typeOf(p.getSchema(), owner, p.getName(), true).box();
      String member = Names.member(p.getName());
      while (!members.add(member)) {
        member = member + "_";
      }
      props.add(
          new RecordShape.Property(
              p.getName(),
              member,
              type,
              Boolean.TRUE.equals(p.getRequired()),
              false,
              false,
              false,
              p.getDescription()));
      boolean deep = p.getStyle() == Parameter.StyleEnum.DEEPOBJECT;
      boolean explode = p.getExplode() == null || p.getExplode();
      styles.add(deep ? "deep" : explode ? "explode" : "comma");
    }
    String extra = members.contains("extra") ? "extra_" : "extra";
    RecordShape shape = new RecordShape(List.copyOf(props), extra);
    TypeSpec.Builder t =
        TypeSpec.recordBuilder(name)
            .addModifiers(Modifier.PUBLIC)
            .addJavadoc("The query parameters of $L.\n", what)
            .addJavadoc(
                "\n<p>Parameters the document does not name go in {@code $L()}, sent as given.\n",
                extra);
    for (RecordShape.Property p : props) {
      t.addJavadoc(
          "\n@param $L $L",
          p.member(),
          Docs.of(p.description(), "the {@code " + p.json() + "} parameter").strip());
    }
    t.addJavadoc("\n@param $L parameters the document does not name\n", extra);
    MethodSpec.Builder ctor =
        MethodSpec.compactConstructorBuilder()
            .addModifiers(Modifier.PUBLIC)
            .addJavadoc("Copies the lists it is given; no extra parameters is an empty map.\n");
    for (RecordShape.Property p : props) {
      ctor.addParameter(ParameterSpec.builder(p.type(), p.member()).build());
      if (p.type() instanceof ParameterizedTypeName pt
          && pt.rawType().equals(ClassName.get(List.class))) {
        ctor.addStatement(
            "$1N = $1N == null ? null : $2T.unmodifiableList(new $3T<>($1N))",
            p.member(),
            Collections.class,
            ArrayList.class);
      }
    }
    ctor.addJavadoc("\n");
    for (RecordShape.Property p : props) {
      ctor.addJavadoc("@param $L the {@code $L} parameter\n", p.member(), p.json());
    }
    ctor.addJavadoc("@param $L parameters the document does not name\n", extra);
    ctor.addParameter(EXTRA, extra);
    ctor.addStatement(
        "$1N = $1N == null || $1N.isEmpty() ? $2T.of() : $3T.unmodifiableMap(new $4T<>($1N))",
        extra,
        Map.class,
        Collections.class,
        LinkedHashMap.class);
    t.recordConstructor(ctor.build());
    MethodSpec.Builder q =
        MethodSpec.methodBuilder("toQuery")
            .addModifiers(Modifier.PUBLIC)
            .returns(Types.QUERY_PARAMS)
            .addJavadoc(
                "{@return the parameters as sent, in the document's order, then the extra ones}\n")
            .addStatement("$T q = $T.empty()", Types.QUERY_PARAMS, Types.QUERY_PARAMS);
    for (int i = 0; i < props.size(); i++) {
      RecordShape.Property p = props.get(i);
      q.beginControlFlow("if ($N != null)", p.member());
      q.addCode(encode(p, styles.get(i)));
      q.endControlFlow();
    }
    q.beginControlFlow(
            "for ($T.Entry<$T, $T> e : $N.entrySet())",
            Map.class,
            String.class,
            Object.class,
            extra)
        .addStatement("q = q.and(e.getKey(), $T.valueOf(e.getValue()))", String.class)
        .endControlFlow();
    q.addStatement("return q");
    t.addMethod(q.build());
    Builders.add(t, name, shape, true);
    owner.nested().forEach(t::addType);
    return t.build();
  }

  private static CodeBlock encode(RecordShape.Property p, String style) {
    TypeName type = p.type();
    String n = p.json();
    if (type instanceof ParameterizedTypeName pt
        && pt.rawType().equals(ClassName.get(List.class))) {
      CodeBlock values =
          CodeBlock.of("$N.stream().map($L).toList()", p.member(), text(pt.typeArguments().get(0)));
      switch (style) {
        case "deep":
          return CodeBlock.of("q = q.andAll($S, $L);\n", n + "[]", values);
        case "comma":
          return CodeBlock.of("q = q.and($S, $T.join(\",\", $L));\n", n, String.class, values);
        default:
          return CodeBlock.of("q = q.andAll($S, $L);\n", n, values);
      }
    }
    if (type instanceof ParameterizedTypeName pt && pt.rawType().equals(ClassName.get(Map.class))) {
      return CodeBlock.builder()
          .beginControlFlow(
              "for ($T.Entry<$T, ?> e : $N.entrySet())", Map.class, String.class, p.member())
          .addStatement(
              "q = q.and($S + e.getKey() + \"]\", $T.valueOf(e.getValue()))", n + "[", String.class)
          .endControlFlow()
          .build();
    }
    if (type.equals(ClassName.get(Object.class))) {
      return CodeBlock.builder()
          .beginControlFlow("if ($N instanceof $T<?, ?> m)", p.member(), Map.class)
          .beginControlFlow("for ($T.Entry<?, ?> e : m.entrySet())", Map.class)
          .addStatement(
              "q = q.and($S + e.getKey() + \"]\", $T.valueOf(e.getValue()))", n + "[", String.class)
          .endControlFlow()
          .nextControlFlow("else")
          .addStatement("q = q.and($S, $T.valueOf($N))", n, String.class, p.member())
          .endControlFlow()
          .build();
    }
    if (type.equals(Types.UNIX_TIME)) {
      return CodeBlock.of("q = q.and($S, $N.epochSecond());\n", n, p.member());
    }
    return CodeBlock.of("q = q.and($S, $T.valueOf($N));\n", n, String.class, p.member());
  }

  // A function from a list element to its query text.
  private static CodeBlock text(TypeName type) {
    if (type.equals(Types.UNIX_TIME)) {
      return CodeBlock.of("t -> $T.toString(t.epochSecond())", Long.class);
    }
    return CodeBlock.of("$T::valueOf", String.class);
  }
}
