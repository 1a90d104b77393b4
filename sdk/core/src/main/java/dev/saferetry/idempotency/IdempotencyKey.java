package dev.saferetry.idempotency;

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
 * <p>Instances are immutable and thread-safe.
 *
 * @param value the key as sent on the wire (without any quoting)
 */
public record IdempotencyKey(String value) {
  /** The longest key accepted, in characters. */
  public static final int MAX_LENGTH = 255;

  private static final SecureRandom RANDOM = new SecureRandom();

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
   * Returns a validated key; same as the constructor.
   *
   * @param value the value
   * @return a validated key; same as the constructor
   */
  public static IdempotencyKey of(String value) {
    return new IdempotencyKey(value);
  }

  /**
   * Returns a new random UUID version 4 key drawn from a {@link SecureRandom}.
   *
   * @return a new random UUID version 4 key drawn from a {@link SecureRandom}
   */
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

  /** Returns the bare key. */
  @Override
  public String toString() {
    return value;
  }
}
