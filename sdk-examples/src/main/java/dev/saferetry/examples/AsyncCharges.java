package dev.saferetry.examples;

import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.payments.Charge;
import dev.saferetry.payments.ChargeCreateParams;
import dev.saferetry.payments.ChargesApi;
import dev.saferetry.payments.PaymentsClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Asynchronous use: many charges at once through {@code CompletableFuture}s on one shared client,
 * each its own intent with its own key. A charge whose response is lost is retried with its own
 * key; a failure arrives as the same typed exception {@code execute} throws, wrapped.
 *
 * <pre>
 * mvn -B -q -pl sdk-examples -am compile exec:java \
 *     -Dexec.mainClass=dev.saferetry.examples.AsyncCharges -Dexec.args=http://127.0.0.1:8080
 * </pre>
 */
public final class AsyncCharges {
  /** How many orders are charged concurrently. */
  public static final int ORDERS = 20;

  private AsyncCharges() {}

  /** Charges orders 3000 to 3019 concurrently; returns the charges that succeeded. */
  public static List<CallResult<Charge>> run(SafeRetryClientBuilder builder) {
    try (SafeRetryClient client = builder.build()) {
      ChargesApi charges = new PaymentsClient(client).charges();
      List<CompletableFuture<CallResult<Charge>>> futures = new ArrayList<>();
      for (int order = 3000; order < 3000 + ORDERS; order++) {
        futures.add(
            charges.createAsync(
                ChargeCreateParams.builder()
                    .amount((long) (100 + order % 100))
                    .currency("eur")
                    .description("order " + order)
                    .build(),
                RequestOptions.none().withIntentId("order-" + order + "/charge")));
      }
      List<CallResult<Charge>> charged = new ArrayList<>();
      for (CompletableFuture<CallResult<Charge>> future : futures) {
        try {
          charged.add(future.join());
        } catch (CompletionException e) {
          if (!(e.getCause() instanceof SafeRetryException failure)) {
            throw e;
          }
          // An UNKNOWN outcome keeps its intent pending, to be re-driven later with the same key.
          System.out.printf("%s ended %s: %s%n", failure.intentId(), failure.outcome(), failure);
        }
      }
      long retried = charged.stream().filter(c -> c.attempts().size() > 1).count();
      System.out.printf(
          "%d of %d charged, %d after a retry with their own key%n",
          charged.size(), ORDERS, retried);
      return charged;
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
