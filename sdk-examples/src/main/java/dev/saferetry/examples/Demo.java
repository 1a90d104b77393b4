package dev.saferetry.examples;

import dev.saferetry.resilience.Sleeper;
import java.io.PrintStream;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The guided tour: every example in turn against a fresh in-process reference server, printing what
 * happened on the wire (attempt, key, request id, status or fault, delay) and the charges the
 * server made next to the charges the caller intended. It ends with one verdict per scenario and
 * exits with status 1 if any scenario produced a duplicate or lost an intent.
 *
 * <pre>
 * mvn -B -q -pl sdk-examples -am compile exec:java
 * </pre>
 */
public final class Demo {
  private Demo() {}

  /** One scenario of the tour: runs against a fresh sandbox and reports. */
  @FunctionalInterface
  interface Scenario {
    Report run(Sandbox sandbox, Clock clock, Sleeper sleeper, PrintStream out) throws Exception;
  }

  record Step(String name, String title, String story, Scenario scenario) {}

  static List<Step> steps() {
    return List.of(
        new Step(
            "quick-start",
            "Quick start",
            "one charge as a named intent, read back by id",
            (s, clock, sleeper, out) -> QuickStart.run(s, out)),
        new Step(
            "lost-response",
            "Lost response",
            "the server commits, the response is lost; the SDK retries with the same key"
                + " and the server replays",
            LostResponse::run),
        new Step(
            "outage",
            "Outage",
            "503 + Retry-After, retries run out, the breaker opens; the intent stays pending"
                + " and completes once the API is back",
            Outage::run),
        new Step(
            "crash-recover",
            "Crash and recover",
            "process 1 is killed mid-request; process 2 finds the pending intent in the file"
                + " store and re-drives it",
            (s, clock, sleeper, out) -> CrashDrill.run(s, out)),
        new Step(
            "provider-profiles",
            "Provider profiles",
            "the key in PayPal-Request-Id, then in a JSON body field (Square's"
                + " idempotency_key), each losing a response",
            Demo::providers),
        new Step(
            "async",
            "Asynchronous use",
            AsyncCharges.ORDERS
                + " concurrent charges through CompletableFutures, "
                + AsyncCharges.LOST_RESPONSES
                + " responses lost",
            AsyncCharges::run),
        new Step(
            "own-parts",
            "Bring your own parts",
            "your OkHttpClient, interceptor, ObjectMapper and a metrics listener",
            (s, clock, sleeper, out) -> BringYourOwnParts.run(s, clock, sleeper, out).report()));
  }

  private static Report providers(Sandbox ignored, Clock clock, Sleeper sleeper, PrintStream out) {
    try (Sandbox paypal = Sandbox.inProcess(b -> b.keyHeader("PayPal-Request-Id"));
        Sandbox square = Sandbox.inProcess(b -> b.keyBodyField("idempotency_key"))) {
      return ProviderProfiles.run(paypal, square, clock, sleeper, out);
    }
  }

  /** Runs every scenario and returns the reports, in order; a crash counts as a failure. */
  public static List<Report> tour(Clock clock, Sleeper sleeper, PrintStream out) {
    List<Report> reports = new ArrayList<>();
    int n = 0;
    for (Step step : steps()) {
      out.printf("%n== %d. %s: %s%n", ++n, step.title(), step.story());
      long start = System.nanoTime();
      try (Sandbox sandbox = Sandbox.inProcess(b -> b)) {
        Report report = step.scenario().run(sandbox, clock, sleeper, out);
        report.print(out);
        out.printf("  (%.1f s)%n", (System.nanoTime() - start) / 1e9);
        reports.add(report);
      } catch (Exception e) {
        out.println("  scenario failed: " + e);
        reports.add(new Report(step.name(), 1, -1, 0, List.of()));
      }
    }
    return reports;
  }

  /** Runs the tour and exits with 1 if any scenario duplicated or lost a charge. */
  public static void main(String[] args) {
    long start = System.nanoTime();
    System.out.println(
        "SafeRetry guided tour: exactly-once charges through lost responses,"
            + " outages and a crash.");
    System.out.println(
        "Each table has one row per attempt on the wire: the idempotency key stays"
            + " the same for every attempt of an intent, the request id (tracing only) changes.");
    List<Report> reports = tour(Clock.systemUTC(), Sleeper.system(), System.out);
    System.out.printf("%n== Verdicts (%.1f s)%n", (System.nanoTime() - start) / 1e9);
    reports.forEach(r -> System.out.println(r.verdict()));
    int status = exitStatus(reports);
    System.out.println(
        status == 0
            ? "All scenarios: one charge per intent, none lost."
            : "FAILED: a scenario produced a duplicate or lost an intent.");
    System.out.flush();
    if (status != 0) {
      System.exit(status);
    }
  }

  /** Returns 0 if every scenario passed, else 1. */
  static int exitStatus(List<Report> reports) {
    return reports.stream().allMatch(Report::passed) ? 0 : 1;
  }
}
