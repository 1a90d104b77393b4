package dev.saferetry.examples;

import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.payments.Charge;
import dev.saferetry.payments.ChargeCreateParams;
import dev.saferetry.payments.PaymentsClient;
import dev.saferetry.resilience.Sleeper;
import java.io.PrintStream;
import java.time.Clock;

/**
 * Lost response: the server commits the charge, then the connection closes before the response
 * arrives. The SDK cannot know whether the charge exists, so it retries with the same key; the
 * server recognises the key and replays the stored charge instead of charging again.
 *
 * <pre>
 * mvn -B -q -pl sdk-examples -am compile exec:java \
 *     -Dexec.mainClass=dev.saferetry.examples.LostResponse
 * </pre>
 *
 * <p>An optional argument names a reference server started with {@code --test-hooks}.
 */
public final class LostResponse {
  private LostResponse() {}

  /** Runs the scenario; {@code clock} and {@code sleeper} are the client's (fakes in tests). */
  public static Report run(Sandbox sandbox, Clock clock, Sleeper sleeper, PrintStream out) {
    String description = Sandbox.tag("lost-response");
    WireLog wire = new WireLog();
    try (SafeRetryClient client =
        SafeRetryClient.builder()
            .baseUrl(sandbox.baseUrl())
            .apiKey("sk_test_demo")
            .listener(wire)
            .clock(clock)
            .sleeper(sleeper)
            .build()) {
      sandbox.dropNextResponse(); // the world outside: the next response never arrives

      CallResult<Charge> result =
          new PaymentsClient(client)
              .charges()
              .create(
                  new ChargeCreateParams(4200, "eur", description, null),
                  RequestOptions.builder().intentId("order-1002/charge").build());

      out.printf(
          "  charge %s after %d attempts, replayed by the server: %s%n",
          result.value().id(), result.attempts().size(), result.replayed());
      return new Report(
          "lost-response",
          1,
          sandbox.sideEffects(description),
          client.pendingIntents().size(),
          wire.rows());
    }
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
