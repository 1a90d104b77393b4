package dev.saferetry.provider;

import dev.saferetry.codec.BodyCodec;
import dev.saferetry.idempotency.KeyPlacement;
import java.time.Duration;
import java.util.List;

/**
 * The built-in presets. Each value is taken from the pages listed with it; docs/providers.md says
 * what each page states and what none of them does. A setting a provider does not document is left
 * at "none" rather than guessed.
 */
final class Presets {
  private Presets() {}

  static final ProviderPreset STRIPE =
      new PresetBuilder("stripe")
          .keyPlacement(KeyPlacement.header("Idempotency-Key"))
          .bodyCodec(BodyCodec.form())
          .apiKeyStyle(ApiKeyStyle.bearer())
          .versionHeader("Stripe-Version")
          .identityHeader("Stripe-Account")
          .identityHeader("Stripe-Context")
          .requestIdHeader("Request-Id")
          .replayMarker(new ReplayMarker("Idempotent-Replayed", "true"))
          .keyReused(ErrorMatch.of(400, "/error", "/type", "idempotency_error"))
          .inProgress(ErrorMatch.status(409))
          .retryHints(new RetryHints("Stripe-Should-Retry", List.of()))
          .keyRetention(Duration.ofHours(24))
          .keyMaxLength(255)
          .source("https://docs.stripe.com/api/idempotent_requests")
          .source("https://docs.stripe.com/error-low-level")
          .source("https://docs.stripe.com/api/errors")
          .source("https://docs.stripe.com/api/authentication")
          .source("https://docs.stripe.com/api/request_ids")
          .source("https://docs.stripe.com/api/connected-accounts")
          .source("https://docs.stripe.com/api/pagination")
          .source("https://docs.stripe.com/api/expanding_objects")
          .source("https://github.com/stripe/stripe-java")
          .source("https://osv.dev/vulnerability/GHSA-8mhj-rffc-rcvw")
          .build();

  static final ProviderPreset PAYPAL =
      new PresetBuilder("paypal")
          .keyPlacement(KeyPlacement.header("PayPal-Request-Id"))
          .bodyCodec(BodyCodec.json())
          .apiKeyStyle(ApiKeyStyle.bearer())
          .identityHeader("PayPal-Auth-Assertion")
          .requestIdHeader("PayPal-Debug-Id")
          .errorRequestIdField("/debug_id")
          .keyReused(
              ErrorMatch.of(422, "/details/*", "/issue", "PAYPAL_REQUEST_ID_PREVIOUSLY_USED"))
          .keyReused(ErrorMatch.of(0, "", "/name", "DUPLICATE_REQUEST_ID"))
          .source("https://developer.paypal.com/reference/guidelines/idempotency")
          .source("https://developer.paypal.com/api/rest/requests/")
          .source(
              "https://developer.paypal.com/api/payment-tokens/v3/errors/paypal_request_id_previously_used")
          .source(
              "https://developer.paypal.com/api/deprecated/payments/v1/errors/duplicate_request_id")
          .source("https://developer.paypal.com/api/pricing/v2/definitions/error")
          .build();

  static final ProviderPreset ADYEN =
      new PresetBuilder("adyen")
          .keyPlacement(KeyPlacement.header("Idempotency-Key"))
          .bodyCodec(BodyCodec.json())
          .apiKeyStyle(ApiKeyStyle.header("X-API-Key"))
          .errorRequestIdField("/requestId")
          .keyRetention(Duration.ofDays(31))
          .keyMaxLength(64)
          .source("https://docs.adyen.com/development-resources/api-idempotency")
          .source("https://docs.adyen.com/development-resources/api-authentication")
          .source("https://docs.adyen.com/errors")
          .build();

  static final ProviderPreset SQUARE =
      new PresetBuilder("square")
          .keyPlacement(KeyPlacement.bodyField("idempotency_key"))
          .bodyCodec(BodyCodec.json())
          .apiKeyStyle(ApiKeyStyle.bearer())
          .versionHeader("Square-Version")
          .keyReused(ErrorMatch.of(0, "/errors/*", "/code", "IDEMPOTENCY_KEY_REUSED"))
          .retryHints(
              new RetryHints(
                  null, List.of(ErrorMatch.of(0, "/errors/*", "/code", "TEMPORARY_ERROR"))))
          .source("https://developer.squareup.com/docs/working-with-apis/idempotency")
          .source("https://developer.squareup.com/docs/working-with-apis/pagination")
          .source("https://github.com/square/square-java-sdk/blob/master/doc/models/error-code.md")
          .build();

  static final ProviderPreset CHECKOUT_COM =
      new PresetBuilder("checkout.com")
          .keyPlacement(KeyPlacement.header("Cko-Idempotency-Key"))
          .bodyCodec(BodyCodec.json())
          .apiKeyStyle(ApiKeyStyle.header("Authorization"))
          .requestIdHeader("Cko-Request-Id")
          .inProgress(ErrorMatch.status(409))
          .keyRetention(Duration.ofHours(24))
          .source("https://www.checkout.com/docs/payments/manage-payments/idempotency")
          .source(
              "https://support.checkout.com/hc/en-us/articles/24570669653010-Why-did-I-receive-a-409-HTTP-response-to-my-idempotent-API-request-instead-of-429")
          .source("https://github.com/checkout/checkout-sdk-net")
          .build();

  static final ProviderPreset GOCARDLESS =
      new PresetBuilder("gocardless")
          .keyPlacement(KeyPlacement.header("Idempotency-Key"))
          .bodyCodec(BodyCodec.json())
          .apiKeyStyle(ApiKeyStyle.bearer())
          .defaultHeader("GoCardless-Version", "2015-07-06")
          .versionHeader("GoCardless-Version")
          .errorRequestIdField("/error/request_id")
          .existingResource(
              new ExistingResource(
                  ErrorMatch.of(409, "/error/errors/*", "/reason", "idempotent_creation_conflict"),
                  "/links/conflicting_resource_id"))
          .source("https://gocardless.com/blog/idempotency-keys/")
          .source("https://github.com/gocardless/gocardless-pro-java")
          .source("https://github.com/gocardless/gocardless-pro-ruby")
          .build();
}
