package dev.saferetry.conformance;

/**
 * One webhook event as the suite delivers it: its id (the receiver's deduplication key), the order
 * (resource) it is about, its type and creation time, and the body made from the payload template.
 *
 * @param eventId the event id, unique to this run
 * @param orderId the order the event is about; also the marker its effects are counted by
 * @param type the event type, e.g. {@code charge.succeeded}
 * @param created the event's creation time, Unix seconds: its place on the order's timeline
 * @param body the request body, exactly the bytes that are signed (UTF-8)
 */
record Delivery(String eventId, String orderId, String type, long created, String body) {

  /** The effects of this event are counted by its order id. */
  Payload payload() {
    return new Payload(orderId, body);
  }
}
