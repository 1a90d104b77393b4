package dev.saferetry.codec;

import dev.saferetry.internal.codec.Encoder;
import dev.saferetry.internal.codec.FormCodec;
import dev.saferetry.internal.codec.JsonCodec;
import dev.saferetry.internal.codec.SdkCodec;
import java.util.Objects;

/**
 * The codecs {@link BodyCodec#json()} and {@link BodyCodec#form()} return: one of the SDK's own
 * encoders behind the codec API. Immutable; thread-safe.
 */
final class OwnCodec implements BodyCodec, SdkCodec {
  /** JSON with a default mapper. */
  static final OwnCodec JSON = new OwnCodec(JsonCodec.defaults(), "JsonCodec");

  /** Form bodies with Stripe's conventions and a default mapper. */
  static final OwnCodec FORM = form(FormCodec.defaults(), FormStyle.defaults());

  private final Encoder encoder;
  private final String name;

  OwnCodec(Encoder encoder, String name) {
    this.encoder = encoder;
    this.name = name;
  }

  /** The form codec of {@code encoder}, written with {@code style}. */
  static OwnCodec form(Encoder encoder, FormStyle style) {
    return new OwnCodec(encoder, "FormCodec[" + style + "]");
  }

  /** Form bodies written with {@code style} and a default mapper. */
  static OwnCodec form(FormStyle style) {
    Objects.requireNonNull(style, "style");
    return form(FormCodec.of(style.indexedLists(), style.emptyNulls()), style);
  }

  @Override
  public Encoder encoder() {
    return encoder;
  }

  @Override
  public String contentType() {
    return encoder.contentType();
  }

  @Override
  public EncodedBody encode(Object value) {
    Objects.requireNonNull(value, "value");
    return EncodedBody.of(encoder.encode(value), encoder.contentType());
  }

  @Override
  public EncodedBody encode(Object value, String fieldName, String fieldValue) {
    Objects.requireNonNull(fieldName, "fieldName");
    Objects.requireNonNull(fieldValue, "fieldValue");
    return EncodedBody.of(encoder.encode(value, fieldName, fieldValue), encoder.contentType());
  }

  @Override
  public boolean canAddTopLevelField() {
    return true;
  }

  @Override
  public String toString() {
    return name;
  }
}
