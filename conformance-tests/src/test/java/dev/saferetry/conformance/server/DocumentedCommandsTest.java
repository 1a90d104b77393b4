package dev.saferetry.conformance.server;

import static dev.saferetry.conformance.server.DocumentedCommands.after;
import static dev.saferetry.conformance.server.DocumentedCommands.execArgs;
import static dev.saferetry.conformance.server.DocumentedCommands.option;
import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.conformance.ConformanceRunner;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The documentation's commands against the project's own reference server, run with exactly the
 * arguments the documents show (read from them, so that the two cannot drift): a suite run without
 * a target grades the in-process reference server; a suite run whose target is a reference server
 * the same code block starts grades that one. Each must end with every case passing, exit status 0.
 * Only the port (any free one instead of the documented one) and the report directory (under {@code
 * target}) differ. The webhook receiver's commands are run by {@code sdk-examples}.
 */
class DocumentedCommandsTest {
  private static final Path ROOT = Path.of("..");
  private static final String REFERENCE = "dev.saferetry.conformance.server.ReferenceServer";
  private static final Pattern LOOPBACK = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)(/.*)?");
  private static final String ALL_PASSED =
      ", 0 not met, 0 not run, 0 errors -- every MUST case ran and passed (exit 0)";

  private int runs;
  private final Set<List<String>> graded = new HashSet<>();

  @Test
  void everyDocumentedSuiteRunAgainstTheReferenceServerPassesEveryCase() throws Exception {
    List<String> ran = new ArrayList<>();
    for (Path document : DocumentedCommands.documents(ROOT)) {
      for (List<List<String>> block : DocumentedCommands.blocks(document)) {
        ran.addAll(runBlock(ROOT.relativize(ROOT.resolve(document)).toString(), block));
      }
    }

    assertThat(ran)
        .as("documented runs of the suite against the reference server")
        .anyMatch(r -> r.contains("in-process"))
        .anyMatch(r -> r.contains("--profile ietf,reference"))
        .anyMatch(r -> r.contains("profiles/example-server.properties"));
  }

  @Test
  void theReadmeShowsTheExampleProfileWordForWord() throws Exception {
    String profile = Files.readString(Path.of("profiles", "example-server.properties"));
    String readme = Files.readString(Path.of("README.md"));

    assertThat(readme).contains("```properties\n" + profile + "```\n");
  }

  private List<String> runBlock(String document, List<List<String>> block) throws Exception {
    Map<String, List<String>> servers = new HashMap<>();
    List<String> ran = new ArrayList<>();
    for (List<String> command : block) {
      List<String> serverArgs = after(command, REFERENCE);
      if (serverArgs != null && command.get(0).equals("java")) {
        servers.put(String.valueOf(option(serverArgs, "--port")), serverArgs);
        continue;
      }
      List<String> suite = suiteArgs(command);
      String profile = suite == null ? null : option(suite, "--profile");
      if (suite == null || profile != null && profile.contains("webhook")) {
        continue;
      }
      String target = option(suite, "--target");
      List<String> serverArgsOfTarget = target == null ? null : servers.get(portOf(target));
      if (!graded.add(serverArgsOfTarget == null ? suite : concat(serverArgsOfTarget, suite))) {
        continue; // the same command in another document: graded once
      }
      if (target == null) {
        ran.add(run(document, "in-process", suite, null));
        continue;
      }
      Matcher loopback = LOOPBACK.matcher(target);
      if (loopback.matches() && servers.containsKey(loopback.group(1))) {
        List<String> args = new ArrayList<>(servers.get(loopback.group(1)));
        args.set(args.indexOf("--port") + 1, "0");
        try (ReferenceServer server = ReferenceServerMain.start(args.toArray(String[]::new))) {
          ran.add(run(document, target, suite, server.baseUrl()));
        }
      }
    }
    return ran;
  }

  private static String portOf(String target) {
    Matcher loopback = LOOPBACK.matcher(target);
    return loopback.matches() ? loopback.group(1) : null;
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  /** The suite's arguments in a documented command, or null when it does not run the suite. */
  private static List<String> suiteArgs(List<String> command) {
    int jar = command.indexOf("-jar");
    if (command.get(0).equals("java")
        && jar >= 0
        && jar + 1 < command.size()
        && command.get(jar + 1).matches(".*saferetry-conformance-.*-all\\.jar")) {
      return new ArrayList<>(command.subList(jar + 2, command.size()));
    }
    if (command.get(0).equals("mvn") && command.contains("exec:java@suite")) {
      List<String> args = execArgs(command);
      return args == null ? new ArrayList<>() : args;
    }
    return null;
  }

  private String run(String document, String what, List<String> documented, String baseUrl) {
    List<String> args = new ArrayList<>();
    for (int i = 0; i < documented.size(); i++) {
      String word = documented.get(i);
      boolean value = i > 0;
      if (value && documented.get(i - 1).equals("--target") && baseUrl != null) {
        Matcher m = LOOPBACK.matcher(word);
        word = m.matches() && m.group(2) != null ? baseUrl + m.group(2) : baseUrl;
      } else if (value && documented.get(i - 1).equals("--profile")) {
        word =
            List.of(word.split(",")).stream()
                .map(p -> p.contains("/") ? ROOT.resolve(p).toString() : p)
                .collect(Collectors.joining(","));
      }
      args.add(word);
    }
    Path reports = Path.of("target", "documented-commands", Integer.toString(++runs));
    args.add("--report-dir");
    args.add(reports.toString());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int status =
        ConformanceRunner.execute(
            args.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8));
    String output = out.toString(StandardCharsets.UTF_8);
    System.out.println(output);
    String shown = document + ": " + String.join(" ", documented) + " (" + what + ")";
    assertThat(status).as(shown + "\n" + output).isZero();
    assertThat(output).as(shown).contains(ALL_PASSED);
    assertThat(Files.exists(reports.resolve("conformance-report.md"))).isTrue();
    return shown;
  }
}
