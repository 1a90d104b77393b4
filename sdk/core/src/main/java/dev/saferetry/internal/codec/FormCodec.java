package dev.saferetry.internal.codec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;

/**
 * {@code application/x-www-form-urlencoded} bodies with bracketed nesting. The value is serialized
 * by Jackson (so {@code @JsonProperty} names and naming strategies apply) with map entries in key
 * order and sets sorted ({@link CanonicalMappers}), numbers checked by the same rule as the JSON
 * codec's ({@link CheckedGenerator}), and its tokens are flattened by {@link FormWriter} as they
 * are read.
 */
public final class FormCodec implements Encoder {
  /** What Stripe's Java library sends. */
  public static final String CONTENT_TYPE = "application/x-www-form-urlencoded;charset=UTF-8";

  private static final FormCodec DEFAULTS = new FormCodec(new ObjectMapper(), false, false);

  private final ObjectMapper mapper;
  private final ObjectWriter writer;
  private final boolean bigDecimals;
  private final boolean indexedLists;
  private final boolean emptyNulls;

  private FormCodec(ObjectMapper mapper, boolean indexedLists, boolean emptyNulls) {
    // Keys in order, sets sorted, numbers checked (CanonicalMappers); decimals as given (the tokens
    // keep 1.50 as 1.50).
    this.mapper = CanonicalMappers.configure(mapper.copy());
    this.writer = this.mapper.writer().without(SerializationFeature.WRAP_ROOT_VALUE);
    // Floating-point numbers as decimals if the mapper reads them so, as a Jackson tree holds them.
    this.bigDecimals = this.mapper.isEnabled(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    this.indexedLists = indexedLists;
    this.emptyNulls = emptyNulls;
  }

  /** Returns the codec with Stripe's conventions and a default mapper. */
  public static FormCodec defaults() {
    return DEFAULTS;
  }

  /**
   * Returns a codec with the given conventions (those of a {@code FormStyle}) and a default mapper.
   */
  public static FormCodec of(boolean indexedLists, boolean emptyNulls) {
    return new FormCodec(new ObjectMapper(), indexedLists, emptyNulls);
  }

  /** Returns a codec using a copy of {@code mapper}, e.g. the one a client builder was given. */
  public static FormCodec of(ObjectMapper mapper, boolean indexedLists, boolean emptyNulls) {
    return new FormCodec(Objects.requireNonNull(mapper, "mapper"), indexedLists, emptyNulls);
  }

  @Override
  public String contentType() {
    return CONTENT_TYPE;
  }

  @Override
  public byte[] encode(Object value) {
    Objects.requireNonNull(value, "value");
    return body(write(value));
  }

  @Override
  public byte[] encode(Object value, String fieldName, String fieldValue) {
    Objects.requireNonNull(fieldName, "fieldName");
    Objects.requireNonNull(fieldValue, "fieldValue");
    FormWriter writer = write(value == null ? Map.of() : value);
    if (writer.hasTopLevel(fieldName)) {
      throw JsonCodec.fieldTaken(fieldName);
    }
    return body(writer.topLevel(fieldName, fieldValue));
  }

  // Serializes the value to tokens (as the mapper would write it as JSON) and writes them as form
  // pairs, without building a tree in between.
  private FormWriter write(Object value) {
    TokenBuffer tokens = new TokenBuffer(mapper, false);
    if (bigDecimals) {
      tokens = tokens.forceUseOfBigDecimal(true);
    }
    try {
      writer.writeValue(new CheckedGenerator(tokens), value);
      try (JsonParser p = tokens.asParser()) {
        return new FormWriter(indexedLists, emptyNulls).fields(p);
      }
    } catch (IOException | IllegalArgumentException e) {
      BodyRefusal refusal = BodyRefusal.in(e);
      if (refusal != null) {
        throw refusal;
      }
      if (e instanceof IllegalArgumentException plain) {
        throw plain; // FormWriter's own refusals name the field already
      }
      throw new IllegalArgumentException(
          "request body of type " + value.getClass().getName() + " cannot be mapped to fields", e);
    } catch (StackOverflowError e) {
      throw JsonCodec.selfReferencing(value);
    }
  }

  private static byte[] body(FormWriter writer) {
    return writer.text().getBytes(StandardCharsets.US_ASCII);
  }

  @Override
  public String toString() {
    return "FormCodec[lists="
        + (indexedLists ? "INDEXED" : "BRACKETS")
        + ", nulls="
        + (emptyNulls ? "EMPTY" : "OMIT")
        + "]";
  }
}
