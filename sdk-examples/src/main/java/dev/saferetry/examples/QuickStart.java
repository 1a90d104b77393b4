package dev.saferetry.examples;

import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.call.Attempt;
import dev.saferetry.payments.Charge;
import dev.saferetry.payments.ChargeCreateParams;
import dev.saferetry.payments.PaymentsClient;

/**
 * Quick start: create a charge as a named intent, read it back, and print the idempotency key, the
 * attempts and their request ids.
 *
 * <pre>
 * mvn -B -q -pl sdk-examples -am compile exec:java \
 *     -Dexec.mainClass=dev.saferetry.examples.QuickStart -Dexec.args=http://127.0.0.1:8080
 * </pre>
 */
public final class QuickStart {
  private QuickStart() {}

  /** Creates one charge and reads it back; returns the read. */
  public static CallResult<Charge> run(SafeRetryClientBuilder builder) {
    // One client per API, shared by the whole service; close it on shutdown.
    try (SafeRetryClient client = builder.build()) {
      PaymentsClient payments = new PaymentsClient(client);

      // The intent id names the logical operation: calling again with it reuses the same key.
      CallResult<Charge> created =
          payments
              .charges()
              .create(
                  ChargeCreateParams.builder()
                      .amount(1999L)
                      .currency("eur")
                      .description("order 1001")
                      .build(),
                  RequestOptions.none().withIntentId("order-1001/charge"));
      Charge charge = created.value();
      System.out.printf(
          "created %s: %d %s, key %s%n",
          charge.id(), charge.amount(), charge.currency(), created.key().value());
      for (Attempt a : created.attempts()) {
        System.out.printf(
            "  attempt %d: HTTP %d, request id %s%n", a.number(), a.status(), a.requestId());
      }

      // GETs are naturally idempotent: they carry no key and need no intent.
      CallResult<Charge> read = payments.charges().retrieve(charge.id(), RequestOptions.none());
      System.out.printf("read back %s: %s%n", read.value().id(), read.value().status());
      return read;
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
