package dev.saferetry.idempotency;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Objects;
import java.util.UUID;

/**
 * The idempotency key of one logical operation: minted once per intent and sent unchanged on every
 * attempt of it.
 *
 * <p>A valid key is 1 to 255 visible US-ASCII characters ({@code 0x21}–{@code 0x7E}); spaces, CR,
 * LF and other control characters are rejected, so a key can never split or forge a header. Keys
 * are not secrets, but they are not meaningful either: the SDK mints random UUID v4 keys from a
 * {@link SecureRandom} unless the caller supplies one.
 *
 * <pre>{@code
 * IdempotencyKey minted = IdempotencyKey.random();
 * IdempotencyKey own = IdempotencyKey.of("order-123-charge-1");
 * }</pre>
 *
 * <p><b>Stable keys.</b> {@link #stable} and {@link #stableFromParts} derive a key from the
 * caller's own records instead of storing it: the key of an operation is the name-based UUID
 * version 5 (SHA-1, RFC 9562 section 5.5) of a namespace and a business id, so recomputing it after
 * a restart gives the same key without any {@link KeyStore}.
 *
 * <pre>{@code
 * static final UUID CHARGES = UUID.fromString("9f0d6c7e-3b9a-4a55-8a51-0c0e8f5bb1d2"); // yours
 * IdempotencyKey key = IdempotencyKey.stableFromParts(CHARGES, orderId, "charge", "1");
 * RequestOptions options = RequestOptions.none().withIdempotencyKey(key);
 * }</pre>
 *
 * <p>Use stable business fields only — ids that never change for the same logical operation, such
 * as an order id plus the operation's name. Never include timestamps, amounts or other values that
 * may be corrected, retry counters or anything random: a different input gives a different key, and
 * a different key lets the server perform the operation twice. Conversely, two genuinely different
 * operations must never share a business id (for a second charge of the same order, add its
 * sequence number). Pick one random namespace UUID per application and kind of operation and keep
 * it constant forever; keys of different namespaces never collide.
 *
 * <p>Different inputs never share a stable key. Derivation is injective over everything it accepts:
 * text is hashed as its exact UTF-8 bytes, so text with an unpaired surrogate (which UTF-8 cannot
 * hold, and which an encoder would replace with {@code ?}, making {@code "order-\uD800"} and {@code
 * "order-?"} one key) is refused. {@link #stableFromParts} prefixes every part with its length, so
 * no separator inside a part can move the boundary between parts ({@code ("a/b", "c")} and {@code
 * ("a", "b/c")} give different keys, where {@code stable(ns, a + "/" + b)} would not), and its
 * input can never equal the input of {@link #stable} for any business id.
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param value the key as sent on the wire (without any quoting)
 */
public record IdempotencyKey(String value) {
  /** The longest key accepted, in characters. */
  public static final int MAX_LENGTH = 255;

  private static final SecureRandom RANDOM = new SecureRandom();

  // Starts the hashed name of stableFromParts: a byte that no UTF-8 text contains.
  private static final int PARTS_MARK = 0xFF;

  /**
   * Validates the key.
   *
   * @param value the key as sent on the wire (without any quoting)
   * @throws NullPointerException if {@code value} is null
   * @throws IllegalArgumentException if the key is empty, longer than {@value #MAX_LENGTH}
   *     characters, or contains a character outside visible ASCII
   */
  public IdempotencyKey {
    Objects.requireNonNull(value, "idempotency key");
    if (value.isEmpty() || value.length() > MAX_LENGTH) {
      throw new IllegalArgumentException(
          "idempotency key must be 1.." + MAX_LENGTH + " characters, was " + value.length());
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x21 || c > 0x7E) {
        throw new IllegalArgumentException(
            "idempotency key may contain only visible ASCII characters; found code point "
                + (int) c
                + " at index "
                + i);
      }
    }
  }

  /**
   * {@return a validated key; same as the constructor}
   *
   * @param value the value
   */
  public static IdempotencyKey of(String value) {
    return new IdempotencyKey(value);
  }

  /** {@return a new random UUID version 4 key drawn from a {@link SecureRandom}} */
  public static IdempotencyKey random() {
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    bytes[6] = (byte) ((bytes[6] & 0x0f) | 0x40); // version 4
    bytes[8] = (byte) ((bytes[8] & 0x3f) | 0x80); // IETF variant
    long msb = 0;
    long lsb = 0;
    for (int i = 0; i < 8; i++) {
      msb = (msb << 8) | (bytes[i] & 0xff);
      lsb = (lsb << 8) | (bytes[i + 8] & 0xff);
    }
    return new IdempotencyKey(new UUID(msb, lsb).toString());
  }

  /**
   * {@return the UUID v5 key of {@code businessId} (encoded as UTF-8) in {@code namespace}: the
   * standard name-based UUID, e.g. {@code stable(DNS_NAMESPACE, "www.example.com")} is {@code
   * 2ed6657d-e927-568b-95e1-2665a8aea6a2}}
   *
   * @param namespace the namespace
   * @param businessId the business id
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if {@code businessId} is empty or contains an unpaired
   *     surrogate (the message gives its index, never the text)
   */
  public static IdempotencyKey stable(UUID namespace, String businessId) {
    Objects.requireNonNull(namespace, "namespace");
    return IdempotencyKey.of(uuidV5(namespace, utf8("businessId", businessId)).toString());
  }

  /**
   * {@return the key of an operation identified by several business fields, e.g. {@code
   * stableFromParts(CHARGES, orderId, "charge", String.valueOf(sequence))}} Each part is hashed
   * with its length, so the parts may contain any character, separators included: two different
   * lists of parts always give two different keys. The key is a UUID v5 in {@code namespace}, never
   * equal to the key {@link #stable} gives for any single business id.
   *
   * @param namespace the namespace
   * @param parts the business fields, in a fixed order; at least one, none empty
   * @throws NullPointerException if the namespace, the array or a part is null
   * @throws IllegalArgumentException if there is no part, or a part is empty or contains an
   *     unpaired surrogate (the message names the part by its index, never its text)
   */
  public static IdempotencyKey stableFromParts(UUID namespace, String... parts) {
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

  // The exact UTF-8 bytes of non-empty, well-formed text.
  private static byte[] utf8(String what, String text) {
    Objects.requireNonNull(text, what);
    if (text.isEmpty()) {
      throw new IllegalArgumentException(what + " must not be empty");
    }
    int bad = RecordText.firstUnpairedSurrogate(text);
    if (bad >= 0) {
      throw new IllegalArgumentException(
          what
              + " is not well-formed Unicode text: unpaired surrogate at index "
              + bad
              + "; it has no exact UTF-8 form, so it could share a key with other text");
    }
    return text.getBytes(StandardCharsets.UTF_8);
  }

  // Returns the name-based UUID version 5 of name in namespace.
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

  /** Returns the bare key. */
  @Override
  public String toString() {
    return value;
  }
}
