package dev.saferetry.generator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The generated sources are the reviewed ones in {@code src/test/resources/golden/<case>}: a change
 * to what the generator writes shows as a diff of those files. To accept a change, regenerate them
 * with {@code mvn -pl sdk/generator -am verify -Dtest=GoldenFilesTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dsaferetry.golden.update=true} and review the diff.
 */
class GoldenFilesTest {
  /** The system property that rewrites the golden files instead of comparing. */
  static final String UPDATE = "saferetry.golden.update";

  private static final Path GOLDEN = Path.of("src", "test", "resources", "golden");

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "stripe, stripe-charges.yaml, com.example.stripe, stripe",
    "adyen, adyen-checkout.yaml, com.example.adyen, none",
    "square, square-payments.yaml, com.example.square, none"
  })
  void generatedSourcesAreTheReviewedOnes(String name, String spec, String pkg, String preset)
      throws IOException {
    GeneratedSources sources = Generator.generate(Specs.config(spec, pkg).preset(preset).build());
    Map<String, String> all = new TreeMap<>(sources.sources());
    all.putAll(sources.resources());
    Path dir = GOLDEN.resolve(name);
    if (Boolean.getBoolean(UPDATE)) {
      clear(dir);
      for (Map.Entry<String, String> f : all.entrySet()) {
        Path target = dir.resolve(f.getKey());
        Files.createDirectories(target.getParent());
        Files.writeString(target, f.getValue(), StandardCharsets.UTF_8);
      }
      return;
    }
    assertThat(read(dir).keySet())
        .as("files of %s (regenerate with -D%s=true)", name, UPDATE)
        .containsExactlyElementsOf(all.keySet());
    Map<String, String> golden = read(dir);
    for (Map.Entry<String, String> f : all.entrySet()) {
      assertThat(f.getValue())
          .as("%s/%s (regenerate with -D%s=true)", name, f.getKey(), UPDATE)
          .isEqualTo(golden.get(f.getKey()));
    }
  }

  private static Map<String, String> read(Path dir) throws IOException {
    Map<String, String> files = new TreeMap<>();
    if (!Files.isDirectory(dir)) {
      return files;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.filter(Files::isRegularFile).toList()) {
        files.put(dir.relativize(p).toString().replace('\\', '/'), Files.readString(p));
      }
    }
    return files;
  }

  private static void clear(Path dir) throws IOException {
    if (Files.isDirectory(dir)) {
      try (Stream<Path> walk = Files.walk(dir)) {
        walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
