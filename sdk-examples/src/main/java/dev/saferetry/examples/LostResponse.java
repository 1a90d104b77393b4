package dev.saferetry.examples;

import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.payments.Charge;
import dev.saferetry.payments.ChargeCreateParams;
import dev.saferetry.payments.PaymentsClient;
import dev.saferetry.testing.provider.FakeProvider;
import dev.saferetry.testing.provider.Fault;

/**
 * Lost response: when the server commits a charge and the connection closes before the response
 * arrives, the SDK cannot know whether the charge exists, so it retries with the same key; the
 * server recognises the key and replays the stored charge instead of charging again. Nothing in the
 * code below handles that case: it is what every call does.
 *
 * <pre>
 * mvn -B -q -pl sdk-examples -am compile exec:java -Dexec.mainClass=dev.saferetry.examples.LostResponse
 * </pre>
 *
 * <p>Without an argument it starts its own fake payments API (saferetry-testing) and makes it lose
 * the first answer; with a base URL it charges that API instead.
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
                  ChargeCreateParams.builder()
                      .amount(4200L)
                      .currency("eur")
                      .description("order 1002")
                      .build(),
                  RequestOptions.none().withIntentId("order-1002/charge"));
      System.out.printf(
          "charge %s after %d attempt(s) with key %s, replayed by the server: %s%n",
          result.value().id(), result.attempts().size(), result.key(), result.replayed());
      return result;
    }
  }

  /** {@code [base-url]}: that API; without one, a fake one that loses the first answer. */
  public static void main(String[] args) {
    if (args.length > 0) {
      String apiKey = System.getenv().getOrDefault("PAYMENTS_API_KEY", "sk_test_demo");
      run(SafeRetryClient.builder().baseUrl(args[0]).apiKey(apiKey));
      return;
    }
    try (FakeProvider api = FakeProvider.start()) {
      api.arm(Fault.loseAnswer()); // the charge is made, then the connection drops
      run(SafeRetryClient.builder().baseUrl(api.baseUrl()).apiKey("sk_test_demo"));
      System.out.printf(
          "requests: %d, charges made: %d%n", api.received().size(), api.effects().size());
    }
  }
}
