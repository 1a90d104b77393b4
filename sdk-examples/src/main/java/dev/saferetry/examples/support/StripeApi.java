package dev.saferetry.examples.support;

import dev.saferetry.Operation;
import dev.saferetry.ProviderPreset;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.codec.TypeRef;
import dev.saferetry.examples.support.Steps.Step;
import dev.saferetry.examples.support.stripe.StripeShapedServer;
import dev.saferetry.provider.StripeList;
import java.util.List;
import java.util.Map;

/**
 * The part of Stripe's API the Stripe examples call: its records (as much of each as they read;
 * unknown fields are ignored) and its operations. Form parameters are maps, which the Stripe preset
 * encodes with bracket nesting ({@code metadata[order_id]}, {@code expand[]}).
 */
public final class StripeApi {
  /** The Stripe API version the examples are written against. */
  public static final String VERSION = "2024-06-20";

  /**
   * A charge.
   *
   * @param id the id
   * @param amount the amount in minor units
   * @param currency the currency
   * @param status the status
   * @param customer the customer's id, or the customer when expanded
   * @param metadata the metadata
   */
  public record Charge(
      String id,
      long amount,
      String currency,
      String status,
      Object customer,
      Map<String, String> metadata) {}

  /**
   * A refund.
   *
   * @param id the id
   * @param charge the refunded charge
   * @param amount the amount in minor units
   * @param status the status
   */
  public record Refund(String id, String charge, long amount, String status) {}

  /**
   * A customer, or what is left of a deleted one.
   *
   * @param id the id
   * @param email the email address
   * @param deleted whether it was deleted
   */
  public record Customer(String id, String email, Boolean deleted) {}

  @SuppressWarnings("unchecked")
  private static final Class<Map<String, Object>> PARAMS =
      (Class<Map<String, Object>>) (Class<?>) Map.class;

  /** {@code POST /v1/customers}. */
  public static final Operation<Map<String, Object>, Customer> CREATE_CUSTOMER =
      Operation.post("/v1/customers", PARAMS, Customer.class);

  /** {@code POST /v1/charges}. */
  public static final Operation<Map<String, Object>, Charge> CREATE_CHARGE =
      Operation.post("/v1/charges", PARAMS, Charge.class);

  /** {@code GET /v1/charges}, one page. */
  public static final Operation<Void, StripeList<Charge>> LIST_CHARGES =
      Operation.get("/v1/charges", new TypeRef<StripeList<Charge>>() {});

  /** {@code GET /v1/charges/{id}}. */
  public static final Operation<Void, Charge> GET_CHARGE =
      Operation.get("/v1/charges/{id}", Charge.class);

  /** {@code POST /v1/refunds}. */
  public static final Operation<Map<String, Object>, Refund> CREATE_REFUND =
      Operation.post("/v1/refunds", PARAMS, Refund.class);

  /** {@code DELETE /v1/customers/{id}}: no body, no key. */
  public static final Operation<Void, Customer> DELETE_CUSTOMER =
      Operation.delete("/v1/customers/{id}", Customer.class);

  private StripeApi() {}

  /**
   * Creates {@code n} charges on {@code account}, so that a list spans several pages.
   *
   * @param baseUrl the API
   * @param apiKey the API key
   * @param account the connected account
   * @param n how many
   */
  public static void seed(String baseUrl, String apiKey, String account, int n) {
    try (SafeRetryClient stripe =
        SafeRetryClient.builder()
            .baseUrl(baseUrl)
            .apiKey(apiKey)
            .preset(ProviderPreset.stripe())
            .build()) {
      for (int i = 0; i < n; i++) {
        stripe.execute(
            CREATE_CHARGE,
            Map.of("amount", 100 + i, "currency", "eur"),
            RequestOptions.none().withHeader("Stripe-Account", account));
      }
    }
  }

  /** What a Stripe example's {@code main} runs. */
  @FunctionalInterface
  public interface Example {
    /**
     * {@return the steps, run with {@code client}; {@code loseNextAnswer} makes the in-process
     * server lose its next answer after committing}
     *
     * @param client a client builder with the base URL and API key set
     * @param loseNextAnswer arms the in-process server (does nothing against another server)
     */
    List<Step> run(SafeRetryClientBuilder client, Runnable loseNextAnswer);
  }

  /**
   * Runs a Stripe example's {@code main}: against the base URL in {@code args}, or else against an
   * in-process Stripe-shaped server holding {@code earlierCharges} charges on {@code acct_1}; the
   * API key is {@code STRIPE_API_KEY} ({@code sk_test_demo} by default). Prints whether all {@code
   * steps} steps succeeded, and exits with 1 if not.
   *
   * @param args {@code [base-url]}
   * @param earlierCharges charges the in-process server holds at the start
   * @param steps how many steps a complete run has
   * @param example the example
   */
  public static void runMain(String[] args, int earlierCharges, int steps, Example example) {
    String key = System.getenv().getOrDefault("STRIPE_API_KEY", "sk_test_demo");
    boolean ok;
    if (args.length > 0) {
      ok =
          Steps.allPassed(
              example.run(SafeRetryClient.builder().baseUrl(args[0]).apiKey(key), () -> {}), steps);
    } else {
      try (StripeShapedServer server = StripeShapedServer.start()) {
        seed(server.baseUrl(), key, "acct_1", earlierCharges);
        System.out.printf(
            "in-process Stripe-shaped server at %s (%d earlier charges)%n",
            server.baseUrl(), earlierCharges);
        Runnable loseNext =
            () -> {
              server.loseNextResponses(1);
              System.out.println("(the server will lose its next answer after committing it)");
            };
        SafeRetryClientBuilder client =
            SafeRetryClient.builder().baseUrl(server.baseUrl()).apiKey(key);
        ok = Steps.allPassed(example.run(client, loseNext), steps);
      }
    }
    System.out.println(ok ? "all steps succeeded" : "FAILED");
    if (!ok) {
      System.exit(1);
    }
  }
}
