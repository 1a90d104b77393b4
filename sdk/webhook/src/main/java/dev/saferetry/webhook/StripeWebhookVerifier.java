package dev.saferetry.webhook;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Verifies Stripe webhook deliveries by their {@code Stripe-Signature} header, following Stripe's
 * published manual verification steps (docs.stripe.com, "Verify webhook signatures manually").
 *
 * <p>The header is a comma-separated list of {@code key=value} elements: {@code t} is the signing
 * time in Unix seconds, and each {@code v1} is a hex HMAC-SHA256 signature of the bytes {@code t +
 * "." + payload} keyed with the endpoint secret's UTF-8 bytes (the whole {@code whsec_...} string).
 * During a secret roll Stripe sends one {@code v1} per active secret; a delivery is accepted when
 * any {@code v1} matches any configured secret, so both sides can rotate without downtime. Other
 * schemes (Stripe's test-mode {@code v0}) are ignored, as Stripe advises, to prevent downgrades. A
 * header with a repeated {@code t}, a malformed element or a {@code v1} that is not 64 hex digits
 * is rejected. The timestamp must lie within the tolerance of the clock in both directions; it is
 * checked after the signature, so {@link WebhookFailure#TIMESTAMP_TOO_OLD} means an authentic but
 * stale (replayed or late) delivery.
 *
 * <p>The returned id is the event's top-level {@code id} ({@code evt_...}) read from the verified
 * payload; a payload that is not a JSON object with exactly one string {@code id} is rejected as
 * {@link WebhookFailure#MALFORMED_PAYLOAD}.
 *
 * <pre>{@code
 * StripeWebhookVerifier stripe = StripeWebhookVerifier.of(System.getenv("STRIPE_WEBHOOK_SECRET"));
 * VerifiedWebhook event = stripe.verify(rawBody, request.getHeader("Stripe-Signature"));
 * }</pre>
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class StripeWebhookVerifier implements WebhookVerifier {
  /** The header Stripe signs deliveries in. */
  public static final String SIGNATURE_HEADER = "Stripe-Signature";

  private static final byte[] DOT = {'.'};

  private final List<byte[]> keys;
  private final Freshness freshness;

  private StripeWebhookVerifier(List<byte[]> keys, Freshness freshness) {
    this.keys = keys;
    this.freshness = freshness;
  }

  /**
   * {@return a verifier of deliveries signed with {@code secret}: tolerance 5 minutes, judged by
   * the system clock}
   *
   * @param secret the signing secret (the whole {@code whsec_...} string); never shown in messages
   *     or {@code toString()}
   * @throws NullPointerException if the secret is null
   * @throws IllegalArgumentException if the secret is empty or has surrounding whitespace (the
   *     message never quotes it)
   */
  public static StripeWebhookVerifier of(String secret) {
    return of(Secrets.one(secret));
  }

  /**
   * {@return a verifier that accepts a delivery signed with any of {@code secrets}, for a rotation:
   * tolerance 5 minutes, judged by the system clock}
   *
   * @param secrets every currently valid signing secret: 1 to 16
   * @throws NullPointerException if the list or a secret is null
   * @throws IllegalArgumentException if there are none or more than 16, or a secret is empty or has
   *     surrounding whitespace (the message names its position, never its value)
   */
  public static StripeWebhookVerifier of(List<String> secrets) {
    return new StripeWebhookVerifier(Secrets.utf8(secrets), Freshness.DEFAULT);
  }

  /**
   * {@return a copy of this verifier that accepts a signed time this far from the clock, either
   * way} The default is 5 minutes.
   *
   * @param tolerance the tolerance: positive and at most 1 day (a wider window would only let a
   *     captured delivery be replayed for longer)
   * @throws IllegalArgumentException if the tolerance is zero, negative or longer than 1 day
   */
  public StripeWebhookVerifier withTolerance(Duration tolerance) {
    return new StripeWebhookVerifier(keys, freshness.withTolerance(tolerance));
  }

  /**
   * {@return a copy of this verifier that checks timestamps against {@code clock}} The default is
   * {@link Clock#systemUTC()}.
   *
   * @param clock the clock
   */
  public StripeWebhookVerifier withClock(Clock clock) {
    return new StripeWebhookVerifier(keys, freshness.withClock(clock));
  }

  @Override
  public VerifiedWebhook verify(byte[] payload, Map<String, ? extends List<String>> headers) {
    Objects.requireNonNull(payload, "payload");
    return verify(payload, HeaderLookup.single(headers, SIGNATURE_HEADER));
  }

  /**
   * Verifies a delivery given the value of its {@code Stripe-Signature} header.
   *
   * @param payload the raw request body bytes
   * @param signatureHeader the header's value; null counts as missing
   * @return the verified event with its {@code evt_...} id and signing time
   * @throws WebhookVerificationException when any check fails
   */
  public VerifiedWebhook verify(byte[] payload, String signatureHeader) {
    Objects.requireNonNull(payload, "payload");
    String header = HeaderLookup.check(signatureHeader, SIGNATURE_HEADER);
    String t = null;
    List<byte[]> signatures = new ArrayList<>();
    for (String element : header.split(",", -1)) {
      String item = element.strip();
      int eq = item.indexOf('=');
      if (eq <= 0) {
        throw malformed("an element is not key=value");
      }
      String key = item.substring(0, eq);
      String value = item.substring(eq + 1);
      if (key.equals("t")) {
        if (t != null) {
          throw malformed("t appears more than once");
        }
        t = value;
      } else if (key.equals("v1")) {
        byte[] signature = Hmac.fromHex(value);
        if (signature == null) {
          throw malformed("a v1 signature is not 64 hex digits");
        }
        signatures.add(signature);
      }
    }
    if (t == null) {
      throw malformed("no t= timestamp");
    }
    Instant signedAt = Freshness.parseSeconds(t, SIGNATURE_HEADER);
    if (signatures.isEmpty()) {
      throw HeaderLookup.fail(WebhookFailure.NO_SIGNATURE, SIGNATURE_HEADER, "no v1 signature");
    }
    byte[] timestamp = t.getBytes(StandardCharsets.US_ASCII);
    if (!Hmac.anyMatches(keys, signatures, timestamp, DOT, payload)) {
      throw HeaderLookup.fail(
          WebhookFailure.SIGNATURE_MISMATCH, SIGNATURE_HEADER, "no v1 signature matches a secret");
    }
    freshness.check(signedAt, SIGNATURE_HEADER);
    String id = TopLevelJson.stringMember(payload, "id");
    if (!HeaderLookup.isValidId(id)) {
      throw HeaderLookup.fail(
          WebhookFailure.MALFORMED_PAYLOAD, null, "not a JSON object with one string id");
    }
    return new VerifiedWebhook(id, payload, signedAt);
  }

  private static WebhookVerificationException malformed(String detail) {
    return HeaderLookup.fail(WebhookFailure.MALFORMED_HEADER, SIGNATURE_HEADER, detail);
  }

  @Override
  public String toString() {
    return "StripeWebhookVerifier[secrets=" + keys.size() + ", " + freshness + "]";
  }
}
