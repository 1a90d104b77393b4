package dev.saferetry.spring;

import dev.saferetry.jdbc.inbox.InboxException;
import dev.saferetry.jdbc.inbox.InboxResult;
import dev.saferetry.webhook.VerifiedWebhook;
import dev.saferetry.webhook.WebhookVerificationException;
import dev.saferetry.webhook.WebhookVerifier;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Receives webhook deliveries in a controller method: verifies the signature on the raw bytes (with
 * the verifier {@code saferetry.webhooks.<name>.*} configures), then applies the delivery through
 * the inbox in one transaction, once per event id however often the provider sends it.
 *
 * <pre>{@code
 * @PostMapping("/webhooks/stripe")
 * ResponseEntity<Void> stripe(@RequestBody byte[] body,
 *                             @RequestHeader MultiValueMap<String, String> headers) {
 *   WebhookReceipt r = webhooks.receive("stripe", body, headers,
 *       (event, inbox) -> orders.markPaid(event.payloadAsString()));
 *   return ResponseEntity.status(r.httpStatus()).build();
 * }
 * }</pre>
 *
 * <p>This class is thread-safe.
 */
public final class SafeRetryWebhooks {
  private final Map<String, WebhookVerifier> verifiers;
  private final SafeRetryInbox inbox;
  private final TransactionTemplate transactions;

  SafeRetryWebhooks(
      Map<String, WebhookVerifier> verifiers,
      SafeRetryInbox inbox,
      TransactionTemplate transactions) {
    this.verifiers = Map.copyOf(verifiers);
    this.inbox = inbox;
    this.transactions = transactions;
  }

  /**
   * Verifies a delivery with the verifier of {@code saferetry.webhooks.<source>} and applies it
   * once, with {@code source} as the inbox's subscriber.
   *
   * @param source the webhook source's name under {@code saferetry.webhooks}
   * @param body the request's raw body, unparsed
   * @param headers the request's headers (e.g. a {@code MultiValueMap<String, String>} from
   *     {@code @RequestHeader}); names are matched without regard to case
   * @param handler what the delivery does the first time
   * @return what happened and the status to answer with
   * @throws IllegalArgumentException if no source of that name is configured
   * @throws RuntimeException what the handler threw (after the rollback): answer 500 and the
   *     provider sends it again
   */
  public WebhookReceipt receive(
      String source,
      byte[] body,
      Map<String, ? extends List<String>> headers,
      WebhookHandler handler) {
    WebhookVerifier verifier = verifiers.get(source);
    if (verifier == null) {
      throw new IllegalArgumentException(
          "no webhook source saferetry.webhooks." + source + " is configured");
    }
    return receive(source, verifier, body, headers, handler);
  }

  /**
   * Verifies a delivery with {@code verifier} and applies it once for {@code subscriber}.
   *
   * @param subscriber the inbox's subscriber (1 to 200 characters)
   * @param verifier the verifier
   * @param body the raw body
   * @param headers the headers
   * @param handler what the delivery does the first time
   * @return what happened and the status to answer with
   */
  public WebhookReceipt receive(
      String subscriber,
      WebhookVerifier verifier,
      byte[] body,
      Map<String, ? extends List<String>> headers,
      WebhookHandler handler) {
    Objects.requireNonNull(handler, "handler");
    VerifiedWebhook event;
    try {
      event = verifier.verify(body, headers);
    } catch (WebhookVerificationException e) {
      return new WebhookReceipt(null, e.failure(), 400);
    }
    try {
      InboxResult outcome =
          transactions.execute(
              s -> inbox.receive(subscriber, event.id(), ctx -> handler.handle(event, ctx)));
      return new WebhookReceipt(outcome, null, 200);
    } catch (InboxException e) {
      if (e.kind() == InboxException.Kind.BUSY) {
        return new WebhookReceipt(null, null, 503);
      }
      throw e;
    }
  }
}
