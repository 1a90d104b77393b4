package dev.saferetry.internal.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.saferetry.codec.BodyCodec;
import dev.saferetry.codec.EncodedBody;
import dev.saferetry.codec.FormStyle;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * {@code application/x-www-form-urlencoded} bodies with bracketed nesting. The value is mapped to a
 * tree by Jackson (so {@code @JsonProperty} names and naming strategies apply) with map entries in
 * key order, then flattened by {@link FormWriter}.
 */
public final class FormCodec implements BodyCodec {
  /** What Stripe's Java library sends. */
  public static final String CONTENT_TYPE = "application/x-www-form-urlencoded;charset=UTF-8";

  private static final FormCodec DEFAULTS = new FormCodec(new ObjectMapper(), FormStyle.defaults());

  private final ObjectMapper mapper;
  private final FormStyle style;

  private FormCodec(ObjectMapper mapper, FormStyle style) {
    // Keys in order for repeatable bytes; decimals as given (1.50 stays 1.50, as in JSON).
    this.mapper =
        mapper
            .copy()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .configure(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES, false);
    this.style = style;
  }

  /** Returns the codec with Stripe's conventions and a default mapper. */
  public static FormCodec defaults() {
    return DEFAULTS;
  }

  /** Returns a codec with the given conventions and a default mapper. */
  public static FormCodec of(FormStyle style) {
    return new FormCodec(new ObjectMapper(), Objects.requireNonNull(style, "style"));
  }

  /** Returns a codec using a copy of {@code mapper}, e.g. the one a client builder was given. */
  public static FormCodec of(ObjectMapper mapper, FormStyle style) {
    return new FormCodec(
        Objects.requireNonNull(mapper, "mapper"), Objects.requireNonNull(style, "style"));
  }

  /** Returns the conventions of this codec. */
  public FormStyle style() {
    return style;
  }

  @Override
  public String contentType() {
    return CONTENT_TYPE;
  }

  @Override
  public EncodedBody encode(Object value) {
    Objects.requireNonNull(value, "value");
    return body(new FormWriter(style).fields(root(value)));
  }

  @Override
  public EncodedBody encode(Object value, String fieldName, String fieldValue) {
    ObjectNode root = value == null ? mapper.createObjectNode() : root(value);
    JsonCodec.requireFieldFree(root, fieldName, fieldValue);
    return body(new FormWriter(style).fields(root).topLevel(fieldName, fieldValue));
  }

  @Override
  public boolean canAddTopLevelField() {
    return true;
  }

  private ObjectNode root(Object value) {
    JsonNode tree;
    try {
      tree = mapper.valueToTree(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "request body of type " + value.getClass().getName() + " cannot be mapped to fields", e);
    } catch (StackOverflowError e) {
      throw JsonCodec.selfReferencing(value);
    }
    if (!(tree instanceof ObjectNode root)) {
      throw new IllegalArgumentException(
          "a form body must be an object with named fields; the body is a " + tree.getNodeType());
    }
    return root;
  }

  private static EncodedBody body(FormWriter writer) {
    return EncodedBody.of(writer.text().getBytes(StandardCharsets.US_ASCII), CONTENT_TYPE);
  }

  @Override
  public String toString() {
    return "FormCodec[" + style + "]";
  }
}
