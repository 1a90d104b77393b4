/**
 * Verifying webhook deliveries before anything else reads them: signatures checked on the raw
 * request bytes in constant time, timestamps held to a tolerance, rotated secrets accepted, and the
 * verified event or delivery id handed back as the deduplication key for an inbox.
 *
 * <p>Three schemes are built in: {@link dev.saferetry.webhook.StripeWebhookVerifier} ({@code
 * Stripe-Signature}), {@link dev.saferetry.webhook.GitHubWebhookVerifier} ({@code
 * X-Hub-Signature-256}) and {@link dev.saferetry.webhook.StandardWebhookVerifier} (the Standard
 * Webhooks {@code webhook-*} headers). Only the JDK is used.
 *
 * <pre>{@code
 * WebhookVerifier verifier = StripeWebhookVerifier.of(endpointSecret);
 * try {
 *   VerifiedWebhook hook = verifier.verify(rawBody, requestHeaders);
 *   inbox.receive("billing", hook.id(), tx -> apply(tx, hook.payload()));
 *   // answer 2xx
 * } catch (WebhookVerificationException e) {
 *   // answer 400; e.failure() says which check failed
 * }
 * }</pre>
 */
package dev.saferetry.webhook;
