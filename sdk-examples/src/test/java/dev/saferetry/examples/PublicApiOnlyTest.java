package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The examples are meant to be copied: they may use the SDK's exported API only. Every source file
 * under {@code dev.saferetry.examples}, recursively, is checked for the SDK's internal packages;
 * the examples themselves (the files directly in that package) may name no {@code dev.saferetry}
 * package but the SDK's exported ones, the typed client they call ({@code payments}) and what they
 * need around them ({@code support} and its Stripe-shaped server, {@code support.stripe}).
 */
class PublicApiOnlyTest {
  static final List<Path> SDK_SOURCES =
      List.of(
          Path.of("../sdk/core/src/main/java"),
          Path.of("../sdk/jdbc/src/main/java"),
          Path.of("../sdk/webhook/src/main/java"));
  static final Path EXAMPLES = Path.of("src/main/java/dev/saferetry/examples");
  static final Pattern NAMED = Pattern.compile("\\b(dev\\.saferetry(?:\\.\\w+)+)");

  /** The exported packages of every SDK artifact. */
  static Set<String> exportedPackages() throws IOException {
    Set<String> exported = new TreeSet<>();
    for (Path sources : SDK_SOURCES) {
      exported.addAll(exportedPackages(sources));
    }
    return exported;
  }

  /** An artifact's exported packages: its module descriptor's, else every package but internal. */
  static Set<String> exportedPackages(Path sources) throws IOException {
    Set<String> exported = new TreeSet<>();
    Path descriptor = sources.resolve("module-info.java");
    if (Files.exists(descriptor)) {
      Matcher m =
          Pattern.compile("(?m)^\\s*exports\\s+([\\w.]+)\\s*;")
              .matcher(Files.readString(descriptor));
      while (m.find()) {
        exported.add(m.group(1));
      }
      return exported;
    }
    try (Stream<Path> files = Files.walk(sources)) {
      files
          .filter(p -> p.toString().endsWith(".java"))
          .map(p -> sources.relativize(p.getParent()).toString().replace('/', '.'))
          .filter(pkg -> !pkg.equals("dev.saferetry.internal"))
          .filter(pkg -> !pkg.startsWith("dev.saferetry.internal."))
          .forEach(exported::add);
    }
    return exported;
  }

  /**
   * Returns every {@code dev.saferetry...} package or type {@code source} names (imports and fully
   * qualified names in code, not in comments) that is not in an allowed package.
   */
  static List<String> violations(String source, Set<String> allowed) {
    String code = source.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\\n]*", "");
    List<String> bad = new ArrayList<>();
    Matcher m = NAMED.matcher(code);
    while (m.find()) {
      String name = m.group(1);
      boolean ok = allowed.stream().anyMatch(p -> name.equals(p) || startsWithPackage(name, p));
      if (!ok || name.contains(".internal")) {
        bad.add(name);
      }
    }
    return bad;
  }

  /** Whether {@code name} is {@code pkg}'s type or member (not a subpackage of it). */
  private static boolean startsWithPackage(String name, String pkg) {
    if (!name.startsWith(pkg + ".")) {
      return false;
    }
    String rest = name.substring(pkg.length() + 1);
    return Character.isUpperCase(rest.charAt(0));
  }

  static List<Path> sources(Path dir, boolean recursive) throws IOException {
    try (Stream<Path> files = recursive ? Files.walk(dir) : Files.list(dir)) {
      return files.filter(p -> p.toString().endsWith(".java")).sorted().toList();
    }
  }

  @Test
  void noSourceUnderTheExamplesUsesTheSdksInternalPackages() throws IOException {
    List<Path> all = sources(EXAMPLES, true);
    assertThat(all).hasSizeGreaterThan(40); // examples, payments, demo, support
    for (Path source : all) {
      assertThat(Files.readString(source))
          .as(source.toString())
          .doesNotContainPattern("(?m)^import (static )?dev\\.saferetry\\.internal")
          .doesNotContainPattern("(?m)^[^*/]*\\bdev\\.saferetry\\.internal\\.");
    }
  }

  @Test
  void theExamplesNameOnlyExportedSdkPackages() throws IOException {
    Set<String> allowed = new TreeSet<>(exportedPackages());
    assertThat(allowed).contains("dev.saferetry").doesNotContain("dev.saferetry.payments");
    allowed.add("dev.saferetry.examples");
    allowed.add("dev.saferetry.payments"); // the published typed client, saferetry-payments
    allowed.add("dev.saferetry.testing.provider"); // saferetry-testing's fake provider
    allowed.add("dev.saferetry.conformance.server"); // saferetry-conformance's reference server
    allowed.add("dev.saferetry.stripe"); // the published typed client, saferetry-stripe
    allowed.add("dev.saferetry.examples.support");
    allowed.add("dev.saferetry.examples.support.stripe"); // the in-process Stripe-shaped server
    List<Path> examples = sources(EXAMPLES, false);
    assertThat(examples).hasSizeGreaterThan(12);
    for (Path source : examples) {
      assertThat(violations(Files.readString(source), allowed)).as(source.toString()).isEmpty();
    }
  }

  @Test
  void theCheckCatchesAPlantedBadImport(@TempDir Path dir) throws IOException {
    Set<String> allowed = new TreeSet<>(exportedPackages());
    allowed.add("dev.saferetry.examples");
    String planted =
        "package dev.saferetry.examples;\n"
            + "import dev.saferetry.SafeRetryClient;\n"
            + "import dev.saferetry.internal.Json;\n"
            + "import static dev.saferetry.internal.Redaction.printable;\n"
            + "import dev.saferetry.examples.demo.Sandbox;\n"
            + "/** Uses {@link dev.saferetry.internal.Wire} in a comment only. */\n"
            + "class Planted { Object x = new dev.saferetry.internal.filestore.LogStore(); }\n";
    Files.writeString(dir.resolve("Planted.java"), planted);

    assertThat(violations(Files.readString(dir.resolve("Planted.java")), allowed))
        .containsExactly(
            "dev.saferetry.internal.Json",
            "dev.saferetry.internal.Redaction.printable",
            "dev.saferetry.examples.demo.Sandbox",
            "dev.saferetry.internal.filestore.LogStore");
    assertThat(planted).containsPattern("(?m)^import (static )?dev\\.saferetry\\.internal");
  }
}
