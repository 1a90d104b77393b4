package dev.saferetry.idempotency;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Objects;
import java.util.UUID;

/**
 * Derives idempotency keys from the caller's own records instead of storing them: the key of an
 * operation is the name-based UUID version 5 (SHA-1, RFC 9562 section 5.5) of a namespace and a
 * business id, so recomputing it after a restart gives the same key without any {@link KeyStore}.
 *
 * <pre>{@code
 * static final UUID CHARGES = UUID.fromString("9f0d6c7e-3b9a-4a55-8a51-0c0e8f5bb1d2"); // yours
 * IdempotencyKey key = StableKeys.derive(CHARGES, "order-123/charge/1");
 * RequestOptions options = RequestOptions.builder().idempotencyKey(key).build();
 * }</pre>
 *
 * <p><b>Use stable business fields only</b> — ids that never change for the same logical operation,
 * such as an order id plus the operation's name. Never include timestamps, amounts or other values
 * that may be corrected, retry counters or anything random: a different input gives a different
 * key, and a different key lets the server perform the operation twice. Conversely, two genuinely
 * different operations must never share a business id (for a second charge of the same order, add
 * its sequence number). Pick one random namespace UUID per application and kind of operation and
 * keep it constant forever; keys of different namespaces never collide.
 *
 * <p>This class is thread-safe.
 */
public final class StableKeys {
  private StableKeys() {}

  /**
   * Returns the UUID v5 key of {@code businessId} (encoded as UTF-8) in {@code namespace}.
   *
   * @param namespace the namespace
   * @param businessId the business id
   * @return the UUID v5 key of {@code businessId} (encoded as UTF-8) in {@code namespace}
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if {@code businessId} is empty
   */
  public static IdempotencyKey derive(UUID namespace, String businessId) {
    return IdempotencyKey.of(uuidV5(namespace, businessId).toString());
  }

  /** Returns the name-based UUID version 5 of {@code name} in {@code namespace}. */
  static UUID uuidV5(UUID namespace, String name) {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "businessId");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("businessId must not be empty");
    }
    MessageDigest sha1;
    try {
      sha1 = MessageDigest.getInstance("SHA-1");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform must provide SHA-1", e);
    }
    sha1.update(
        ByteBuffer.allocate(16)
            .putLong(namespace.getMostSignificantBits())
            .putLong(namespace.getLeastSignificantBits())
            .array());
    byte[] hash = sha1.digest(name.getBytes(StandardCharsets.UTF_8));
    hash[6] = (byte) ((hash[6] & 0x0f) | 0x50); // version 5
    hash[8] = (byte) ((hash[8] & 0x3f) | 0x80); // RFC 9562 variant
    ByteBuffer bits = ByteBuffer.wrap(hash, 0, 16);
    return new UUID(bits.getLong(), bits.getLong());
  }
}
