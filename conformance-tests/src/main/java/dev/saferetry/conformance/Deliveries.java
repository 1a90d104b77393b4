package dev.saferetry.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import okhttp3.Request;

/**
 * Makes and sends webhook deliveries for one case of the webhook-receiver contract: events from the
 * payload template ({@code payload.template} with {@code ${event_id}}, {@code ${type}}, {@code
 * ${created}}, {@code ${resource_id}} and {@code ${order_id}}), signed by the configured {@link
 * SignatureScheme} with {@code webhook.secret}, POSTed to {@code webhook.path} with {@code
 * headers.*}. Every exchange is recorded by the probe. Thread-safe (immutable; the probe is).
 */
final class Deliveries {
  private final Probe t;
  private final SignatureScheme scheme;
  private final byte[] key;
  private final String template;
  private final long tolerance;

  /**
   * Reads and checks the configuration.
   *
   * @throws IllegalArgumentException naming the property that is missing or malformed
   */
  Deliveries(Probe t) {
    this.t = t;
    this.scheme = SignatureScheme.named(t.config("signature.scheme"));
    String secret = t.config("webhook.secret");
    if (secret == null) {
      throw new IllegalArgumentException(
          "webhook.secret is required: the receiver's signing secret (never printed)");
    }
    this.key = scheme.key(secret);
    this.template = required("payload.template");
    required("webhook.path");
    this.tolerance = t.cfg.getLong("signature.tolerance-seconds", 300);
    if (tolerance <= 0) {
      throw new IllegalArgumentException("signature.tolerance-seconds must be positive");
    }
    if (t.cfg.getLong("answer-within-millis", 2000) <= 0 || t.cfg.getInt("concurrency", 16) < 1) {
      throw new IllegalArgumentException("answer-within-millis and concurrency must be positive");
    }
    checkTemplate();
  }

  private String required(String property) {
    String value = t.config(property);
    if (value == null) {
      throw new IllegalArgumentException(property + " is required");
    }
    return value;
  }

  private void checkTemplate() {
    for (String placeholder : new String[] {"${order_id}", "${created}"}) {
      if (!template.contains(placeholder)) {
        throw new IllegalArgumentException("payload.template must contain " + placeholder);
      }
    }
    if (!scheme.idInHeader() && !template.contains("${event_id}")) {
      throw new IllegalArgumentException(
          "payload.template must contain ${event_id}: with signature.scheme="
              + scheme
              + " the event id travels in the body");
    }
    if (Answer.parse(fill("evt_check", "order_check", type(), 1)) == null) {
      throw new IllegalArgumentException(
          "payload.template is not JSON once its placeholders are filled");
    }
  }

  SignatureScheme scheme() {
    return scheme;
  }

  byte[] key() {
    return key;
  }

  /** The receiver's declared timestamp tolerance, in seconds. */
  long tolerance() {
    return tolerance;
  }

  /** The suite's clock, Unix seconds. */
  static long now() {
    return Instant.now().getEpochSecond();
  }

  /** The type of ordinary events ({@code event.type}). */
  String type() {
    return Objects.requireNonNullElse(t.config("event.type"), "charge.succeeded");
  }

  /** The type of the newer event in the ordering cases ({@code event.newer-type}). */
  String newerType() {
    return Objects.requireNonNullElse(t.config("event.newer-type"), type());
  }

  /** A new order id, unique to this run. */
  String newOrder() {
    return t.session.unique("order");
  }

  /** A new event about a new order, created now. */
  Delivery fresh() {
    return event(newOrder(), type(), now());
  }

  /** A new event (fresh id) about {@code orderId}. */
  Delivery event(String orderId, String type, long created) {
    String id = t.session.unique("evt_sr");
    return new Delivery(id, orderId, type, created, fill(id, orderId, type, created));
  }

  /** The same event (same id) with its body made for another order: a tampered copy. */
  Delivery aboutOtherOrder(Delivery d, String orderId) {
    return new Delivery(
        d.eventId(),
        orderId,
        d.type(),
        d.created(),
        fill(d.eventId(), orderId, d.type(), d.created()));
  }

  private String fill(String id, String orderId, String type, long created) {
    return template
        .replace("${event_id}", id)
        .replace("${type}", type)
        .replace("${created}", Long.toString(created))
        .replace("${resource_id}", "ch_" + orderId)
        .replace("${order_id}", orderId);
  }

  /** The headers that sign {@code d} at {@code signedAt}. */
  Map<String, String> signed(Delivery d, long signedAt) {
    return scheme.sign(key, d.eventId(), signedAt, d.body());
  }

  /** Delivers {@code d} signed now. */
  Answer send(String label, Delivery d) {
    return sendAt(label, d, now());
  }

  /** Delivers {@code d} signed at {@code signedAt}. */
  Answer sendAt(String label, Delivery d, long signedAt) {
    return send(label, d.body(), signed(d, signedAt));
  }

  /** POSTs {@code body} with these signature headers; an I/O error ends the case as ERROR. */
  Answer send(String label, String body, Map<String, String> signature) {
    Request request = request(body, signature);
    Answer answer = t.attempt(label, request);
    if (answer.lost()) {
      throw new UncheckedIOException(
          new IOException(label + ": no response (" + answer.error() + ")"));
    }
    return answer;
  }

  /** The request delivering {@code body} with these signature headers and {@code headers.*}. */
  Request request(String body, Map<String, String> signature) {
    Map<String, String> headers = new LinkedHashMap<>(t.tenant1());
    headers.putAll(signature);
    return t.request("POST", t.config("webhook.path"), body, null, headers);
  }
}
