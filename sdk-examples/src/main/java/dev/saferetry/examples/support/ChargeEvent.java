package dev.saferetry.examples.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Optional;

/**
 * Part of the {@link dev.saferetry.examples.WebhookReceiver} example: the part of a Stripe {@code
 * charge.succeeded} or {@code charge.refunded} event the receiver uses, read from the verified
 * payload: the event's type and creation time, and the charge's id, amounts and {@code
 * metadata.order_id}.
 *
 * @param type {@code charge.succeeded} or {@code charge.refunded}
 * @param created the event's creation time, Unix seconds
 * @param chargeId the charge ({@code data.object.id})
 * @param orderId the order the charge pays for ({@code data.object.metadata.order_id})
 * @param amount the charged amount in minor units
 * @param amountRefunded the refunded amount in minor units, all refunds of the charge so far
 * @param currency the ISO currency code
 *     <p>Instances are immutable and thread-safe.
 */
public record ChargeEvent(
    String type,
    long created,
    String chargeId,
    String orderId,
    long amount,
    long amountRefunded,
    String currency) {
  static final String SUCCEEDED = "charge.succeeded";
  static final String REFUNDED = "charge.refunded";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long LATEST_CREATED = 1L << 40; // seconds: the year 36812

  /** Whether this is a refund (else a payment). */
  public boolean refund() {
    return type.equals(REFUNDED);
  }

  /**
   * The event's place on its order's timeline: its creation time, and within one second a refund
   * after a payment (a refund needs the payment first, so one created in the same second is the
   * later event). {@code created} has a resolution of one second, too coarse to order two events
   * alone.
   */
  public long position() {
    return created * 2 + (refund() ? 1 : 0);
  }

  /**
   * Reads the event: empty for a well-formed event the receiver does not handle (another type, or a
   * charge without {@code metadata.order_id}, which no order of this shop made).
   *
   * @throws IllegalArgumentException when the event or, for a charge event, the charge is malformed
   */
  public static Optional<ChargeEvent> parse(byte[] payload) {
    JsonNode root;
    try {
      root = JSON.readTree(payload);
    } catch (IOException e) {
      throw new IllegalArgumentException("payload is not JSON");
    }
    if (root == null
        || !root.path("type").isTextual()
        || !isLong(root.path("created"))
        || root.get("created").asLong() < 0
        || root.get("created").asLong() >= LATEST_CREATED) {
      throw new IllegalArgumentException("not an event with a type and a created time");
    }
    String type = root.get("type").asText();
    if (!type.equals(SUCCEEDED) && !type.equals(REFUNDED)) {
      return Optional.empty();
    }
    JsonNode charge = root.path("data").path("object");
    if (!charge.path("id").isTextual()
        || !isLong(charge.path("amount"))
        || charge.has("amount_refunded") && !isLong(charge.get("amount_refunded"))
        || !charge.path("currency").isTextual()) {
      throw new IllegalArgumentException("a charge event without a well-formed charge");
    }
    String orderId = charge.path("metadata").path("order_id").asText("");
    if (orderId.isEmpty()) {
      return Optional.empty();
    }
    if (orderId.length() > 200
        || charge.get("id").asText().length() > 255
        || charge.get("currency").asText().length() != 3) {
      throw new IllegalArgumentException("an order id, charge id or currency out of bounds");
    }
    return Optional.of(
        new ChargeEvent(
            type,
            root.get("created").asLong(),
            charge.get("id").asText(),
            orderId,
            charge.get("amount").asLong(),
            charge.path("amount_refunded").asLong(0),
            charge.get("currency").asText()));
  }

  private static boolean isLong(JsonNode n) {
    return n.isIntegralNumber() && n.canConvertToLong();
  }
}
