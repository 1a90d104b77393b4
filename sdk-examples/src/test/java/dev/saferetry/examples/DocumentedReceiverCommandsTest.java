package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.conformance.ConformanceRunner;
import dev.saferetry.examples.support.WebhookEndpoint;
import dev.saferetry.examples.support.WebhookEndpoint.Settings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The documentation's commands that grade the example receiver, run with exactly the arguments the
 * documents show (read from their code blocks, so that the two cannot drift): the receiver started
 * as documented, then the suite as documented. Every case must pass, exit status 0. Only the port
 * (any free one instead of the documented one) and the report directory (under {@code target})
 * differ.
 */
class DocumentedReceiverCommandsTest {
  private static final Path ROOT = Path.of("..");
  private static final String RECEIVER = "-Dexec.mainClass=dev.saferetry.examples.WebhookReceiver";
  private static final Pattern LOOPBACK = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)");

  @Test
  void theDocumentedCommandsGradeTheExampleReceiverWithEveryCasePassing() throws Exception {
    List<String> ran = new ArrayList<>();
    for (Path document : documents()) {
      for (List<List<String>> block : blocks(document)) {
        List<String> receiver = null;
        for (List<String> command : block) {
          if (command.contains(RECEIVER)) {
            receiver = execArgs(command);
          } else if (receiver != null && isSuite(command)) {
            ran.add(grade(document, receiver, command));
          }
        }
      }
    }

    assertThat(ran).as("documented gradings of the example receiver").isNotEmpty();
  }

  private static String grade(Path document, List<String> receiverArgs, List<String> command)
      throws Exception {
    List<String> suite =
        new ArrayList<>(command.subList(command.indexOf("-jar") + 2, command.size()));
    int target = suite.indexOf("--target") + 1;
    Matcher documented = LOOPBACK.matcher(suite.get(target));
    List<String> args = new ArrayList<>(receiverArgs);
    int port = args.indexOf("--port") + 1;
    assertThat(documented.matches() && args.get(port).equals(documented.group(1)))
        .as(document + ": the suite grades the receiver the same block starts")
        .isTrue();
    args.set(port, "0");
    String shown = document + ": " + String.join(" ", command);
    try (WebhookEndpoint receiver =
        WebhookReceiver.start(Settings.parse(args.toArray(String[]::new)))) {
      suite.set(target, "http://127.0.0.1:" + receiver.port());
      suite.add("--report-dir");
      suite.add(Path.of("target", "documented-receiver-commands").toString());
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      int status =
          ConformanceRunner.execute(
              suite.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8));
      String output = out.toString(StandardCharsets.UTF_8);
      assertThat(status).as(shown + "\n" + output).isZero();
      assertThat(output)
          .as(shown)
          .contains(", 0 not met, 0 not run, 0 errors -- every MUST case ran and passed (exit 0)");
    }
    return shown;
  }

  private static boolean isSuite(List<String> command) {
    int jar = command.indexOf("-jar");
    return command.get(0).equals("java")
        && jar >= 0
        && jar + 1 < command.size()
        && command.get(jar + 1).matches(".*saferetry-conformance-.*-all\\.jar")
        && command.contains("webhook");
  }

  private static List<String> execArgs(List<String> command) {
    return command.stream()
        .filter(w -> w.startsWith("-Dexec.args="))
        .findFirst()
        .map(w -> words(w.substring("-Dexec.args=".length())))
        .orElseThrow();
  }

  private static List<Path> documents() throws IOException {
    List<Path> files = new ArrayList<>(List.of(ROOT.resolve("README.md")));
    files.add(ROOT.resolve("conformance-tests/README.md"));
    if (Files.isDirectory(ROOT.resolve("docs"))) {
      try (Stream<Path> walk = Files.walk(ROOT.resolve("docs"))) {
        walk.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
      }
    }
    return files;
  }

  /** Each fenced block's commands: continuations joined, comments dropped, split into words. */
  private static List<List<List<String>>> blocks(Path markdown) throws IOException {
    List<List<List<String>>> blocks = new ArrayList<>();
    List<List<String>> block = null;
    StringBuilder line = new StringBuilder();
    boolean inside = false;
    for (String raw : Files.readAllLines(markdown)) {
      String text = raw.strip();
      if (text.startsWith("```")) {
        inside = !inside;
        if (inside) {
          block = new ArrayList<>();
          blocks.add(block);
        }
      } else if (inside && !text.startsWith("#")) {
        if (text.endsWith("\\")) {
          line.append(text, 0, text.length() - 1).append(' ');
        } else {
          line.append(text);
          List<String> words = words(line.toString());
          line.setLength(0);
          if (!words.isEmpty()) {
            block.add(words);
          }
        }
      }
    }
    return blocks;
  }

  /** Shell words: blanks separate them, quotes group and disappear, a trailing {@code &} goes. */
  private static List<String> words(String line) {
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    boolean inWord = false;
    char quote = 0;
    for (char c : line.toCharArray()) {
      if (quote != 0 && c == quote) {
        quote = 0;
      } else if (quote != 0) {
        word.append(c);
      } else if (c == '"' || c == '\'') {
        quote = c;
        inWord = true;
      } else if (Character.isWhitespace(c)) {
        if (inWord) {
          words.add(word.toString());
          word.setLength(0);
        }
        inWord = false;
      } else {
        word.append(c);
        inWord = true;
      }
    }
    if (inWord) {
      words.add(word.toString());
    }
    if (!words.isEmpty() && words.get(words.size() - 1).equals("&")) {
      words.remove(words.size() - 1);
    }
    return words;
  }
}
