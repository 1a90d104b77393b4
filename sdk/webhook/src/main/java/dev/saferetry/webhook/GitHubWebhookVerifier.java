package dev.saferetry.webhook;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Verifies GitHub webhook deliveries by their {@code X-Hub-Signature-256} header, following
 * GitHub's published guide (docs.github.com, "Validating webhook deliveries").
 *
 * <p>The header is {@code sha256=} followed by the hex HMAC-SHA256 of the raw body, keyed with the
 * webhook secret's UTF-8 bytes. The legacy SHA-1 {@code X-Hub-Signature} header is never used, so a
 * delivery cannot be downgraded to it. Several secrets may be configured for a rotation.
 *
 * <p>The returned id is the {@code X-GitHub-Delivery} GUID, which GitHub keeps when a delivery is
 * redelivered. GitHub signs no timestamp, so nothing here limits a replay in time: deduplicate by
 * the delivery id (an inbox) to make replays harmless. {@link VerifiedWebhook#signedAt()} is empty.
 *
 * <pre>{@code
 * GitHubWebhookVerifier github = GitHubWebhookVerifier.of(secret);
 * VerifiedWebhook delivery = github.verify(rawBody, headers);
 * }</pre>
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class GitHubWebhookVerifier implements WebhookVerifier {
  /** The header GitHub signs deliveries in. */
  public static final String SIGNATURE_HEADER = "X-Hub-Signature-256";

  /** The header carrying the delivery's GUID. */
  public static final String DELIVERY_HEADER = "X-GitHub-Delivery";

  private static final String PREFIX = "sha256=";

  private final List<byte[]> keys;

  private GitHubWebhookVerifier(List<byte[]> keys) {
    this.keys = keys;
  }

  /**
   * {@return a verifier of deliveries signed with {@code secret}}
   *
   * @param secret the signing secret; never shown in messages or {@code toString()}
   * @throws NullPointerException if the secret is null
   * @throws IllegalArgumentException if the secret is empty or has surrounding whitespace (the
   *     message never quotes it)
   */
  public static GitHubWebhookVerifier of(String secret) {
    return of(Secrets.one(secret));
  }

  /**
   * {@return a verifier that accepts a delivery signed with any of {@code secrets}, for a rotation}
   *
   * @param secrets every currently valid signing secret: 1 to 16
   * @throws NullPointerException if the list or a secret is null
   * @throws IllegalArgumentException if there are none or more than 16, or a secret is empty or has
   *     surrounding whitespace (the message names its position, never its value)
   */
  public static GitHubWebhookVerifier of(List<String> secrets) {
    return new GitHubWebhookVerifier(Secrets.utf8(secrets));
  }

  @Override
  public VerifiedWebhook verify(byte[] payload, Map<String, ? extends List<String>> headers) {
    Objects.requireNonNull(payload, "payload");
    String header = HeaderLookup.single(headers, SIGNATURE_HEADER);
    String delivery = HeaderLookup.single(headers, DELIVERY_HEADER);
    if (!HeaderLookup.isValidId(delivery)) {
      throw HeaderLookup.fail(WebhookFailure.MALFORMED_HEADER, DELIVERY_HEADER, "bad id");
    }
    if (!header.startsWith(PREFIX)) {
      throw HeaderLookup.fail(WebhookFailure.NO_SIGNATURE, SIGNATURE_HEADER, "no sha256= value");
    }
    byte[] signature = Hmac.fromHex(header.substring(PREFIX.length()));
    if (signature == null) {
      throw HeaderLookup.fail(
          WebhookFailure.MALFORMED_HEADER, SIGNATURE_HEADER, "not 64 hex digits");
    }
    if (!Hmac.anyMatches(keys, List.of(signature), payload)) {
      throw HeaderLookup.fail(
          WebhookFailure.SIGNATURE_MISMATCH, SIGNATURE_HEADER, "does not match a secret");
    }
    return new VerifiedWebhook(delivery, payload, null);
  }

  @Override
  public String toString() {
    return "GitHubWebhookVerifier[secrets=" + keys.size() + "]";
  }
}
