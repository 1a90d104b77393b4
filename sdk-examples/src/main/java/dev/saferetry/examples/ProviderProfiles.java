package dev.saferetry.examples;

import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.idempotency.KeyPlacement;
import dev.saferetry.payments.Charge;
import dev.saferetry.payments.ChargeCreateParams;
import dev.saferetry.payments.PaymentsClient;
import dev.saferetry.resilience.Sleeper;
import java.io.PrintStream;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Provider profiles: not every API reads the key from {@code Idempotency-Key}. PayPal takes it in a
 * {@code PayPal-Request-Id} header, Square in an {@code idempotency_key} field of the JSON body.
 * One {@link KeyPlacement} setting covers both; each profile runs a lost response against a server
 * configured the same way, and the retry is still recognised: one charge each.
 *
 * <pre>
 * mvn -B -q -pl sdk-examples -am compile exec:java \
 *     -Dexec.mainClass=dev.saferetry.examples.ProviderProfiles
 * </pre>
 *
 * <p>Optional arguments: the base URLs of a header-style and a body-field-style reference server
 * ({@code --key-header PayPal-Request-Id}, {@code --key-body-field idempotency_key}).
 */
public final class ProviderProfiles {
  private ProviderProfiles() {}

  /** PayPal-style: the bare key in the {@code PayPal-Request-Id} header. */
  public static final KeyPlacement PAYPAL = KeyPlacement.header("PayPal-Request-Id");

  /** Square-style: the key as the top-level {@code idempotency_key} field of the JSON body. */
  public static final KeyPlacement SQUARE = KeyPlacement.bodyField("idempotency_key");

  /** Charges once through each profile, each losing its first response. */
  public static Report run(
      Sandbox paypalStyle, Sandbox squareStyle, Clock clock, Sleeper sleeper, PrintStream out) {
    String description = Sandbox.tag("providers");
    WireLog wire = new WireLog();
    long effects = 0;
    int pending = 0;
    for (Sandbox api : List.of(paypalStyle, squareStyle)) {
      KeyPlacement placement = api == paypalStyle ? PAYPAL : SQUARE;
      wire.note("key in " + placement);
      try (SafeRetryClient client =
          SafeRetryClient.builder()
              .baseUrl(api.baseUrl())
              .apiKey("sk_test_demo")
              .keyPlacement(placement)
              .listener(wire)
              .clock(clock)
              .sleeper(sleeper)
              .build()) {
        api.dropNextResponse();
        CallResult<Charge> result =
            new PaymentsClient(client)
                .charges()
                .create(
                    new ChargeCreateParams(1500, "usd", description, null),
                    RequestOptions.builder().intentId("order-1005/charge").build());
        out.printf(
            "  %s: charge %s after %d attempts, replayed: %s%n",
            placement, result.value().id(), result.attempts().size(), result.replayed());
        effects += api.sideEffects(description);
        pending += client.pendingIntents().size();
      }
    }
    return new Report("provider-profiles", 2, effects, pending, wire.rows());
  }

  /** Runs the example against two in-process servers, or the two base URLs given. */
  public static void main(String[] args) {
    List<Sandbox> apis = new ArrayList<>();
    try {
      apis.add(
          args.length > 0
              ? Sandbox.remote(args[0])
              : Sandbox.inProcess(b -> b.keyHeader("PayPal-Request-Id")));
      apis.add(
          args.length > 1
              ? Sandbox.remote(args[1])
              : Sandbox.inProcess(b -> b.keyBodyField("idempotency_key")));
      Report report =
          run(apis.get(0), apis.get(1), Clock.systemUTC(), Sleeper.system(), System.out);
      report.print(System.out);
      System.out.println(report.verdict());
    } finally {
      apis.forEach(Sandbox::close);
    }
  }
}
