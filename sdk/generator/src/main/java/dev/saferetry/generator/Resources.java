package dev.saferetry.generator;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import javax.lang.model.element.Modifier;

/**
 * Writes one class per resource: an {@code Operation} constant per operation (its key placed as the
 * document says) and a typed method, sync and async, per operation; list operations that page also
 * get {@code xAll}, which walks every page.
 */
final class Resources {
  private Resources() {}

  static TypeSpec write(ClassName name, String group, List<OperationShape> ops) {
    TypeSpec.Builder t =
        TypeSpec.classBuilder(name)
            .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
            .addJavadoc(
                "The operations on {@code $L}: each an {@link $T} constant and a typed method.\n",
                group,
                Types.OPERATION)
            .addJavadoc("\n<p>Instances are immutable and thread-safe.\n");
    t.addField(Types.CLIENT, "client", Modifier.PRIVATE, Modifier.FINAL);
    t.addMethod(
        MethodSpec.constructorBuilder()
            .addModifiers(Modifier.PUBLIC)
            .addParameter(Types.CLIENT, "client")
            .addJavadoc(
                "Creates the resource over {@code client}.\n\n@param client the client its calls go through\n")
            .addStatement("this.client = $T.requireNonNull(client, $S)", Objects.class, "client")
            .build());
    for (OperationShape op : ops) {
      t.addField(constant(op));
      if (op.paging() != null) {
        t.addField(pageStyle(op));
      }
    }
    for (OperationShape op : ops) {
      t.addMethod(call(op, false));
      t.addMethod(call(op, true));
      if (op.paging() != null) {
        t.addMethod(all(op));
      }
    }
    t.addMethod(
        MethodSpec.methodBuilder("withQuery")
            .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
            .returns(Types.REQUEST_OPTIONS)
            .addParameter(Types.REQUEST_OPTIONS, "options")
            .addParameter(Types.QUERY_PARAMS, "query")
            .addStatement("$T.requireNonNull(options, $S)", Objects.class, "options")
            .addStatement(
                "return query.isEmpty() ? options : options.withQuery(options.query().with(query))")
            .build());
    return t.build();
  }

  static String constantName(OperationShape op) {
    return Names.constant(op.javaName());
  }

  private static TypeName requestClass(OperationShape op) {
    if (op.body() == null) {
      return ClassName.get(Void.class);
    }
    return op.body() instanceof ClassName ? op.body() : ClassName.get(Object.class);
  }

  private static FieldSpec constant(OperationShape op) {
    TypeName q = requestClass(op);
    TypeName r = op.response();
    CodeBlock.Builder init =
        CodeBlock.builder()
            .add(
                "$T.of($S, $S, $T.class, $L)",
                Types.OPERATION,
                op.method(),
                op.path(),
                q,
                typeRef(r));
    if (op.form()) {
      init.add(
          "$Z.withCodec($T.form($T.defaults().withIndexedLists().withEmptyNulls()))",
          Types.BODY_CODEC,
          Types.FORM_STYLE);
    }
    KeyRules.Decision k = op.key();
    if (k.isNone()) {
      init.add("$Z.carryingKey(false)");
    } else {
      init.add("$Z.carryingKey(true)");
      init.add(
          k.kind().equals("body")
              ? CodeBlock.of("$Z.withKeyPlacement($T.bodyField($S))", Types.KEY_PLACEMENT, k.name())
              : CodeBlock.of("$Z.withKeyPlacement($T.header($S))", Types.KEY_PLACEMENT, k.name()));
      if (k.maxLength() > 0) {
        init.add("$Z.withKeyMaxLength($L)", k.maxLength());
      }
    }
    return FieldSpec.builder(
            ParameterizedTypeName.get(Types.OPERATION, q, r),
            constantName(op),
            Modifier.PUBLIC,
            Modifier.STATIC,
            Modifier.FINAL)
        .addJavadoc(
            "{@code $L $L}$L\n",
            op.method(),
            op.path(),
            op.id() == null ? "" : " (" + op.id() + ")")
        .addJavadoc("\n<p>Key: $L.\n", keyText(k))
        .initializer(init.build())
        .build();
  }

  static String keyText(KeyRules.Decision k) {
    switch (k.kind()) {
      case "header":
        return "header {@code " + k.name() + "}" + max(k) + ", from " + k.why();
      case "body":
        return "body field {@code " + k.name() + "}" + max(k) + ", from " + k.why();
      default:
        return "none (" + k.why() + ")";
    }
  }

  private static String max(KeyRules.Decision k) {
    return k.maxLength() > 0 ? " (at most " + k.maxLength() + " characters)" : "";
  }

  static CodeBlock typeRef(TypeName r) {
    if (r instanceof ClassName) {
      return CodeBlock.of("$T.of($T.class)", Types.TYPE_REF, r);
    }
    TypeSpec anon =
        TypeSpec.anonymousClassBuilder("")
            .superclass(ParameterizedTypeName.get(Types.TYPE_REF, r))
            .build();
    return CodeBlock.of("$L", anon);
  }

  private static FieldSpec pageStyle(OperationShape op) {
    OperationShape.Paging p = op.paging();
    TypeName type = ParameterizedTypeName.get(Types.PAGE_STYLE, op.response(), p.item());
    CodeBlock init;
    if (p.style().equals("after")) {
      init =
          CodeBlock.of(
              "$T.afterLastItem($W$T::$N,$Wp -> $T.TRUE.equals(p.$N()),$W$T::$N,$W$S)",
              Types.PAGE_STYLE,
              op.response(),
              p.itemsMember(),
              Boolean.class,
              p.moreMember(),
              p.item(),
              p.idMember(),
              p.parameter());
    } else if (p.style().equals("cursor")) {
      init =
          CodeBlock.of(
              "$T.nextCursor($W$T::$N,$W$T::$N,$W$S)",
              Types.PAGE_STYLE,
              op.response(),
              p.itemsMember(),
              op.response(),
              p.cursorMember(),
              p.parameter());
    } else {
      init =
          CodeBlock.of(
              "$T.nextLink($W$T::$N,$W$T::$N)",
              Types.PAGE_STYLE,
              op.response(),
              p.itemsMember(),
              op.response(),
              p.cursorMember());
    }
    return FieldSpec.builder(
            type, constantName(op) + "_PAGES", Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
        .initializer(init)
        .build();
  }

  private static MethodSpec call(OperationShape op, boolean async) {
    TypeName result = ParameterizedTypeName.get(Types.CALL_RESULT, op.response());
    MethodSpec.Builder m =
        MethodSpec.methodBuilder(op.javaName() + (async ? "Async" : ""))
            .addModifiers(Modifier.PUBLIC)
            .returns(
                async
                    ? ParameterizedTypeName.get(ClassName.get(CompletableFuture.class), result)
                    : result);
    m.addJavadoc(Docs.of(op.summary(), "Calls {@code " + op.method() + " " + op.path() + "}."));
    m.addJavadoc("\n<p>Through {@link #$L}; key: $L.\n\n", constantName(op), keyText(op.key()));
    addParams(m, op);
    m.addJavadoc("@param options the call's options: intent id, key, per-call overrides\n");
    m.addJavadoc(
        async
            ? "@return the call's result, when it completes; it fails as {@code execute} throws\n"
            : "@return the call's result\n@throws dev.saferetry.error.SafeRetryException when the call fails, or its outcome is unknown\n");
    m.addParameter(Types.REQUEST_OPTIONS, "options");
    CodeBlock opts = options(op);
    m.addStatement(
        "return client.$L($N,$W$L,$W$L)",
        async ? "executeAsync" : "execute",
        constantName(op),
        op.body() == null ? "null" : "request",
        opts);
    return m.build();
  }

  private static void addParams(MethodSpec.Builder m, OperationShape op) {
    for (OperationShape.PathParam p : op.pathParams()) {
      m.addParameter(String.class, p.member());
      m.addJavadoc(
          "@param $L the path's {@code {$L}}, sent as one escaped segment\n", p.member(), p.name());
    }
    if (op.body() != null) {
      m.addParameter(op.body(), "request");
      m.addJavadoc("@param request the request body\n");
    }
    if (op.query() != null) {
      m.addParameter(op.query(), "query");
      m.addJavadoc("@param query the query parameters, or null for none\n");
    }
  }

  private static CodeBlock options(OperationShape op) {
    CodeBlock base =
        op.query() == null
            ? CodeBlock.of("$T.requireNonNull(options, $S)", Objects.class, "options")
            : CodeBlock.of(
                "withQuery(options,$Wquery == null ? $T.empty() : query.toQuery())",
                Types.QUERY_PARAMS);
    CodeBlock.Builder b = CodeBlock.builder().add(base);
    for (OperationShape.PathParam p : op.pathParams()) {
      b.add(
          "$W.withPathParam($S, $T.requireNonNull($N, $S))",
          p.name(),
          Objects.class,
          p.member(),
          p.member());
    }
    return b.build();
  }

  private static MethodSpec all(OperationShape op) {
    TypeName it =
        ParameterizedTypeName.get(Types.PAGED_ITERABLE, op.response(), op.paging().item());
    MethodSpec.Builder m =
        MethodSpec.methodBuilder(op.javaName() + "All")
            .addModifiers(Modifier.PUBLIC)
            .returns(it)
            .addJavadoc(
                "Walks every page of {@link #$L}, lazily: a page is fetched when the items before it are used up.\n\n",
                op.javaName());
    addParams(m, op);
    m.addJavadoc(
        "@param options the options of every page's call\n@return the items of every page\n");
    m.addParameter(Types.REQUEST_OPTIONS, "options");
    m.addStatement(
        "return client.paginate($N,$W$N,$W$L)",
        constantName(op),
        constantName(op) + "_PAGES",
        options(op));
    return m.build();
  }

  static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }
}
