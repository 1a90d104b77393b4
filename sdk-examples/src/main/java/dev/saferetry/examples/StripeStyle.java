package dev.saferetry.examples;

import static dev.saferetry.examples.support.StripeApi.CREATE_CHARGE;
import static dev.saferetry.examples.support.StripeApi.CREATE_CUSTOMER;
import static dev.saferetry.examples.support.StripeApi.CREATE_REFUND;
import static dev.saferetry.examples.support.StripeApi.DELETE_CUSTOMER;

import dev.saferetry.CallResult;
import dev.saferetry.ProviderPreset;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.examples.support.Steps;
import dev.saferetry.examples.support.Steps.Step;
import dev.saferetry.examples.support.StripeApi;
import dev.saferetry.examples.support.StripeApi.Charge;
import dev.saferetry.examples.support.StripeApi.Customer;
import dev.saferetry.examples.support.StripeApi.Refund;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Stripe's API with the Stripe preset: a form-encoded charge with {@code metadata[order_id]} and
 * {@code expand[]}, a {@code Stripe-Version} default header, a per-call {@code Stripe-Account}, a
 * refund, a body-less DELETE without a key; one line per step (key, attempts, request ids). Without
 * an argument, an in-process Stripe-shaped server loses the charge's first answer after committing
 * it: the retry has the same key and bytes, and the charge is replayed. Lists: {@link
 * StripePagination}.
 *
 * <pre>
 * mvn -B -q -pl sdk-examples -am compile exec:java \
 *     -Dexec.mainClass=dev.saferetry.examples.StripeStyle [-Dexec.args=https://api.stripe.com]
 * </pre>
 */
public final class StripeStyle {
  private StripeStyle() {}

  /** Runs the steps on {@code account}; {@code beforeCharge} runs just before the charge. */
  public static List<Step> run(
      SafeRetryClientBuilder builder, String account, PrintStream out, Runnable beforeCharge) {
    Steps steps = new Steps(out);
    builder = builder.preset(ProviderPreset.stripe()); // form bodies, Stripe's errors and hints
    try (SafeRetryClient stripe = builder.header("Stripe-Version", StripeApi.VERSION).build()) {
      RequestOptions onAccount = RequestOptions.none().withHeader("Stripe-Account", account);
      RequestOptions intent = onAccount.withIntentId("stripe-style/customer");
      CallResult<Customer> customer =
          stripe.execute(CREATE_CUSTOMER, Map.of("email", "jenny@example.com"), intent);
      steps.ok("0 customer", customer, customer.value().id());
      Map<String, Object> charge = new LinkedHashMap<>();
      charge.put("amount", 2000);
      charge.put("currency", "eur");
      charge.put("customer", customer.value().id());
      charge.put("metadata", Map.of("order_id", "6735")); // metadata[order_id]=6735
      charge.put("expand", List.of("customer")); // expand[]=customer: expanded in the answer
      beforeCharge.run();
      intent = onAccount.withIntentId("order-6735/charge");
      CallResult<Charge> created = stripe.execute(CREATE_CHARGE, charge, intent);
      String chargeId = created.value().id();
      steps.ok("1 create charge", created, chargeId + " replayed=" + created.replayed());
      intent = onAccount.withIntentId("order-6735/refund");
      CallResult<Refund> refund = stripe.execute(CREATE_REFUND, Map.of("charge", chargeId), intent);
      steps.ok("2 refund", refund, refund.value().id() + " " + refund.value().status());
      RequestOptions id = onAccount.withPathParam("id", customer.value().id());
      CallResult<Customer> deleted = stripe.execute(DELETE_CUSTOMER, null, id);
      steps.ok("3 delete customer", deleted, "deleted=" + deleted.value().deleted());
    } catch (SafeRetryException e) {
      steps.failed(e);
    }
    return steps.list();
  }

  /** {@code [base-url]}: Stripe's API, by default an in-process server that speaks it. */
  public static void main(String[] args) {
    StripeApi.runMain(args, 0, 4, (client, lose) -> run(client, "acct_1", System.out, lose));
  }
}
