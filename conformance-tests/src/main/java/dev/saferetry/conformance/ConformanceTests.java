package dev.saferetry.conformance;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * Runs the suite inside a user's JUnit 5 build: one dynamic test per case, named by its id.
 *
 * <pre>{@code
 * class PaymentsApiConformanceTest {
 *   @TestFactory
 *   Stream<DynamicTest> idempotencyKeyContract() {
 *     return ConformanceTests.of(SuiteConfig.builder()
 *         .target("http://127.0.0.1:8080")
 *         .profile("ietf,src/test/resources/payments-api.properties")
 *         .build());
 *   }
 * }
 * }</pre>
 *
 * <p>The whole suite runs when the factory is called (reports go to {@code
 * target/conformance-report}); the dynamic tests then replay its verdicts: a failed MUST case
 * fails; SHOULD and MAY failures and cases that did not run are aborted (skipped) with their
 * reason; a last test, {@code verdict}, fails when MUST cases did not run or the configuration
 * could not grade the server, so that an unproven server never reads as a green build. Needs
 * junit-jupiter-api on the test classpath (the suite does not bring it).
 *
 * <p>Thread-safe (stateless).
 */
public final class ConformanceTests {
  private ConformanceTests() {}

  /**
   * Runs the suite, writing reports into {@code target/conformance-report} and progress to {@code
   * System.out}.
   *
   * @param config the target, profiles and overrides
   * @return one dynamic test per case, then the {@code verdict} test
   * @throws IllegalArgumentException when the configuration is malformed
   * @throws java.io.UncheckedIOException when a report cannot be written
   */
  public static Stream<DynamicTest> of(SuiteConfig config) {
    return of(config, Path.of("target", "conformance-report"), System.out);
  }

  /**
   * Runs the suite, writing reports into {@code reportDir} and progress to {@code out}.
   *
   * @param config the target, profiles and overrides
   * @param reportDir the directory for the Markdown and JUnit XML reports
   * @param out where progress and the summary are printed
   * @return one dynamic test per case, then the {@code verdict} test
   * @throws IllegalArgumentException when the configuration is malformed
   * @throws java.io.UncheckedIOException when a report cannot be written
   */
  public static Stream<DynamicTest> of(SuiteConfig config, Path reportDir, PrintStream out) {
    RunResult run = ConformanceRunner.run(Objects.requireNonNull(config, "config"), reportDir, out);
    List<DynamicTest> tests = new ArrayList<>();
    run.results().forEach(r -> tests.add(DynamicTest.dynamicTest(r.id(), () -> replay(r))));
    tests.add(DynamicTest.dynamicTest("verdict", () -> verdict(run)));
    return tests.stream();
  }

  private static void replay(CaseResult r) {
    String evidence =
        r.exchanges().stream().map(Exchange::summary).reduce("", (a, b) -> a + "\n  " + b);
    if (r.mustFailed()) {
      throw new AssertionFailedError(r.id() + " (MUST): " + r.message() + evidence);
    }
    if (r.verdict() != Verdict.PASS) {
      String what = r.verdict() == Verdict.FAIL ? " not met: " : " " + r.verdict() + ": ";
      throw new TestAbortedException(r.level() + what + r.message());
    }
  }

  private static void verdict(RunResult run) {
    ExitStatus status = run.exitStatus();
    if (status == ExitStatus.MUST_NOT_RUN || status == ExitStatus.CONFIGURATION_ERROR) {
      throw new AssertionFailedError(String.join("\n", ConsoleReport.verdictLines(run)));
    }
  }
}
