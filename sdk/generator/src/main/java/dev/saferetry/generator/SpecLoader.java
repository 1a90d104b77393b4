package dev.saferetry.generator;

import io.swagger.parser.OpenAPIParser;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Reads an OpenAPI 3.0 or 3.1 document with swagger-parser, keeping references by name. */
final class SpecLoader {
  private SpecLoader() {}

  static OpenAPI load(Path spec) {
    if (!Files.isRegularFile(spec)) {
      throw new GeneratorException("the OpenAPI document " + spec + " is not a readable file");
    }
    ParseOptions options = new ParseOptions();
    // References stay references: a component's name is its Java type's name. (Resolving would
    // inline every schema of a 3.1 document.) References to other files are not followed.
    options.setResolve(false);
    options.setResolveFully(false);
    SwaggerParseResult result;
    try {
      result =
          new OpenAPIParser().readLocation(spec.toAbsolutePath().toUri().toString(), null, options);
    } catch (RuntimeException e) {
      throw new GeneratorException("cannot parse " + spec + ": " + e.getMessage(), e);
    }
    OpenAPI api = result.getOpenAPI();
    List<String> messages = result.getMessages() == null ? List.of() : result.getMessages();
    if (api == null || api.getPaths() == null) {
      throw new GeneratorException(
          "cannot read "
              + spec
              + " as OpenAPI 3.0 or 3.1"
              + (messages.isEmpty() ? "" : ": " + String.join("; ", messages)));
    }
    return api;
  }
}
