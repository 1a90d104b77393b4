package dev.saferetry.internal.codec;

/**
 * One of the SDK's own body encoders, JSON or form: for the same value it writes the same bytes, so
 * that one encoding serves both the wire and the intent's fingerprint. It knows nothing of the
 * codec API; a {@link SdkCodec} wraps it. Thread-safe.
 */
public interface Encoder {
  /** {@return the {@code Content-Type} of what it writes} */
  String contentType();

  /**
   * {@return the bytes of {@code value}}
   *
   * @param value the body; not null
   * @throws IllegalArgumentException if the value cannot be written as this encoding's body
   */
  byte[] encode(Object value);

  /**
   * {@return the bytes of {@code value} with one more top-level field}
   *
   * @param value the body, or null for an empty object
   * @param fieldName the added field's name
   * @param fieldValue the added field's value
   * @throws IllegalArgumentException if the value is not an object or already has the field
   */
  byte[] encode(Object value, String fieldName, String fieldValue);
}
