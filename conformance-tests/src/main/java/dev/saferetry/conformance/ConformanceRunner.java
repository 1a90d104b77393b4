package dev.saferetry.conformance;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Runs the conformance suite against a server and reports, case by case, whether it honours the
 * Idempotency-Key contract — or, with {@code --profile webhook}, whether a webhook receiver applies
 * every genuine delivery exactly once and refuses forged ones.
 *
 * <pre>
 * java -jar saferetry-conformance-0.1.0-SNAPSHOT-all.jar --target http://host:port --profile ietf
 * </pre>
 *
 * <p>Options: {@code --target URL} (default: the in-process reference server), {@code --profile
 * ietf|stripe|reference|webhook|file.properties[,...]} (default {@code ietf}), {@code --set
 * key=value} (any property, repeatable), {@code --report-dir DIR} (default {@code
 * conformance-report}), {@code --list}. System properties {@code -Dsaferetry.<key>=value} work too.
 * {@code --help} prints the usage and exits 0. Exit status (see {@link ExitStatus}): 0 every MUST
 * case ran and passed; 1 a MUST case failed; 2 configuration or infrastructure error (including
 * usage errors); 3 MUST cases did not run. Writes {@code conformance-report.md} and {@code
 * junit-xml/TEST-saferetry-conformance.xml} into the report directory.
 *
 * <p>Thread-safe: each {@link #run} call is independent.
 */
public final class ConformanceRunner {
  /** What {@code --help} prints, and a usage error before its message. */
  static final String USAGE =
      String.join(
          System.lineSeparator(),
          "usage: java -jar saferetry-conformance-<version>-all.jar [options]",
          "",
          "Grades a server against the Idempotency-Key contract (or, with --profile webhook, a",
          "webhook receiver) and exits with the verdict.",
          "",
          "  --target URL          the server's base URL (default: the reference server, in-process)",
          "  --profile NAMES       ietf (default), stripe, reference, webhook or FILE.properties,",
          "                        comma-separated, applied left to right",
          "  --set key=value       any property (repeatable); wins over every profile",
          "  --report-dir DIR      where the reports go (default conformance-report)",
          "  --list                print every case with its effective level, run nothing",
          "  -h, --help            print this and exit",
          "",
          "Exit status: 0 every MUST case ran and passed; 1 a MUST case FAILED; 2 configuration or",
          "infrastructure error (the server was not graded); 3 MUST cases did not run.",
          "");

  private ConformanceRunner() {}

  /**
   * Command-line entry point: runs the suite and exits the JVM with the run's {@link ExitStatus}.
   *
   * @param args the options described above
   */
  public static void main(String[] args) {
    System.exit(execute(args, System.out));
  }

  /**
   * Runs with command-line arguments like {@link #main}, but returns the exit status instead of
   * exiting; a usage, configuration or unexpected error prints its (redacted) message to {@code
   * out} and returns 2.
   *
   * @param args the options described above
   * @param out where progress, the summary and errors are printed
   * @return the exit status code (see {@link ExitStatus#code()})
   */
  public static int execute(String[] args, PrintStream out) {
    Map<String, String> explicit = new LinkedHashMap<>(SuiteConfig.fromSystemProperties());
    Path reportDir = Path.of("conformance-report");
    try {
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--target" -> explicit.put("target", args[++i]);
          case "--profile" -> explicit.put("profile", args[++i]);
          case "--report-dir" -> reportDir = Path.of(args[++i]);
          case "--set" -> put(explicit, args[++i]);
          case "--help", "-h" -> {
            out.print(USAGE);
            return 0;
          }
          case "--list" -> {
            list(explicit, out);
            return 0;
          }
          default -> throw new IllegalArgumentException("unknown option: " + args[i]);
        }
      }
      return run(SuiteConfig.resolve(explicit), reportDir, out).exitStatus().code();
    } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
      out.print(USAGE);
      return error(out, explicit, "configuration error: " + e.getMessage());
    } catch (RuntimeException e) {
      // Never let an unexpected failure exit 1, which means "a MUST case failed".
      return error(out, explicit, "infrastructure error: " + e);
    }
  }

  private static int error(PrintStream out, Map<String, String> settings, String message) {
    String safe = new Redaction(settings).text(message, 2000);
    out.println(safe + " (exit " + ExitStatus.CONFIGURATION_ERROR.code() + ")");
    return ExitStatus.CONFIGURATION_ERROR.code();
  }

  private static void list(Map<String, String> explicit, PrintStream out) {
    SuiteConfig config = SuiteConfig.resolve(explicit);
    for (CaseSpec c : Contract.named(config.get("contract")).cases()) {
      out.printf(
          Locale.ROOT, "%-34s %-6s %s%n", c.id(), config.level(c.id(), c.level()), c.description());
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
   * Runs every case against the configured target, prints progress and the summary to {@code out},
   * and writes the Markdown and JUnit XML reports into {@code reportDir}.
   *
   * @param config the target, profiles and overrides
   * @param reportDir the directory for {@code conformance-report.md} and {@code junit-xml/}
   *     (created if absent)
   * @param out where progress and the summary are printed
   * @return every verdict with its evidence, the report locations and {@link
   *     RunResult#exitStatus()}
   * @throws IllegalArgumentException when the configuration is malformed (e.g. a hook template)
   * @throws UncheckedIOException when a report cannot be written
   */
  public static RunResult run(SuiteConfig config, Path reportDir, PrintStream out) {
    RunResult run;
    try {
      run = new SuiteRun(config, out).run();
    } catch (IllegalArgumentException e) {
      // A malformed hook or counter may quote its URL: never with the credentials in it.
      throw new IllegalArgumentException(new Redaction(config).text(e.getMessage(), 2000));
    }
    Path markdown = reportDir.resolve("conformance-report.md");
    Path xml = reportDir.resolve("junit-xml").resolve("TEST-saferetry-conformance.xml");
    RunResult reported = run.withReports(markdown, xml);
    ConsoleReport.print(reported, out);
    try {
      MarkdownReport.write(reported, config, markdown);
      JunitXmlReport.write(reported, xml);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the reports into " + reportDir, e);
    }
    out.println("Reports: " + markdown.toAbsolutePath() + ", " + xml.toAbsolutePath());
    return reported;
  }
}
