package dev.saferetry.webhook;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * A webhook delivery whose signature was verified: the provider's event or delivery id (the key to
 * deduplicate it by), the exact payload bytes that were signed, and the signed timestamp when the
 * scheme has one.
 *
 * <p>Which id is returned depends on the scheme: Stripe's event {@code id} from the payload,
 * GitHub's {@code X-GitHub-Delivery}, Standard Webhooks' {@code webhook-id}. A provider's
 * redelivery of the same event carries the same id.
 *
 * <p>{@link #toString()} shows the id and the payload size, never the payload. Instances are
 * immutable and thread-safe.
 */
public final class VerifiedWebhook {
  private final String id;
  private final byte[] payload;
  private final Instant signedAt;

  VerifiedWebhook(String id, byte[] payload, Instant signedAt) {
    this.id = Objects.requireNonNull(id, "id");
    this.payload = payload.clone();
    this.signedAt = signedAt;
  }

  /** {@return the event or delivery id: 1 to 255 visible ASCII characters} */
  public String id() {
    return id;
  }

  /** {@return a copy of the signed payload bytes} */
  public byte[] payload() {
    return payload.clone();
  }

  /** {@return the payload decoded as UTF-8 (malformed sequences become U+FFFD)} */
  public String payloadAsString() {
    return new String(payload, StandardCharsets.UTF_8);
  }

  /** {@return the signed timestamp; empty for schemes that sign none (GitHub)} */
  public Optional<Instant> signedAt() {
    return Optional.ofNullable(signedAt);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof VerifiedWebhook v
        && id.equals(v.id)
        && Arrays.equals(payload, v.payload)
        && Objects.equals(signedAt, v.signedAt);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, Arrays.hashCode(payload), signedAt);
  }

  @Override
  public String toString() {
    return "VerifiedWebhook[id="
        + id
        + ", payload="
        + payload.length
        + " bytes"
        + (signedAt == null ? "" : ", signedAt=" + signedAt)
        + "]";
  }
}
