package dev.saferetry.provider;

import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.codec.BodyCodec;
import dev.saferetry.idempotency.KeyPlacement;
import java.time.Duration;

/**
 * The built-in presets. Each value is taken from the pages listed with it;
 * docs/requests-and-providers.md says what each page states and what none of them does. A setting a
 * provider does not document is set to "none" rather than guessed, so that a preset replaces the
 * provider rules of another.
 */
final class Presets {
  private Presets() {}

  /** The "already created" conflict GoCardless answers a repeated creation with. */
  static final ErrorMatch GOCARDLESS_CONFLICT =
      ErrorMatch.of(409, "/error/errors/*", "/reason", "idempotent_creation_conflict");

  /** Where GoCardless's conflict names the resource the first request created. */
  static final String GOCARDLESS_CONFLICT_ID = "/links/conflicting_resource_id";

  /** Sets every provider rule to "none": a preset then sets what its provider documents. */
  private static SafeRetryClientBuilder none(SafeRetryClientBuilder b) {
    return b.replayMarker(null, null)
        .keyReused()
        .inProgress()
        .existingResource(null, null)
        .shouldRetryHeaders("X-Should-Retry")
        .retryableErrors()
        .requestIdHeaders()
        .errorRequestIdField(null)
        .keyMaxLength(0);
  }

  static final ProviderPreset STRIPE =
      ProviderPreset.of(
          "stripe",
          b ->
              none(b)
                  .keyPlacement(KeyPlacement.header("Idempotency-Key"))
                  .codec(BodyCodec.form())
                  .apiKeyStyle(ApiKeyStyle.bearer())
                  .identityHeaders("Stripe-Version", "Stripe-Account", "Stripe-Context")
                  .requestIdHeaders("Request-Id")
                  .replayMarker("Idempotent-Replayed", "true")
                  .keyReused(ErrorMatch.of(400, "/error", "/type", "idempotency_error"))
                  .inProgress(ErrorMatch.status(409))
                  .shouldRetryHeaders("X-Should-Retry", "Stripe-Should-Retry")
                  .intentRetention(Duration.ofHours(24))
                  .keyMaxLength(255),
          "https://docs.stripe.com/api/idempotent_requests",
          "https://docs.stripe.com/error-low-level",
          "https://docs.stripe.com/api/errors",
          "https://docs.stripe.com/api/authentication",
          "https://docs.stripe.com/api/request_ids",
          "https://docs.stripe.com/api/connected-accounts",
          "https://docs.stripe.com/api/pagination",
          "https://docs.stripe.com/api/expanding_objects",
          "https://github.com/stripe/stripe-java",
          "https://osv.dev/vulnerability/GHSA-8mhj-rffc-rcvw");

  static final ProviderPreset PAYPAL =
      ProviderPreset.of(
          "paypal",
          b ->
              none(b)
                  .keyPlacement(KeyPlacement.header("PayPal-Request-Id"))
                  .codec(BodyCodec.json())
                  .apiKeyStyle(ApiKeyStyle.bearer())
                  .identityHeaders("PayPal-Auth-Assertion")
                  .requestIdHeaders("PayPal-Debug-Id")
                  .errorRequestIdField("/debug_id")
                  .keyReused(
                      ErrorMatch.of(
                          422, "/details/*", "/issue", "PAYPAL_REQUEST_ID_PREVIOUSLY_USED"),
                      ErrorMatch.of(0, "", "/name", "DUPLICATE_REQUEST_ID")),
          "https://developer.paypal.com/reference/guidelines/idempotency",
          "https://developer.paypal.com/api/rest/requests/",
          "https://developer.paypal.com/api/payment-tokens/v3/errors/paypal_request_id_previously_used",
          "https://developer.paypal.com/api/deprecated/payments/v1/errors/duplicate_request_id",
          "https://developer.paypal.com/api/pricing/v2/definitions/error");

  static final ProviderPreset ADYEN =
      ProviderPreset.of(
          "adyen",
          b ->
              none(b)
                  .keyPlacement(KeyPlacement.header("Idempotency-Key"))
                  .codec(BodyCodec.json())
                  .apiKeyStyle(ApiKeyStyle.header("X-API-Key"))
                  .errorRequestIdField("/requestId")
                  .intentRetention(Duration.ofDays(31))
                  .keyMaxLength(64),
          "https://docs.adyen.com/development-resources/api-idempotency",
          "https://docs.adyen.com/development-resources/api-authentication",
          "https://docs.adyen.com/errors");

  static final ProviderPreset SQUARE =
      ProviderPreset.of(
          "square",
          b ->
              none(b)
                  .keyPlacement(KeyPlacement.bodyField("idempotency_key"))
                  .codec(BodyCodec.json())
                  .apiKeyStyle(ApiKeyStyle.bearer())
                  .identityHeaders("Square-Version")
                  .keyReused(ErrorMatch.of(0, "/errors/*", "/code", "IDEMPOTENCY_KEY_REUSED"))
                  .retryableErrors(ErrorMatch.of(0, "/errors/*", "/code", "TEMPORARY_ERROR")),
          "https://developer.squareup.com/docs/working-with-apis/idempotency",
          "https://developer.squareup.com/docs/working-with-apis/pagination",
          "https://github.com/square/square-java-sdk/blob/master/doc/models/error-code.md");

  static final ProviderPreset CHECKOUT_COM =
      ProviderPreset.of(
          "checkout.com",
          b ->
              none(b)
                  .keyPlacement(KeyPlacement.header("Cko-Idempotency-Key"))
                  .codec(BodyCodec.json())
                  .apiKeyStyle(ApiKeyStyle.header("Authorization"))
                  .requestIdHeaders("Cko-Request-Id")
                  .inProgress(ErrorMatch.status(409))
                  .intentRetention(Duration.ofHours(24)),
          "https://www.checkout.com/docs/payments/manage-payments/idempotency",
          "https://support.checkout.com/hc/en-us/articles/24570669653010-Why-did-I-receive-a-409-HTTP-response-to-my-idempotent-API-request-instead-of-429",
          "https://github.com/checkout/checkout-sdk-net");

  static final ProviderPreset GOCARDLESS =
      ProviderPreset.of(
          "gocardless",
          b ->
              none(b)
                  .keyPlacement(KeyPlacement.header("Idempotency-Key"))
                  .codec(BodyCodec.json())
                  .apiKeyStyle(ApiKeyStyle.bearer())
                  .header("GoCardless-Version", "2015-07-06")
                  .identityHeaders("GoCardless-Version")
                  .errorRequestIdField("/error/request_id")
                  .existingResource(GOCARDLESS_CONFLICT, GOCARDLESS_CONFLICT_ID),
          "https://gocardless.com/blog/idempotency-keys/",
          "https://github.com/gocardless/gocardless-pro-java",
          "https://github.com/gocardless/gocardless-pro-ruby");
}
