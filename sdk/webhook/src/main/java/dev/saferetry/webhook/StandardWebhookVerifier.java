package dev.saferetry.webhook;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Verifies deliveries signed by the Standard Webhooks specification (version 1.0.0,
 * standardwebhooks.com): the {@code webhook-id}, {@code webhook-timestamp} and {@code
 * webhook-signature} headers.
 *
 * <p>The signed content is {@code id + "." + timestamp + "." + payload}; the key is the base64
 * value after the secret's {@code whsec_} prefix (24 to 64 bytes). {@code webhook-signature} is a
 * space-separated list of {@code version,signature} entries; every {@code v1} entry is a base64
 * HMAC-SHA256 and the delivery is accepted when any of them matches any configured secret, which is
 * how both sides rotate secrets. Entries of other versions (the asymmetric {@code v1a}) are
 * ignored; a header with none of version {@code v1} is {@link WebhookFailure#NO_SIGNATURE}. The
 * timestamp (Unix seconds) must lie within the tolerance of the clock in both directions; it is
 * checked after the signature. The id may not contain a full stop, as the specification asks: with
 * one, the same signed bytes could be re-split into another id and body.
 *
 * <p>The returned id is {@code webhook-id}, which stays the same when a delivery is retried.
 *
 * <pre>{@code
 * StandardWebhookVerifier verifier =
 *     StandardWebhookVerifier.of("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
 * VerifiedWebhook message = verifier.verify(rawBody, headers);
 * }</pre>
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class StandardWebhookVerifier implements WebhookVerifier {
  /** The header carrying the message id. */
  public static final String ID_HEADER = "webhook-id";

  /** The header carrying the signing time in Unix seconds. */
  public static final String TIMESTAMP_HEADER = "webhook-timestamp";

  /** The header carrying the signatures. */
  public static final String SIGNATURE_HEADER = "webhook-signature";

  private static final byte[] DOT = {'.'};

  private final List<byte[]> keys;
  private final Freshness freshness;

  private StandardWebhookVerifier(List<byte[]> keys, Freshness freshness) {
    this.keys = keys;
    this.freshness = freshness;
  }

  /**
   * {@return a verifier of deliveries signed with {@code secret}: tolerance 5 minutes, judged by
   * the system clock}
   *
   * @param secret the signing secret ({@code whsec_} and base64; the prefix may be left out); never
   *     shown in messages or {@code toString()}
   * @throws NullPointerException if the secret is null
   * @throws IllegalArgumentException if the secret is empty or has surrounding whitespace, or is
   *     not base64 of 24 to 64 bytes (the message never quotes it)
   */
  public static StandardWebhookVerifier of(String secret) {
    return of(Secrets.one(secret));
  }

  /**
   * {@return a verifier that accepts a delivery signed with any of {@code secrets}, for a rotation:
   * tolerance 5 minutes, judged by the system clock}
   *
   * @param secrets every currently valid signing secret: 1 to 16
   * @throws NullPointerException if the list or a secret is null
   * @throws IllegalArgumentException if there are none or more than 16, or a secret is empty or has
   *     surrounding whitespace, or is not base64 of 24 to 64 bytes (the message names its position,
   *     never its value)
   */
  public static StandardWebhookVerifier of(List<String> secrets) {
    return new StandardWebhookVerifier(Secrets.standard(secrets), Freshness.DEFAULT);
  }

  /**
   * {@return a copy of this verifier that accepts a signed time this far from the clock, either
   * way} The default is 5 minutes.
   *
   * @param tolerance the tolerance: positive and at most 1 day (a wider window would only let a
   *     captured delivery be replayed for longer)
   * @throws IllegalArgumentException if the tolerance is zero, negative or longer than 1 day
   */
  public StandardWebhookVerifier withTolerance(Duration tolerance) {
    return new StandardWebhookVerifier(keys, freshness.withTolerance(tolerance));
  }

  /**
   * {@return a copy of this verifier that checks timestamps against {@code clock}} The default is
   * {@link Clock#systemUTC()}.
   *
   * @param clock the clock
   */
  public StandardWebhookVerifier withClock(Clock clock) {
    return new StandardWebhookVerifier(keys, freshness.withClock(clock));
  }

  @Override
  public VerifiedWebhook verify(byte[] payload, Map<String, ? extends List<String>> headers) {
    Objects.requireNonNull(payload, "payload");
    String id = HeaderLookup.single(headers, ID_HEADER);
    String timestamp = HeaderLookup.single(headers, TIMESTAMP_HEADER);
    String header = HeaderLookup.single(headers, SIGNATURE_HEADER);
    if (!HeaderLookup.isValidId(id) || id.indexOf('.') >= 0) {
      throw HeaderLookup.fail(WebhookFailure.MALFORMED_HEADER, ID_HEADER, "bad id");
    }
    Instant signedAt = Freshness.parseSeconds(timestamp, TIMESTAMP_HEADER);
    List<byte[]> signatures = v1Signatures(header);
    byte[][] content = {
      id.getBytes(StandardCharsets.US_ASCII),
      DOT,
      timestamp.getBytes(StandardCharsets.US_ASCII),
      DOT,
      payload
    };
    if (!Hmac.anyMatches(keys, signatures, content)) {
      throw HeaderLookup.fail(
          WebhookFailure.SIGNATURE_MISMATCH, SIGNATURE_HEADER, "no v1 signature matches a secret");
    }
    freshness.check(signedAt, TIMESTAMP_HEADER);
    return new VerifiedWebhook(id, payload, signedAt);
  }

  private static List<byte[]> v1Signatures(String header) {
    List<byte[]> signatures = new ArrayList<>();
    for (String entry : header.split(" ")) {
      if (entry.isEmpty()) {
        continue;
      }
      int comma = entry.indexOf(',');
      if (comma <= 0) {
        throw malformed("an entry is not version,signature");
      }
      if (!entry.substring(0, comma).equals("v1")) {
        continue;
      }
      byte[] signature;
      try {
        signature = Base64.getDecoder().decode(entry.substring(comma + 1));
      } catch (IllegalArgumentException e) {
        throw malformed("a v1 signature is not base64");
      }
      if (signature.length != Hmac.LENGTH) {
        throw malformed("a v1 signature is not 32 bytes");
      }
      signatures.add(signature);
    }
    if (signatures.isEmpty()) {
      throw HeaderLookup.fail(WebhookFailure.NO_SIGNATURE, SIGNATURE_HEADER, "no v1 signature");
    }
    return signatures;
  }

  private static WebhookVerificationException malformed(String detail) {
    return HeaderLookup.fail(WebhookFailure.MALFORMED_HEADER, SIGNATURE_HEADER, detail);
  }

  @Override
  public String toString() {
    return "StandardWebhookVerifier[secrets=" + keys.size() + ", " + freshness + "]";
  }
}
