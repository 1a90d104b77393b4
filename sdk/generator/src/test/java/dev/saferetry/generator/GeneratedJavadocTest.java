package dev.saferetry.generator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.DocumentationTool;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The generated sources' Javadoc builds with every doclint check and no warning. */
class GeneratedJavadocTest {
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"stripe-charges.yaml", "adyen-checkout.yaml", "square-payments.yaml"})
  void generatedJavadocPassesDoclint(String spec) throws Exception {
    GeneratedSources sources = Generator.generate(Specs.config(spec, "com.example.doc").build());
    Path dir = Compiled.workDir("javadoc-" + spec);
    sources.writeTo(dir.resolve("src"), dir.resolve("res"));
    List<Path> files = new ArrayList<>();
    for (String f : sources.sources().keySet()) {
      files.add(dir.resolve("src").resolve(f));
    }
    DocumentationTool javadoc = ToolProvider.getSystemDocumentationTool();
    StringWriter out = new StringWriter();
    try (StandardJavaFileManager fm = javadoc.getStandardFileManager(null, null, null)) {
      Iterable<? extends JavaFileObject> units = fm.getJavaFileObjectsFromPaths(files);
      Boolean ok =
          javadoc
              .getTask(
                  out,
                  fm,
                  null,
                  null,
                  List.of(
                      "-quiet",
                      "-Xdoclint:all",
                      "-Werror",
                      "-classpath",
                      System.getProperty("java.class.path"),
                      "-d",
                      Files.createDirectories(dir.resolve("doc")).toString()),
                  units)
              .call();
      assertThat(ok).as(out.toString()).isTrue();
    }
    assertThat(out.toString()).doesNotContain("warning");
  }
}
