package dev.saferetry.examples;

import dev.saferetry.CallResult;
import dev.saferetry.Operation;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.conformance.server.ReferenceServer;
import dev.saferetry.idempotency.KeyPlacement;
import dev.saferetry.payments.Charge;
import dev.saferetry.payments.ChargeCreateParams;
import dev.saferetry.payments.ChargesApi;

/**
 * Provider profiles: not every API reads the key from {@code Idempotency-Key}. PayPal takes it in a
 * {@code PayPal-Request-Id} header, Square in an {@code idempotency_key} field of the JSON body.
 * One {@link KeyPlacement} setting covers both, and every retry carries the key where the API reads
 * it.
 *
 * <pre>
 * mvn -B -q -pl sdk-examples -am compile exec:java \
 *     -Dexec.mainClass=dev.saferetry.examples.ProviderProfiles \
 *     -Dexec.args="paypal|square [base-url]"
 * </pre>
 *
 * <p>Without a base URL it starts a reference server in-process that reads the key where the
 * profile puts it. A reference server of your own does so when started with {@code --key-header
 * PayPal-Request-Id} or {@code --key-body-field idempotency_key}.
 */
public final class ProviderProfiles {
  private ProviderProfiles() {}

  /** PayPal-style: the bare key in the {@code PayPal-Request-Id} header. */
  public static final KeyPlacement PAYPAL = KeyPlacement.header("PayPal-Request-Id");

  /** Square-style: the key as the top-level {@code idempotency_key} field of the JSON body. */
  public static final KeyPlacement SQUARE = KeyPlacement.bodyField("idempotency_key");

  /** Charges order 1005 once through an API that reads the key at {@code placement}. */
  public static CallResult<Charge> run(SafeRetryClientBuilder builder, KeyPlacement placement) {
    // The generated operation puts the key where the document says; this server reads it elsewhere.
    Operation<ChargeCreateParams, Charge> create = ChargesApi.CREATE.withKeyPlacement(placement);
    var order = ChargeCreateParams.builder().amount(1500L).currency("usd");
    var intent = RequestOptions.none().withIntentId("order-1005/charge");
    try (SafeRetryClient client = builder.build()) {
      CallResult<Charge> result =
          client.execute(create, order.description("order 1005").build(), intent);
      System.out.printf(
          "key in %s: charge %s after %d attempt(s), replayed: %s%n",
          placement, result.value().id(), result.attempts().size(), result.replayed());
      return result;
    }
  }

  /** {@code paypal|square [base-url]}; without a base URL, a reference server of its own. */
  public static void main(String[] args) {
    if (args.length < 1 || !args[0].matches("paypal|square")) {
      throw new IllegalArgumentException("usage: paypal|square [base-url]");
    }
    boolean paypal = args[0].equals("paypal");
    // The API must read the key where the profile puts it: a server on port 8080 reads it from
    // Idempotency-Key. Without a base URL, start a reference server in-process that reads it there.
    var reads = ReferenceServer.builder(); // saferetry-conformance's reference server
    reads = paypal ? reads.keyHeader("PayPal-Request-Id") : reads.keyBodyField("idempotency_key");
    try (ReferenceServer server = args.length > 1 ? null : reads.build().start()) {
      String baseUrl = server == null ? args[1] : server.baseUrl();
      System.out.println("payment API: " + baseUrl + (server == null ? "" : " (in-process)"));
      run(
          SafeRetryClient.builder()
              .baseUrl(baseUrl)
              .apiKey(System.getenv().getOrDefault("PAYMENTS_API_KEY", "sk_test_demo")),
          paypal ? PAYPAL : SQUARE);
    }
  }
}
