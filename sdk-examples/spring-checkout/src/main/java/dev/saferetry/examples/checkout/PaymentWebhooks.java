package dev.saferetry.examples.checkout;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.examples.checkout.OrderService.PaymentEvent;
import dev.saferetry.spring.SafeRetryWebhooks;
import dev.saferetry.spring.WebhookReceipt;
import org.springframework.http.ResponseEntity;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * The provider's webhooks ({@code saferetry.webhooks.payments}: Standard Webhooks signatures): the
 * signature is verified on the raw bytes, then the event is applied through the inbox in one
 * transaction, once per delivery id however often the provider sends it.
 */
@RestController
class PaymentWebhooks {
  private static final ObjectMapper JSON =
      new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private final SafeRetryWebhooks webhooks;
  private final OrderService orders;

  PaymentWebhooks(SafeRetryWebhooks webhooks, OrderService orders) {
    this.webhooks = webhooks;
    this.orders = orders;
  }

  @PostMapping("/webhooks/payments")
  ResponseEntity<String> receive(
      @RequestBody byte[] body, @RequestHeader MultiValueMap<String, String> headers) {
    WebhookReceipt receipt =
        webhooks.receive(
            "payments",
            body,
            headers,
            (event, inbox) -> orders.markPaid(JSON.readValue(event.payload(), PaymentEvent.class)));
    // APPLIED the first time, DUPLICATE afterwards; a refused signature names the failed check
    String said = receipt.outcome() != null ? receipt.outcome().name() : "" + receipt.failure();
    return ResponseEntity.status(receipt.httpStatus()).body(said);
  }
}
