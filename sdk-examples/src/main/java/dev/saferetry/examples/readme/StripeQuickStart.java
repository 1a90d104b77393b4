package dev.saferetry.examples.readme;

import dev.saferetry.CallResult;
import dev.saferetry.Operation;
import dev.saferetry.ProviderPreset;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.codec.TypeRef;
import dev.saferetry.provider.StripeList;
import java.util.List;
import java.util.Map;

public class StripeQuickStart {
  // Your own types: request fields are form-encoded as Stripe expects (metadata[order_id]=6735).
  record ChargeParams(
      long amount, String currency, Map<String, String> metadata, List<String> expand) {}

  record Charge(String id, long amount, String currency, String status) {}

  static final Operation<ChargeParams, Charge> CREATE_CHARGE =
      Operation.post("/v1/charges", ChargeParams.class, Charge.class);
  static final Operation<Void, StripeList<Charge>> LIST_CHARGES =
      Operation.get("/v1/charges", new TypeRef<StripeList<Charge>>() {});

  public static void main(String[] args) {
    // The Stripe preset: form bodies, Idempotency-Key, Request-Id, Stripe-Should-Retry, 24 h keys.
    try (SafeRetryClient stripe =
        SafeRetryClient.builder()
            .baseUrl("https://api.stripe.com")
            .preset(ProviderPreset.stripe())
            .apiKey(System.getenv("STRIPE_SECRET_KEY"))
            .header("Stripe-Version", "2024-06-20")
            .userAgent("my-shop", "1.4.2")
            .build()) {
      ChargeParams params =
          new ChargeParams(2000, "eur", Map.of("order_id", "6735"), List.of("customer"));
      // Stripe-Account is part of the intent's identity: another account is another payload.
      RequestOptions intent =
          RequestOptions.none()
              .withIntentId("order-6735/charge")
              .withHeader("Stripe-Account", "acct_1032D82eZvKYlo2C");
      CallResult<Charge> charge = stripe.execute(CREATE_CHARGE, params, intent);
      System.out.println(
          charge.value().id() + " key " + charge.key() + " request " + charge.serverRequestId());
      // Every page, fetched lazily; each page fetch is retried like any call.
      RequestOptions list = RequestOptions.none().withQueryParam("limit", 100);
      for (Charge c : stripe.paginate(LIST_CHARGES, StripeList.style(Charge::id), list)) {
        System.out.println(c.id() + " " + c.amount() + " " + c.currency());
      }
    }
  }
}
