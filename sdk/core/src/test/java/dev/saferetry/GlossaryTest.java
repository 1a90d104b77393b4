package dev.saferetry;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every name the architecture guide's glossary gives a concept is a type in the code, so the guide
 * cannot keep a name the code no longer has.
 */
class GlossaryTest {
  private static final Path ROOT = Path.of("..", "..");
  private static final Pattern NAME = Pattern.compile("`([A-Z]\\w*(?:\\.[A-Z]\\w*)?)`");

  @Test
  void everyNameInTheGlossaryIsATypeInTheSources() throws IOException {
    String guide = Files.readString(ROOT.resolve("docs/ARCHITECTURE.md"));
    String glossary = guide.substring(guide.indexOf("## Glossary"));
    List<String> names = new ArrayList<>();
    for (String row : glossary.split("\n")) {
      if (row.startsWith("| ") && !row.startsWith("| Concept")) {
        Matcher m = NAME.matcher(row.split("\\|")[2]);
        while (m.find()) {
          names.add(m.group(1));
        }
      }
    }
    assertThat(names).hasSizeGreaterThan(60);
    for (String name : names) {
      assertThat(declared(name)).as(name).isTrue();
    }
  }

  /** Whether {@code Outer} or {@code Outer.Inner} is declared in a main source file. */
  private static boolean declared(String name) throws IOException {
    String[] parts = name.split("\\.");
    try (Stream<Path> files = Files.walk(ROOT.resolve("sdk"))) {
      for (Path f : files.filter(p -> p.toString().contains("/src/main/java/")).toList()) {
        if (!f.getFileName().toString().equals(parts[0] + ".java")) {
          continue;
        }
        if (parts.length == 1) {
          return true;
        }
        Pattern nested = Pattern.compile("\\b(class|record|interface|enum) " + parts[1] + "\\b");
        if (nested.matcher(Files.readString(f)).find()) {
          return true;
        }
      }
    }
    return false;
  }
}
