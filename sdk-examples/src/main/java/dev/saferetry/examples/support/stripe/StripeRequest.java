package dev.saferetry.examples.support.stripe;

import java.util.Map;

/**
 * One parsed request: the parameters of its query and form body merged (the body wins), and the
 * headers that matter to Stripe.
 *
 * @param apiKey the secret key from {@code Authorization} (Bearer or Basic)
 * @param account the {@code Stripe-Account} header, or null for the platform itself
 * @param version the {@code Stripe-Version} header, or null for the account's default
 * @param idempotencyKey the {@code Idempotency-Key} header, or null
 */
record StripeRequest(
    String method,
    String path,
    Map<String, Object> params,
    boolean hasBody,
    String apiKey,
    String account,
    String version,
    String idempotencyKey) {}
