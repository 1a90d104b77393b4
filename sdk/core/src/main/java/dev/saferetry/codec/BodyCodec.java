package dev.saferetry.codec;

/**
 * Turns a request value into the exact bytes of a request body. A call encodes its body once,
 * before the first attempt, and re-sends those bytes on every retry.
 *
 * <pre>{@code
 * BodyCodec stripe = BodyCodec.form();   // amount=2000&currency=usd&metadata[order_id]=6735
 * BodyCodec json = BodyCodec.json();     // {"amount":2000,"currency":"usd"}
 * }</pre>
 *
 * <p>The built-in codecs map values the way Jackson does (record components and bean properties,
 * {@code @JsonProperty} names, enums by name) and write the same value as the same bytes in every
 * process, whatever its locale, time zone, JDK or hash seeds, because a pending intent re-sent
 * after a restart must match the request it recorded:
 *
 * <ul>
 *   <li>map entries in key order; a {@link java.util.Set} sorted by its elements as written (text
 *       and names in {@code String} order, numbers by value); a {@link java.util.List}, an array or
 *       a first-in-first-out queue in its own order;
 *   <li>floating-point numbers in their shortest form, the same on every JDK; date patterns in
 *       English; {@code java.sql.Date} and {@code Time} as instants, like {@code java.util.Date}.
 * </ul>
 *
 * <p>They refuse, with an {@link IllegalArgumentException} that names the field, what has no single
 * encoding: a collection without an order (a {@code map.values()} view, a priority queue), NaN and
 * infinities, a number with more than 100 digits when written out in full ({@code 1E+100}, {@code
 * 1E-100}), map keys that differ but sort as equal ({@code 1.0} and {@code 1.00}), a field written
 * twice, a relative file path, text with an unpaired surrogate. The JSON and form codecs apply the
 * same rules with the same messages. A codec of your own implements this interface; its {@link
 * #encode} must be deterministic too.
 *
 * <p>Implementations must be immutable and thread-safe.
 */
public interface BodyCodec {

  /**
   * {@return the JSON codec, {@code application/json; charset=utf-8}, with a default Jackson
   * configuration; a client uses the mapper its builder was given instead}
   */
  static BodyCodec json() {
    return OwnCodec.JSON;
  }

  /**
   * {@return the form codec with Stripe's documented conventions ({@link FormStyle#defaults()})}
   */
  static BodyCodec form() {
    return OwnCodec.FORM;
  }

  /**
   * {@return a form codec with the given conventions}
   *
   * @param style the style
   */
  static BodyCodec form(FormStyle style) {
    return OwnCodec.form(style);
  }

  /** {@return the {@code Content-Type} of the bodies this codec writes} */
  String contentType();

  /**
   * Encodes {@code value}.
   *
   * @param value the value
   * @return the bytes and content type
   * @throws NullPointerException if {@code value} is null (a call without a body sends no body; it
   *     never asks a codec)
   * @throws IllegalArgumentException if the value cannot be encoded exactly, e.g. text with an
   *     unpaired surrogate; the message names the field, never its value
   */
  EncodedBody encode(Object value);

  /**
   * Encodes {@code value} with one more top-level field, added last: how an idempotency key travels
   * in the body. The call encodes once with its key and re-sends the same bytes.
   *
   * @param fieldName the field name
   * @param fieldValue the field value
   * @param value the body, or null for a body that holds only the field
   * @return the bytes and content type
   * @throws IllegalArgumentException if the value is not an object with named fields, already has a
   *     field of that name, or cannot be encoded
   * @throws UnsupportedOperationException if the codec cannot add fields ({@link
   *     #canAddTopLevelField()} is false); the default
   */
  default EncodedBody encode(Object value, String fieldName, String fieldValue) {
    throw new UnsupportedOperationException(
        "this codec cannot add a top-level field; put the idempotency key in a header");
  }

  /** {@return whether {@link #encode(Object, String, String)} is supported} Default: false. */
  default boolean canAddTopLevelField() {
    return false;
  }

  /**
   * {@return the bytes that stand for {@code value} in a request's fingerprint: equal for requests
   * that mean the same} Default: the encoded bytes. The JSON codec sorts object keys, so that
   * neither key order nor formatting changes an intent's identity.
   *
   * @param value the body, or null for none
   */
  default byte[] canonical(Object value) {
    return value == null ? new byte[0] : encode(value).bytes();
  }
}
