package dev.saferetry.examples.checkout;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.examples.checkout.OrderService.PaymentEvent;
import dev.saferetry.jdbc.InboxOutcome;
import dev.saferetry.webhook.StandardWebhookVerifier;
import dev.saferetry.webhook.VerifiedWebhook;
import dev.saferetry.webhook.WebhookVerificationException;
import java.io.IOException;
import org.springframework.http.ResponseEntity;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * The provider's webhooks: the signature is verified on the raw bytes, then the event is applied
 * once through the inbox, keyed by the delivery id the provider keeps across its retries.
 */
@RestController
class PaymentWebhooks {
  private static final ObjectMapper JSON =
      new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private final StandardWebhookVerifier verifier;
  private final OrderService orders;

  PaymentWebhooks(StandardWebhookVerifier verifier, OrderService orders) {
    this.verifier = verifier;
    this.orders = orders;
  }

  @PostMapping("/webhooks/payments")
  ResponseEntity<String> receive(
      @RequestBody byte[] body, @RequestHeader MultiValueMap<String, String> headers)
      throws IOException {
    VerifiedWebhook delivery;
    try {
      delivery = verifier.verify(body, headers);
    } catch (WebhookVerificationException e) {
      return ResponseEntity.badRequest().body(e.failure().name()); // never the body or secret
    }
    PaymentEvent event = JSON.readValue(delivery.payload(), PaymentEvent.class);
    InboxOutcome outcome = orders.applyPayment(delivery.id(), event);
    return ResponseEntity.ok(outcome.name()); // APPLIED the first time, DUPLICATE afterwards
  }
}
