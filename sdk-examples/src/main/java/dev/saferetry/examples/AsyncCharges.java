package dev.saferetry.examples;

import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.payments.Charge;
import dev.saferetry.payments.ChargeCreateParams;
import dev.saferetry.payments.Charges;
import dev.saferetry.payments.PaymentsClient;
import dev.saferetry.resilience.Sleeper;
import java.io.PrintStream;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Asynchronous use: many charges at once through {@code CompletableFuture}s, each its own intent
 * with its own key, on one shared client. A few responses are lost on the way; those charges are
 * retried with their own key, and the server ends up with exactly one charge per intent.
 *
 * <pre>
 * mvn -B -q -pl sdk-examples -am compile exec:java \
 *     -Dexec.mainClass=dev.saferetry.examples.AsyncCharges
 * </pre>
 */
public final class AsyncCharges {
  /** How many orders are charged concurrently. */
  public static final int ORDERS = 20;

  /** How many of their responses get lost. */
  public static final int LOST_RESPONSES = 4;

  private AsyncCharges() {}

  /** Runs the scenario; {@code clock} and {@code sleeper} are the client's (fakes in tests). */
  public static Report run(Sandbox sandbox, Clock clock, Sleeper sleeper, PrintStream out) {
    String description = Sandbox.tag("async");
    WireLog wire = new WireLog();
    try (SafeRetryClient client =
        SafeRetryClient.builder()
            .baseUrl(sandbox.baseUrl())
            .apiKey("sk_test_demo")
            .listener(wire)
            .clock(clock)
            .sleeper(sleeper)
            .build()) {
      Charges charges = new PaymentsClient(client).charges();
      for (int i = 0; i < LOST_RESPONSES; i++) {
        sandbox.dropNextResponse();
      }

      List<CompletableFuture<CallResult<Charge>>> futures = new ArrayList<>();
      for (int order = 3000; order < 3000 + ORDERS; order++) {
        futures.add(
            charges.createAsync(
                new ChargeCreateParams(100 + order % 100, "eur", description, null),
                RequestOptions.builder().intentId("order-" + order + "/charge").build()));
      }
      int succeeded = 0;
      for (CompletableFuture<CallResult<Charge>> future : futures) {
        try {
          future.join();
          succeeded++;
        } catch (CompletionException e) {
          // The cause is what execute() would have thrown; an UNKNOWN outcome keeps its intent
          // pending, to be re-driven later with the same key.
          if (!(e.getCause() instanceof SafeRetryException failure)) {
            throw e;
          }
          out.printf(
              "  %s ended %s: %s%n", failure.intentId(), failure.outcome(), failure.getMessage());
        }
      }
      List<WireLog.Row> attempts = wire.rows();
      long keys = attempts.stream().map(WireLog.Row::key).distinct().count();
      out.printf(
          "  %d of %d charges succeeded with %d distinct keys in %d attempts%n",
          succeeded, ORDERS, keys, attempts.size());
      return new Report(
          "async",
          ORDERS,
          sandbox.sideEffects(description),
          client.pendingIntents().size(),
          retriedFirst(attempts));
    }
  }

  /** Orders the log by intent and attempt, and summarises intents that needed one attempt. */
  static List<WireLog.Row> retriedFirst(List<WireLog.Row> attempts) {
    Map<String, List<WireLog.Row>> byIntent = new TreeMap<>();
    attempts.forEach(r -> byIntent.computeIfAbsent(r.intentId(), k -> new ArrayList<>()).add(r));
    List<WireLog.Row> rows = new ArrayList<>();
    byIntent.values().stream().filter(list -> list.size() > 1).forEach(rows::addAll);
    long single = byIntent.values().stream().filter(list -> list.size() == 1).count();
    rows.add(WireLog.Row.note(single + " other intents: one attempt each, one key each"));
    return rows;
  }

  /** Runs the example against an in-process server, or the base URL given as argument. */
  public static void main(String[] args) {
    try (Sandbox sandbox = Sandbox.fromArgs(args, 0)) {
      Report report = run(sandbox, Clock.systemUTC(), Sleeper.system(), System.out);
      report.print(System.out);
      System.out.println(report.verdict());
    }
  }
}
