package dev.saferetry.examples;

import dev.saferetry.CallResult;
import dev.saferetry.Operation;
import dev.saferetry.ProviderPreset;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.codec.TypeRef;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.stripe.Charge;
import dev.saferetry.stripe.ChargesCreateRequest;
import dev.saferetry.stripe.CustomersCreateRequest;
import dev.saferetry.stripe.DeletedCustomer;
import dev.saferetry.stripe.RefundsCreateRequest;
import dev.saferetry.stripe.StripeClient;
import dev.saferetry.testing.provider.Dialect;
import dev.saferetry.testing.provider.FakeProvider;
import dev.saferetry.testing.provider.Fault;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Stripe's API with the typed client ({@code saferetry-stripe}): a customer, a form-encoded charge
 * with {@code metadata[order_id]} and {@code expand[]}, a per-call {@code Stripe-Account}, a
 * refund, a body-less DELETE without a key; a line per step. With no argument, its own fake Stripe
 * (saferetry-testing) loses the charge's first answer: the retry has the same key, and is replayed.
 */
public final class StripeStyle {
  private StripeStyle() {}

  static final Operation<Void, DeletedCustomer> DELETE_CUSTOMER =
      Operation.of("DELETE", "/v1/customers/{id}", Void.class, TypeRef.of(DeletedCustomer.class));

  /** Runs the steps on {@code account}; {@code beforeCharge} runs just before the charge. */
  public static boolean run(SafeRetryClient client, String account, Runnable beforeCharge) {
    StripeClient stripe = new StripeClient(client);
    RequestOptions onAccount = RequestOptions.none().withHeader("Stripe-Account", account);
    try {
      var jenny = CustomersCreateRequest.builder().email("jenny@example.com").build();
      var made0 = stripe.customers().create(jenny, onAccount.withIntentId("customer/jenny"));
      String customer = ok("0 customer", made0, "").value().id();
      var charge = ChargesCreateRequest.builder().amount(2000L).currency("eur").customer(customer);
      charge.metadata(Map.of("order_id", "6735")).expand(List.of("customer")).source("tok_visa");
      beforeCharge.run();
      CallResult<Charge> made =
          stripe.charges().create(charge.build(), onAccount.withIntentId("order-6735/charge"));
      ok("1 create charge", made, made.value().id() + " replayed=" + made.replayed());
      var refund = RefundsCreateRequest.builder().charge(made.value().id()).build();
      var refunded = stripe.refunds().create(refund, onAccount.withIntentId("order-6735/refund"));
      ok("2 refund", refunded, refunded.value().id() + " " + refunded.value().status());
      var deleted = client.execute(DELETE_CUSTOMER, null, onAccount.withPathParam("id", customer));
      ok("3 delete customer", deleted, "deleted=" + deleted.value().deleted());
      return true;
    } catch (SafeRetryException e) {
      System.out.println("FAIL " + e.outcome() + " " + e.reason() + ": " + e.getMessage());
      return false;
    }
  }

  private static <T> CallResult<T> ok(String step, CallResult<T> r, String detail) {
    var ids = r.attempts().stream().map(a -> Objects.toString(a.serverRequestId(), "-")).toList();
    System.out.printf("OK   %s %s key=%s request-ids=%s%n", step, detail, r.key(), ids);
    return r;
  }

  /** {@code [base-url]}: Stripe's API, by default a fake one that loses one answer. */
  public static void main(String[] args) {
    try (FakeProvider fake = FakeProvider.builder().dialect(Dialect.STRIPE).start();
        SafeRetryClient client =
            SafeRetryClient.builder()
                .preset(ProviderPreset.stripe()) // form bodies, Stripe's errors and hints
                .baseUrl(args.length > 0 ? args[0] : fake.baseUrl())
                .apiKey(System.getenv().getOrDefault("STRIPE_SECRET_KEY", "sk_test_fake"))
                .build()) {
      run(client, "acct_1", () -> fake.arm(Fault.loseAnswer().on("POST /v1/charges")));
    }
  }
}
