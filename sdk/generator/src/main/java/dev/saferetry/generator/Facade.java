package dev.saferetry.generator;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeSpec;
import io.swagger.v3.oas.models.OpenAPI;
import java.util.Map;
import java.util.Objects;
import javax.lang.model.element.Modifier;

/** Writes the facade: one object over a {@code SafeRetryClient} that hands out every resource. */
final class Facade {
  private Facade() {}

  static TypeSpec write(ClassName name, OpenAPI api, Map<String, ClassName> resources) {
    String title =
        api.getInfo() == null || api.getInfo().getTitle() == null
            ? "the API"
            : api.getInfo().getTitle();
    String version =
        api.getInfo() == null || api.getInfo().getVersion() == null
            ? ""
            : api.getInfo().getVersion();
    TypeSpec.Builder t =
        TypeSpec.classBuilder(name)
            .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
            .addJavadoc(
                "The typed client of $L$L, over a {@link $T}: every call gets SafeRetry's durable keys and retries.\n",
                Docs.of(title, "the API").strip(),
                version.isEmpty() ? "" : " (document version " + Docs.of(version, "").strip() + ")",
                Types.CLIENT)
            .addJavadoc(
                "\n<pre>{@code\n$T api = new $T(SafeRetryClient.builder().baseUrl(url).build());\n}</pre>\n",
                name,
                name)
            .addJavadoc("\n<p>Instances are immutable and thread-safe.\n");
    t.addField(Types.CLIENT, "client", Modifier.PRIVATE, Modifier.FINAL);
    MethodSpec.Builder ctor =
        MethodSpec.constructorBuilder()
            .addModifiers(Modifier.PUBLIC)
            .addParameter(Types.CLIENT, "client")
            .addJavadoc(
                "Creates the client over {@code client}, which it does not close.\n\n@param client the SafeRetry client every call goes through\n")
            .addStatement("this.client = $T.requireNonNull(client, $S)", Objects.class, "client");
    for (Map.Entry<String, ClassName> r : resources.entrySet()) {
      String member = Names.member(r.getKey());
      t.addField(r.getValue(), member, Modifier.PRIVATE, Modifier.FINAL);
      ctor.addStatement("this.$N = new $T(client)", member, r.getValue());
      t.addMethod(
          MethodSpec.methodBuilder(member)
              .addModifiers(Modifier.PUBLIC)
              .returns(r.getValue())
              .addJavadoc("{@return the operations on {@code $L}}\n", r.getKey())
              .addStatement("return $N", member)
              .build());
    }
    t.addMethod(ctor.build());
    t.addMethod(
        MethodSpec.methodBuilder("client")
            .addModifiers(Modifier.PUBLIC)
            .returns(Types.CLIENT)
            .addJavadoc("{@return the SafeRetry client the calls go through}\n")
            .addStatement("return client")
            .build());
    return t.build();
  }
}
