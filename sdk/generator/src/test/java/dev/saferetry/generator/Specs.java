package dev.saferetry.generator;

import java.net.URISyntaxException;
import java.nio.file.Path;

/** The spec excerpts under src/test/resources/specs. */
final class Specs {
  private Specs() {}

  static Path of(String name) {
    try {
      return Path.of(Specs.class.getResource("/specs/" + name).toURI());
    } catch (URISyntaxException | NullPointerException e) {
      throw new AssertionError("no spec " + name, e);
    }
  }

  static GeneratorConfig.Builder config(String spec, String pkg) {
    return GeneratorConfig.builder().spec(of(spec)).packageName(pkg);
  }
}
