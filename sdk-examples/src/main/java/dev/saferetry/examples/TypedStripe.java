package dev.saferetry.examples;

import dev.saferetry.CallResult;
import dev.saferetry.ProviderPreset;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.stripe.Charge;
import dev.saferetry.stripe.ChargesCreateRequest;
import dev.saferetry.stripe.ChargesListQuery;
import dev.saferetry.stripe.Customer;
import dev.saferetry.stripe.CustomersCreateRequest;
import dev.saferetry.stripe.Refund;
import dev.saferetry.stripe.RefundsCreateRequest;
import dev.saferetry.stripe.StripeClient;
import dev.saferetry.testing.provider.Dialect;
import dev.saferetry.testing.provider.FakeProvider;
import dev.saferetry.testing.provider.Fault;
import java.util.List;
import java.util.Map;

/**
 * The typed Stripe client ({@code saferetry-stripe}, generated from Stripe's OpenAPI description):
 * a customer, a charge whose first answer is lost (the retry carries the same key: one charge), a
 * refund, and every page of the charges with each customer expanded. With no argument it runs
 * against a fake Stripe of its own (saferetry-testing); with a base URL and {@code
 * STRIPE_SECRET_KEY} set, against that API.
 */
public final class TypedStripe {
  private TypedStripe() {}

  /** {@code [base-url]}: Stripe's API, by default a fake one that loses one answer. */
  public static void main(String[] args) {
    try (FakeProvider fake = FakeProvider.builder().dialect(Dialect.STRIPE).start();
        SafeRetryClient client =
            SafeRetryClient.builder()
                .preset(ProviderPreset.stripe()) // Idempotency-Key on every POST, form bodies
                .baseUrl(args.length > 0 ? args[0] : fake.baseUrl())
                .apiKey(System.getenv().getOrDefault("STRIPE_SECRET_KEY", "sk_test_fake"))
                .build()) {
      StripeClient stripe = new StripeClient(client);
      CallResult<Customer> customer =
          stripe
              .customers()
              .create(
                  CustomersCreateRequest.builder().email("jenny@example.com").build(),
                  RequestOptions.none().withIntentId("customer/jenny"));
      String id = customer.value().id();
      fake.arm(Fault.loseAnswer().on("POST /v1/charges")); // the charge is made, its answer lost
      var charge = ChargesCreateRequest.builder().amount(2000L).currency("eur").customer(id);
      CallResult<Charge> made =
          stripe
              .charges()
              .create(
                  charge.source("tok_visa").metadata(Map.of("order_id", "6735")).build(),
                  RequestOptions.none().withIntentId("order-6735/charge"));
      System.out.printf(
          "charge %s: %d attempt(s), one key %s, replayed %s%n",
          made.value().id(), made.attempts().size(), made.key(), made.replayed());
      CallResult<Refund> refund =
          stripe
              .refunds()
              .create(
                  RefundsCreateRequest.builder().charge(made.value().id()).build(),
                  RequestOptions.none().withIntentId("order-6735/refund"));
      System.out.printf("refund %s: %s%n", refund.value().id(), refund.value().status());
      var query = ChargesListQuery.builder().limit(2L).expand(List.of("data.customer")).build();
      for (Charge c : stripe.charges().listAll(query, RequestOptions.none())) {
        System.out.printf("listed %s for %s%n", c.id(), c.customer()); // the customer object
      }
      System.out.println("the fake Stripe made charges: " + fake.effectsPerOperation());
    }
  }
}
