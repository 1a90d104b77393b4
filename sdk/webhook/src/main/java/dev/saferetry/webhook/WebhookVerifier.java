package dev.saferetry.webhook;

import java.util.List;
import java.util.Map;

/**
 * Verifies one provider's webhook deliveries. Pass the request body exactly as received — before
 * any JSON parsing or character decoding — and the request headers; get back the verified delivery
 * or a {@link WebhookVerificationException} saying which check failed.
 *
 * <p>Header names are matched ignoring case, so the JDK's {@code com.sun.net.httpserver.Headers}, a
 * servlet's headers copied into a map, or a plain {@code Map.of("Stripe-Signature",
 * List.of(value))} all work. A header the scheme needs once but that arrives several times is
 * rejected rather than guessed at.
 *
 * <p>Implementations are immutable and thread-safe; build one per endpoint and share it.
 */
public sealed interface WebhookVerifier
    permits StripeWebhookVerifier, GitHubWebhookVerifier, StandardWebhookVerifier {

  /**
   * Verifies a delivery.
   *
   * @param payload the raw request body bytes
   * @param headers the request headers, names matched ignoring case
   * @return the verified delivery with its id
   * @throws WebhookVerificationException when any check fails
   * @throws NullPointerException if an argument is null
   */
  VerifiedWebhook verify(byte[] payload, Map<String, ? extends List<String>> headers);
}
