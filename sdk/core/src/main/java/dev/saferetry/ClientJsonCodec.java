package dev.saferetry;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.codec.BodyCodec;
import dev.saferetry.codec.EncodedBody;
import dev.saferetry.internal.codec.Encoder;
import dev.saferetry.internal.codec.JsonCodec;
import dev.saferetry.internal.codec.SdkCodec;
import java.util.Objects;

/**
 * The body codec of a client that names none: JSON written with a copy of the client's mapper, as
 * {@link BodyCodec#json()} writes with a default one. Immutable; thread-safe.
 */
final class ClientJsonCodec implements BodyCodec, SdkCodec {
  private final JsonCodec encoder;

  ClientJsonCodec(ObjectMapper mapper) {
    this.encoder = JsonCodec.of(mapper);
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
    return "JsonCodec";
  }
}
