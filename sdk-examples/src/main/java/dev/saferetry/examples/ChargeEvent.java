package dev.saferetry.examples;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * Part of the {@link WebhookReceiver} example: the part of a Stripe {@code charge.*} event the
 * receiver uses, read from the verified payload: the event's type and creation time, and the
 * charge's id, amounts and {@code metadata.order_id}.
 *
 * @param type the event type, e.g. {@code charge.succeeded}
 * @param created the event's creation time, Unix seconds: its position on the order's timeline
 * @param chargeId the charge ({@code data.object.id})
 * @param orderId the order the charge pays for ({@code data.object.metadata.order_id})
 * @param amount the charged amount in minor units
 * @param amountRefunded the refunded amount in minor units
 * @param currency the ISO currency code
 *     <p>Instances are immutable and thread-safe.
 */
record ChargeEvent(
    String type,
    long created,
    String chargeId,
    String orderId,
    long amount,
    long amountRefunded,
    String currency) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Whether this is an event the order book applies. */
  boolean isCharge() {
    return type.equals("charge.succeeded") || type.equals("charge.refunded");
  }

  /**
   * Reads the event.
   *
   * @throws IllegalArgumentException when a field the receiver needs is missing or mistyped
   */
  static ChargeEvent parse(byte[] payload) {
    JsonNode root;
    try {
      root = JSON.readTree(payload);
    } catch (IOException e) {
      throw new IllegalArgumentException("payload is not JSON");
    }
    JsonNode charge = root == null ? null : root.path("data").path("object");
    if (root == null
        || !root.path("type").isTextual()
        || !root.path("created").canConvertToLong()
        || !charge.path("id").isTextual()
        || !charge.path("metadata").path("order_id").isTextual()
        || !charge.path("amount").canConvertToLong()
        || !charge.path("currency").isTextual()) {
      throw new IllegalArgumentException("not a charge event with metadata.order_id");
    }
    return new ChargeEvent(
        root.get("type").asText(),
        root.get("created").asLong(),
        charge.get("id").asText(),
        charge.path("metadata").get("order_id").asText(),
        charge.get("amount").asLong(),
        charge.path("amount_refunded").asLong(0),
        charge.get("currency").asText());
  }
}
