package dev.saferetry.examples.demo;

import dev.saferetry.examples.AsyncCharges;
import dev.saferetry.examples.support.OutboxDrill;
import dev.saferetry.resilience.Sleeper;
import java.io.PrintStream;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The guided tour: the examples in turn, each against a fresh in-process reference server arranged
 * to misbehave the way the example is about, printing what happened on the wire (attempt, key,
 * request id, status or fault, delay) and the charges the server made next to the charges the
 * caller intended. It ends with one verdict per scenario and exits with status 1 if any scenario
 * produced a duplicate or lost an intent.
 *
 * <pre>
 * mvn -B -q -pl sdk-examples -am compile exec:java                              # every scenario
 * mvn -B -q -pl sdk-examples -am compile exec:java -Dexec.args="lost-response"  # some of them
 * </pre>
 */
public final class Demo {
  private Demo() {}

  /** One scenario of the tour. */
  @FunctionalInterface
  interface Scenario {
    Report run(Scenarios scenarios, PrintStream out) throws Exception;
  }

  record Step(String name, String story, Scenario scenario) {}

  static List<Step> steps() {
    return List.of(
        new Step(
            "quick-start",
            "one charge as a named intent, read back by id",
            (s, out) -> s.quickStart()),
        new Step(
            "lost-response",
            "the server commits, the response is lost; the SDK retries with the same key and the"
                + " server replays",
            (s, out) -> s.lostResponse()),
        new Step(
            "outage",
            "503 + Retry-After, retries run out (UNKNOWN), the breaker opens; the intent stays"
                + " pending and completes once the API is back",
            (s, out) -> s.outage()),
        new Step(
            "crash-recover",
            "process 1 is killed mid-request; process 2 finds the pending intent in the file store"
                + " and re-drives it",
            (s, out) -> CrashDrill.run(out)),
        new Step(
            "outbox",
            "orders and their charge intents committed in one transaction, some rolled back; relay"
                + " process 1 is killed mid-charge, relay process 2 finishes",
            (s, out) -> {
              OutboxDrill.Result r = OutboxDrill.run(null, out);
              out.println("  " + r.verdict());
              return new Report(
                  "outbox",
                  r.ok() ? r.committed() : r.committed() + 1, // a failed drill never passes
                  r.charges(),
                  r.pendingLeft(),
                  List.of(WireLog.Row.note(r.verdict())));
            }),
        new Step(
            "provider-profiles",
            "the key in PayPal-Request-Id, then in Square's idempotency_key body field, each"
                + " losing a response",
            (s, out) -> s.providerProfiles()),
        new Step(
            "stripe-style",
            "Stripe's wire format with the Stripe preset: form bodies, a Stripe-Account, cursor"
                + " pages, a refund and a body-less DELETE; the charge's answer is lost",
            (s, out) -> s.stripeStyle(out)),
        new Step(
            "async",
            AsyncCharges.ORDERS
                + " concurrent charges through CompletableFutures, "
                + Scenarios.ASYNC_LOST_RESPONSES
                + " responses lost",
            (s, out) -> s.async()),
        new Step(
            "own-parts",
            "your OkHttpClient, interceptor, ObjectMapper and a logging listener",
            (s, out) -> s.ownParts()));
  }

  /** Runs the named scenarios (all when none is named); a crash counts as a failure. */
  public static List<Report> tour(
      List<String> names, Clock clock, Sleeper sleeper, PrintStream out) {
    List<Step> steps =
        steps().stream().filter(s -> names.isEmpty() || names.contains(s.name())).toList();
    if (steps.size() < new java.util.HashSet<>(names).size()) {
      throw new IllegalArgumentException(
          "unknown scenario in " + names + "; known: " + steps().stream().map(Step::name).toList());
    }
    Scenarios scenarios = new Scenarios(clock, sleeper);
    List<Report> reports = new ArrayList<>();
    for (Step step : steps) {
      out.printf("%n== %s: %s%n", step.name(), step.story());
      out.flush();
      long start = System.nanoTime();
      try {
        Report report = step.scenario().run(scenarios, out);
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

  /** {@code [scenario...]}: runs the tour and exits with 1 if any scenario failed. */
  public static void main(String[] args) {
    long start = System.nanoTime();
    System.out.println(
        "SafeRetry guided tour: exactly-once charges through lost responses, an outage and a"
            + " crash. Each table has one row per attempt on the wire: the idempotency key stays"
            + " the same for every attempt of an intent, the request id (tracing only) changes.");
    List<Report> reports =
        tour(Arrays.asList(args), Clock.systemUTC(), Sleeper.system(), System.out);
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
