package dev.saferetry.examples.readme;

import dev.saferetry.CallResult;
import dev.saferetry.ProviderPreset;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.stripe.Charge;
import dev.saferetry.stripe.ChargesCreateRequest;
import dev.saferetry.stripe.ChargesListQuery;
import dev.saferetry.stripe.StripeClient;
import java.util.List;
import java.util.Map;

public class StripeQuickStart {
  public static void main(String[] args) {
    // The Stripe preset: form bodies, Idempotency-Key, Request-Id, Stripe-Should-Retry, 24 h keys.
    try (SafeRetryClient client =
        SafeRetryClient.builder()
            .baseUrl("https://api.stripe.com")
            .preset(ProviderPreset.stripe())
            .apiKey(System.getenv("STRIPE_SECRET_KEY"))
            .header("Stripe-Version", "2020-08-27") // the version saferetry-stripe is typed for
            .userAgent("my-shop", "1.4.2")
            .build()) {
      StripeClient stripe = new StripeClient(client);
      ChargesCreateRequest params =
          ChargesCreateRequest.builder()
              .amount(2000L)
              .currency("eur")
              .source("tok_visa")
              .metadata(Map.of("order_id", "6735")) // sent as metadata[order_id]=6735
              .expand(List.of("customer")) // expand[]=customer: the customer object in the answer
              .build();
      // Stripe-Account is part of the intent's identity: another account is another payload.
      RequestOptions intent =
          RequestOptions.none()
              .withIntentId("order-6735/charge")
              .withHeader("Stripe-Account", "acct_1032D82eZvKYlo2C");
      CallResult<Charge> charge = stripe.charges().create(params, intent);
      System.out.println(
          charge.value().id() + " key " + charge.key() + " request " + charge.serverRequestId());
      // Every page, fetched lazily; each page fetch is retried like any call.
      ChargesListQuery query = ChargesListQuery.builder().limit(100L).build();
      for (Charge c : stripe.charges().listAll(query, RequestOptions.none())) {
        System.out.println(c.id() + " " + c.amount() + " " + c.currency());
      }
    }
  }
}
