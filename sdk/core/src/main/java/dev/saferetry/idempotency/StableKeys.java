package dev.saferetry.idempotency;

import java.io.ByteArrayOutputStream;
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
 * IdempotencyKey key = StableKeys.deriveFromParts(CHARGES, orderId, "charge", "1");
 * RequestOptions options = RequestOptions.none().withIdempotencyKey(key);
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
 * <p><b>Different inputs never share a key.</b> Derivation is injective over everything it accepts:
 * text is hashed as its exact UTF-8 bytes, so text with an unpaired surrogate (which UTF-8 cannot
 * hold, and which an encoder would replace with {@code ?}, making {@code "order-\uD800"} and {@code
 * "order-?"} one key) is refused. {@link #deriveFromParts} prefixes every part with its length, so
 * no separator inside a part can move the boundary between parts ({@code ("a/b", "c")} and {@code
 * ("a", "b/c")} give different keys, where {@code derive(ns, a + "/" + b)} would not), and its
 * input can never equal the input of {@link #derive} for any business id.
 *
 * <p>This class is thread-safe.
 */
public final class StableKeys {
  /** Starts the hashed name of {@link #deriveFromParts}: a byte that no UTF-8 text contains. */
  private static final int PARTS_MARK = 0xFF;

  private StableKeys() {}

  /**
   * Returns the UUID v5 key of {@code businessId} (encoded as UTF-8) in {@code namespace}: the
   * standard name-based UUID, e.g. {@code derive(DNS_NAMESPACE, "www.example.com")} is {@code
   * 2ed6657d-e927-568b-95e1-2665a8aea6a2}.
   *
   * @param namespace the namespace
   * @param businessId the business id
   * @return the UUID v5 key of {@code businessId} (encoded as UTF-8) in {@code namespace}
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if {@code businessId} is empty or contains an unpaired
   *     surrogate (the message gives its index, never the text)
   */
  public static IdempotencyKey derive(UUID namespace, String businessId) {
    Objects.requireNonNull(namespace, "namespace");
    return IdempotencyKey.of(uuidV5(namespace, utf8("businessId", businessId)).toString());
  }

  /**
   * Returns the key of an operation identified by several business fields, e.g. {@code
   * deriveFromParts(CHARGES, orderId, "charge", String.valueOf(sequence))}. Each part is hashed
   * with its length, so the parts may contain any character, separators included: two different
   * lists of parts always give two different keys. The key is a UUID v5 in {@code namespace}, never
   * equal to the key {@link #derive} gives for any single business id.
   *
   * @param namespace the namespace
   * @param parts the business fields, in a fixed order; at least one, none empty
   * @return the UUID v5 key of the length-prefixed parts in {@code namespace}
   * @throws NullPointerException if the namespace, the array or a part is null
   * @throws IllegalArgumentException if there is no part, or a part is empty or contains an
   *     unpaired surrogate (the message names the part by its index, never its text)
   */
  public static IdempotencyKey deriveFromParts(UUID namespace, String... parts) {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(parts, "parts");
    if (parts.length == 0) {
      throw new IllegalArgumentException("parts must hold at least one business field");
    }
    ByteArrayOutputStream name = new ByteArrayOutputStream();
    name.write(PARTS_MARK);
    for (int i = 0; i < parts.length; i++) {
      byte[] part = utf8("parts[" + i + "]", parts[i]);
      name.writeBytes(ByteBuffer.allocate(4).putInt(part.length).array());
      name.writeBytes(part);
    }
    return IdempotencyKey.of(uuidV5(namespace, name.toByteArray()).toString());
  }

  /** The exact UTF-8 bytes of non-empty, well-formed text. */
  private static byte[] utf8(String what, String text) {
    Objects.requireNonNull(text, what);
    if (text.isEmpty()) {
      throw new IllegalArgumentException(what + " must not be empty");
    }
    int bad = StoredText.firstUnpairedSurrogate(text);
    if (bad >= 0) {
      throw new IllegalArgumentException(
          what
              + " is not well-formed Unicode text: unpaired surrogate at index "
              + bad
              + "; it has no exact UTF-8 form, so it could share a key with other text");
    }
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** Returns the name-based UUID version 5 of {@code name} in {@code namespace}. */
  private static UUID uuidV5(UUID namespace, byte[] name) {
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
    byte[] hash = sha1.digest(name);
    hash[6] = (byte) ((hash[6] & 0x0f) | 0x50); // version 5
    hash[8] = (byte) ((hash[8] & 0x3f) | 0x80); // RFC 9562 variant
    ByteBuffer bits = ByteBuffer.wrap(hash, 0, 16);
    return new UUID(bits.getLong(), bits.getLong());
  }
}
