package dev.saferetry.conformance;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.reporting.legacy.xml.LegacyXmlReportGeneratingListener;

/**
 * Runs the conformance suite against a server and reports, case by case, whether it honours the
 * Idempotency-Key contract.
 *
 * <pre>
 * java -jar saferetry-conformance-0.1.0-SNAPSHOT-all.jar --target http://host:port --profile ietf
 * </pre>
 *
 * <p>Options: {@code --target URL} (default: the in-process reference server), {@code --profile
 * ietf|stripe|reference|file.properties[,...]} (default {@code ietf}), {@code --set key=value} (any
 * profile property, repeatable), {@code --report-dir DIR} (default {@code conformance-report}),
 * {@code --list}. System properties {@code -Dsaferetry.<key>=value} work too. Exit status: 0, or 1
 * when a MUST case failed, 2 on a usage error. Writes {@code conformance-report.md} and JUnit XML
 * into the report directory.
 *
 * <p>Thread-safe: each {@link #run} call is independent.
 */
public final class ConformanceRunner {
  private ConformanceRunner() {}

  /** Command-line entry point; exits with the run's status. */
  public static void main(String[] args) {
    System.exit(execute(args, System.out));
  }

  /** Runs with command-line arguments; returns the exit status instead of exiting. */
  public static int execute(String[] args, PrintStream out) {
    Map<String, String> explicit = new LinkedHashMap<>(SuiteConfig.fromSystemProperties());
    // Secrets given as system properties must not leak into the JUnit XML's property dump.
    explicit.keySet().stream()
        .filter(Redaction::isSecret)
        .toList()
        .forEach(k -> System.clearProperty(SuiteConfig.PREFIX + k));
    Path reportDir = Path.of("conformance-report");
    try {
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--target" -> explicit.put("target", args[++i]);
          case "--profile" -> explicit.put("profile", args[++i]);
          case "--report-dir" -> reportDir = Path.of(args[++i]);
          case "--set" -> put(explicit, args[++i]);
          case "--list" -> {
            ConformanceSuite.cases()
                .forEach(c -> out.printf("%-32s %-6s %s%n", c.id(), c.level(), c.description()));
            return 0;
          }
          default -> throw new IllegalArgumentException("unknown option: " + args[i]);
        }
      }
      return run(SuiteConfig.resolve(explicit), reportDir, out).mustFailed() ? 1 : 0;
    } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
      out.println(
          "usage: --target URL --profile ietf|stripe|FILE --set key=value"
              + " --report-dir DIR --list  ("
              + e.getMessage()
              + ")");
      return 2;
    }
  }

  private static void put(Map<String, String> explicit, String assignment) {
    int eq = assignment.indexOf('=');
    if (eq <= 0) {
      throw new IllegalArgumentException("--set expects key=value");
    }
    explicit.put(assignment.substring(0, eq), assignment.substring(eq + 1));
  }

  /**
   * Runs every case against the configured target, prints progress and the summary table to {@code
   * out}, and writes the Markdown and JUnit XML reports into {@code reportDir}.
   */
  public static RunResult run(SuiteConfig config, Path reportDir, PrintStream out) {
    String target = config.target() == null ? "embedded reference server" : config.target();
    String profile =
        config.get("profile") == null ? config.get("profile.name") : config.get("profile");
    out.println("SafeRetry conformance suite -> " + target + " (profile " + profile + ")");
    LauncherDiscoveryRequest request =
        LauncherDiscoveryRequestBuilder.request()
            .selectors(
                ConformanceSuite.CASE_CLASSES.stream()
                    .map(DiscoverySelectors::selectClass)
                    .toList())
            .configurationParameters(config.toLauncherParameters())
            .configurationParameter("junit.jupiter.execution.parallel.enabled", "false")
            .build();
    ProgressListener progress = new ProgressListener(config, out);
    PrintWriter xmlErrors = new PrintWriter(out, true, StandardCharsets.UTF_8);
    Path xmlDir = reportDir.resolve("junit-xml");
    Launcher launcher = LauncherFactory.create();
    launcher.execute(request, progress, new LegacyXmlReportGeneratingListener(xmlDir, xmlErrors));
    Path markdown = reportDir.resolve("conformance-report.md");
    RunResult result = new RunResult(target, profile, progress.results(), markdown, xmlDir);
    Reports.printSummary(result, out);
    try {
      Reports.writeMarkdown(result, config, markdown);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    out.println("Reports: " + markdown.toAbsolutePath() + ", " + xmlDir.toAbsolutePath());
    return result;
  }
}
