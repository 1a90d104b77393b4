package dev.saferetry.spring.app;

import dev.saferetry.spring.SafeRetryWebhooks;
import dev.saferetry.spring.WebhookReceipt;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/** Receives the provider's webhooks: verified, then applied once through the inbox. */
@RestController
public class WebhookController {
  private final SafeRetryWebhooks webhooks;
  private final JdbcTemplate jdbc;

  WebhookController(SafeRetryWebhooks webhooks, JdbcTemplate jdbc) {
    this.webhooks = webhooks;
    this.jdbc = jdbc;
  }

  @PostMapping("/webhooks/stripe")
  ResponseEntity<Void> stripe(
      @RequestBody byte[] body, @RequestHeader MultiValueMap<String, String> headers) {
    WebhookReceipt r =
        webhooks.receive(
            "stripe",
            body,
            headers,
            (event, inbox) -> {
              jdbc.update(
                  "INSERT INTO payments_received (event_id, order_id) VALUES (?, ?)",
                  event.id(),
                  "from-webhook");
              if (event.payloadAsString().contains("\"fail\":true")) {
                throw new IllegalStateException("the handler failed after its write");
              }
            });
    return ResponseEntity.status(r.httpStatus()).build();
  }
}
