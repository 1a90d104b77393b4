package dev.saferetry.examples;

import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.error.CircuitOpenException;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.payments.ChargeCreateParams;
import dev.saferetry.payments.Charges;
import dev.saferetry.payments.PaymentsClient;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.resilience.RetryPolicy;
import dev.saferetry.resilience.Sleeper;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;

/**
 * Outage: the API answers {@code 503} with {@code Retry-After: 1}. The SDK waits as asked and
 * retries with the same key; when retries run out the outcome is UNKNOWN and the intent stays
 * pending; the circuit breaker then opens and calls fail fast without I/O. Once the API is healthy
 * and the breaker's open period has passed, the same intent completes — still one charge.
 *
 * <pre>
 * mvn -B -q -pl sdk-examples -am compile exec:java \
 *     -Dexec.mainClass=dev.saferetry.examples.Outage
 * </pre>
 *
 * <p>The breaker here is tuned to open within a few calls and recover after a second, so the
 * example finishes quickly; the defaults (20 calls, 30 s) suit production.
 */
public final class Outage {
  static final Duration BREAKER_OPEN = Duration.ofSeconds(1);

  private Outage() {}

  /** Runs the scenario; {@code clock} and {@code sleeper} are the client's (fakes in tests). */
  public static Report run(Sandbox sandbox, Clock clock, Sleeper sleeper, PrintStream out)
      throws InterruptedException {
    String description = Sandbox.tag("outage");
    WireLog wire = new WireLog();
    try (OutageProxy api = new OutageProxy(sandbox.baseUrl());
        SafeRetryClient client =
            SafeRetryClient.builder()
                .baseUrl(api.baseUrl())
                .apiKey("sk_test_demo")
                .retryPolicy(RetryPolicy.defaults().withMaxAttempts(2))
                .breakerPolicy(
                    BreakerPolicy.defaults().withWindow(3, 3).withRecovery(BREAKER_OPEN, 1))
                .listener(wire)
                .clock(clock)
                .sleeper(sleeper)
                .build()) {
      Charges charges = new PaymentsClient(client).charges();
      ChargeCreateParams params = new ChargeCreateParams(2500, "eur", description, null);
      RequestOptions intent = RequestOptions.builder().intentId("order-1003/charge").build();

      api.down(true);
      for (int call = 1; call <= 3; call++) {
        try {
          charges.create(params, intent);
          throw new IllegalStateException("a call succeeded during the outage");
        } catch (CircuitOpenException e) {
          String what =
              e.attempts().isEmpty()
                  ? "breaker open, nothing sent"
                  : "breaker opened after " + e.attempts().size() + " attempt(s), retry stopped";
          wire.note(
              "call " + call + ": " + what + "; outcome " + e.outcome() + ", intent still pending");
        } catch (OutcomeUnknownException e) {
          wire.note("call " + call + ": outcome UNKNOWN, intent pending with key " + e.key());
        }
      }
      int pendingDuringOutage = client.pendingIntents().size();
      out.printf(
          "  during the outage: %d request(s) answered 503, %d intent(s) pending, "
              + "breaker %s%n",
          api.refused(), pendingDuringOutage, client.breakerState());

      api.down(false);
      // In a service a scheduled job re-drives pending intents later; here we just wait.
      sleeper.sleep(BREAKER_OPEN.plusMillis(100));
      wire.note("API healthy again; breaker open period over; same intent re-driven");
      String id = charges.create(params, intent).value().id();
      out.printf("  recovered: charge %s, breaker %s%n", id, client.breakerState());
      int notKeptDuringOutage = pendingDuringOutage == 1 ? 0 : 1; // counts as a lost intent
      return new Report(
          "outage",
          1,
          sandbox.sideEffects(description),
          client.pendingIntents().size() + notKeptDuringOutage,
          wire.rows());
    }
  }

  /** Runs the example against an in-process server, or the base URL given as argument. */
  public static void main(String[] args) throws InterruptedException {
    try (Sandbox sandbox = Sandbox.fromArgs(args, 0)) {
      Report report = run(sandbox, Clock.systemUTC(), Sleeper.system(), System.out);
      report.print(System.out);
      System.out.println(report.verdict());
    }
  }
}
