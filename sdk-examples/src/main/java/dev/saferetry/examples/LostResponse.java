package dev.saferetry.examples;

import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.examples.payments.Charge;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.PaymentsClient;

/**
 * Lost response: when the server commits a charge and the connection closes before the response
 * arrives, the SDK cannot know whether the charge exists, so it retries with the same key; the
 * server recognises the key and replays the stored charge instead of charging again. Nothing in the
 * code below handles that case: it is what every call does.
 *
 * <pre>
 * mvn -B -q -pl sdk-examples -am compile exec:java \
 *     -Dexec.mainClass=dev.saferetry.examples.LostResponse -Dexec.args=http://127.0.0.1:8080
 * </pre>
 *
 * <p>The guided tour ({@code -Dexec.args=lost-response} on the demo) runs it against a server that
 * loses the first response.
 */
public final class LostResponse {
  private LostResponse() {}

  /** Charges order 1002 once, however many attempts that takes. */
  public static CallResult<Charge> run(SafeRetryClientBuilder builder) {
    try (SafeRetryClient client = builder.build()) {
      CallResult<Charge> result =
          new PaymentsClient(client)
              .charges()
              .create(
                  new ChargeCreateParams(4200, "eur", "order 1002", null),
                  RequestOptions.none().withIntentId("order-1002/charge"));
      System.out.printf(
          "charge %s after %d attempt(s) with key %s, replayed by the server: %s%n",
          result.value().id(), result.attempts().size(), result.key(), result.replayed());
      return result;
    }
  }

  /** {@code [base-url]}: a payment API, by default a reference server on port 8080. */
  public static void main(String[] args) {
    run(
        SafeRetryClient.builder()
            .baseUrl(args.length > 0 ? args[0] : "http://127.0.0.1:8080")
            .apiKey(System.getenv().getOrDefault("PAYMENTS_API_KEY", "sk_test_demo")));
  }
}
