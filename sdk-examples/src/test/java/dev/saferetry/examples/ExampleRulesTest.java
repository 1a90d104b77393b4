package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rules of an example a user copies: every class directly in {@code dev.saferetry.examples} is
 * one runnable program — a {@code main}, at most {@value #MAX_LINES} lines counting every line of
 * the file, no SDK package but exported ones — and the README's example table lists it with one
 * command that runs it; it imports SafeRetry's published artifacts, never the examples' own support
 * code, so it can be copied alone (but for {@link #STILL_ON_SUPPORT}). A {@link #COMPANIONS
 * companion} is a file of an example, copied with it: the same rules but for the {@code main} and
 * the README row, which are its example's, whose row names it.
 */
class ExampleRulesTest {
  static final int MAX_LINES = 80;
  static final Path README = Path.of("../README.md");
  private static final Pattern MAIN =
      Pattern.compile("(?m)^\\s*public static void main\\(String\\[\\] \\w+\\)");
  private static final Pattern ROW = Pattern.compile("(?m)^\\| `(\\w+)` \\|.*\\| (.+) \\|$");

  /** The README's example table: each example's name and its command cell, in order. */
  static Map<String, String> readmeTable(String readme) {
    int start = readme.indexOf("\n## Examples\n");
    assertThat(start).as("the README has an Examples section").isPositive();
    int end = readme.indexOf("\n## ", start + 1);
    String section = readme.substring(start, end < 0 ? readme.length() : end);
    Map<String, String> rows = new LinkedHashMap<>();
    Matcher m = ROW.matcher(section);
    while (m.find()) {
      rows.put(m.group(1), m.group(2));
    }
    return rows;
  }

  /** What is wrong with {@code example}, a file directly in the examples' package. */
  static List<String> problems(Path example, Map<String, String> table, Set<String> allowed)
      throws IOException {
    String name = example.getFileName().toString().replace(".java", "");
    String source = Files.readString(example);
    List<String> problems = new ArrayList<>();
    long lines = source.lines().count();
    if (lines > MAX_LINES) {
      problems.add(name + " has " + lines + " lines, more than " + MAX_LINES);
    }
    String owner = COMPANIONS.get(name);
    if (owner == null && !MAIN.matcher(source).find()) {
      problems.add(name + " has no public static void main(String[])");
    }
    if (Pattern.compile("(?m)^import (static )?dev\\.saferetry\\.internal")
        .matcher(source)
        .find()) {
      problems.add(name + " imports an internal package of the SDK");
    }
    for (String bad : PublicApiOnlyTest.violations(source, allowed)) {
      problems.add(name + " names " + bad + ", which is not exported");
    }
    if (!STILL_ON_SUPPORT.contains(name)
        && Pattern.compile("(?m)^import (static )?dev\\.saferetry\\.examples\\.(support|payments)")
            .matcher(source)
            .find()) {
      problems.add(name + " imports the examples' own support code: it cannot be copied alone");
    }
    if (owner != null) {
      if (!table.containsKey(owner)) {
        problems.add(
            name + " belongs to " + owner + ", which is not in the README's example table");
      }
      return problems;
    }
    String command = table.get(name);
    String runs = "-Dexec.mainClass=dev.saferetry.examples." + name;
    if (command == null) {
      problems.add(name + " is missing from the README's example table");
    } else if (!command.contains(runs + " ") && !command.endsWith(runs + "`")
        || command.split("mvn ", -1).length != 2) {
      problems.add(name + "'s README row does not give one command that runs it: " + command);
    }
    return problems;
  }

  /**
   * The examples that still import helpers of {@code support} (each helper is longer than an
   * example may be, so it needs a home in a published artifact first). Every other example imports
   * SafeRetry's published artifacts only, and can be copied alone.
   */
  static final Set<String> STILL_ON_SUPPORT = Set.of("QueueConsumer", "WebhookReceiver");

  /**
   * Files of an example that are not its {@code main}, each with the example it belongs to: a user
   * copies both (the README row of the example names the companion).
   */
  static final Map<String, String> COMPANIONS = Map.of("AttemptTracing", "OpenTelemetryTracing");

  static Set<String> allowed() throws IOException {
    Set<String> allowed = new TreeSet<>(PublicApiOnlyTest.exportedPackages());
    allowed.add("dev.saferetry.examples");
    allowed.add("dev.saferetry.payments");
    allowed.add("dev.saferetry.stripe");
    allowed.add("dev.saferetry.testing.provider");
    allowed.add("dev.saferetry.conformance.server");
    allowed.add("dev.saferetry.examples.support");
    allowed.add("dev.saferetry.examples.support.stripe");
    return allowed;
  }

  static List<Path> examples() throws IOException {
    return PublicApiOnlyTest.sources(PublicApiOnlyTest.EXAMPLES, false).stream()
        .filter(p -> !p.getFileName().toString().equals("package-info.java"))
        .toList();
  }

  @Test
  void everyExampleIsAShortMainOnPublicApiListedInTheReadmeWithItsCommand() throws IOException {
    Map<String, String> table = readmeTable(Files.readString(README));
    Set<String> allowed = allowed();
    List<String> problems = new ArrayList<>();
    List<Path> examples = examples();
    assertThat(examples).hasSizeGreaterThan(15);
    for (Path example : examples) {
      problems.addAll(problems(example, table, allowed));
    }
    assertThat(problems).isEmpty();
  }

  @Test
  void everyCompanionIsNamedInItsExamplesReadmeRowAndUsedByIt() throws IOException {
    String readme = Files.readString(README);
    for (Map.Entry<String, String> c : COMPANIONS.entrySet()) {
      String row =
          readme.lines().filter(l -> l.startsWith("| `" + c.getValue() + "` |")).findFirst().get();
      assertThat(row).as(c.getValue() + "'s README row").contains("`" + c.getKey() + "`");
      assertThat(Files.readString(PublicApiOnlyTest.EXAMPLES.resolve(c.getValue() + ".java")))
          .containsPattern("\\b" + c.getKey() + "\\b");
      assertThat(PublicApiOnlyTest.EXAMPLES.resolve(c.getKey() + ".java")).exists();
    }
  }

  @Test
  void theReadmeTableListsOnlyExamplesThatExist() throws IOException {
    Set<String> names = new TreeSet<>();
    for (Path example : examples()) {
      names.add(example.getFileName().toString().replace(".java", ""));
    }
    assertThat(names).containsAll(readmeTable(Files.readString(README)).keySet());
  }

  @Test
  void theRulesCatchAPlantedOffender(@TempDir Path dir) throws IOException {
    StringBuilder source = new StringBuilder("package dev.saferetry.examples;\n");
    source.append("import dev.saferetry.internal.Json;\n");
    source.append("public final class Planted {\n");
    for (int i = 0; i < MAX_LINES; i++) {
      source.append("  // filler\n");
    }
    source.append("  static void run() {}\n}\n");
    Path planted = Files.writeString(dir.resolve("Planted.java"), source);
    Path listed = Files.writeString(dir.resolve("Listed.java"), "class Listed {}\n");
    Map<String, String> table =
        readmeTable(
            "# x\n\n## Examples\n\n| Example | What | Command |\n|---|---|---|\n"
                + "| `Listed` | x | `mvn exec:java -Dexec.mainClass=dev.saferetry.examples.Other`,"
                + " then `mvn exec:java -Dexec.mainClass=dev.saferetry.examples.Listed` |\n"
                + "\n## Next\n");

    assertThat(problems(planted, table, allowed()))
        .containsExactly(
            "Planted has " + (MAX_LINES + 5) + " lines, more than " + MAX_LINES,
            "Planted has no public static void main(String[])",
            "Planted imports an internal package of the SDK",
            "Planted names dev.saferetry.internal.Json, which is not exported",
            "Planted is missing from the README's example table");
    assertThat(problems(listed, table, allowed()))
        .contains("Listed has no public static void main(String[])")
        .anyMatch(p -> p.startsWith("Listed's README row does not give one command"));
    // A companion has no main and no row of its own, but keeps the length and import rules.
    String companion =
        source
            .toString()
            .replace("class Planted", "class AttemptTracing")
            .replace(
                "import dev.saferetry.internal.Json;", "import dev.saferetry.examples.support.X;");
    Path planted2 = Files.writeString(dir.resolve("AttemptTracing.java"), companion);
    assertThat(problems(planted2, table, allowed()))
        .containsExactly(
            "AttemptTracing has " + (MAX_LINES + 5) + " lines, more than " + MAX_LINES,
            "AttemptTracing imports the examples' own support code: it cannot be copied alone",
            "AttemptTracing belongs to OpenTelemetryTracing, which is not in the README's example"
                + " table");
  }
}
