package dev.saferetry.internal.codec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.saferetry.codec.BodyCodec;
import dev.saferetry.codec.EncodedBody;
import java.util.Objects;

/**
 * JSON bodies through Jackson. Object keys are written sorted at every level — map entries by key,
 * a class's properties alphabetically (unless it fixes an order with {@code @JsonPropertyOrder}),
 * tree nodes by name — so a value has the same bytes in every process ({@code Map.of} iterates in a
 * different order in every JVM) and whatever order a class declares its fields in; those bytes are
 * also its canonical form. Jackson writes a lone surrogate as a {@code \}{@code uD83D} escape
 * instead of failing; the output is checked, so such text is refused rather than sent as something
 * the server decodes differently.
 */
public final class JsonCodec implements BodyCodec {
  public static final String CONTENT_TYPE = "application/json; charset=utf-8";
  private static final JsonCodec DEFAULTS = new JsonCodec(new ObjectMapper());

  private final ObjectMapper mapper;

  /** As {@link #mapper}, but writes a tree's fields in their order: an added field stays last. */
  private final ObjectMapper treeInOrder;

  private JsonCodec(ObjectMapper mapper) {
    ObjectMapper m = mapper.copy().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);
    m.configure(JsonNodeFeature.WRITE_PROPERTIES_SORTED, true);
    m.setConfig(
        m.getSerializationConfig()
            .with(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
            .without(MapperFeature.SORT_CREATOR_PROPERTIES_FIRST));
    this.mapper = m;
    this.treeInOrder = m.copy().configure(JsonNodeFeature.WRITE_PROPERTIES_SORTED, false);
  }

  /** Returns the codec with a default mapper. */
  public static JsonCodec defaults() {
    return DEFAULTS;
  }

  /** Returns a codec using a copy of {@code mapper}, e.g. the one a client builder was given. */
  public static JsonCodec of(ObjectMapper mapper) {
    return new JsonCodec(Objects.requireNonNull(mapper, "mapper"));
  }

  @Override
  public String toString() {
    return "JsonCodec";
  }

  @Override
  public String contentType() {
    return CONTENT_TYPE;
  }

  @Override
  public EncodedBody encode(Object value) {
    Objects.requireNonNull(value, "value");
    return EncodedBody.of(write(mapper, value), CONTENT_TYPE);
  }

  @Override
  public EncodedBody encode(Object value, String fieldName, String fieldValue) {
    ObjectNode object = objectTree(value);
    requireFieldFree(object, fieldName, fieldValue);
    object.put(fieldName, fieldValue);
    return EncodedBody.of(write(treeInOrder, object), CONTENT_TYPE);
  }

  @Override
  public boolean canAddTopLevelField() {
    return true;
  }

  /** Returns the value as a tree, as it will be written. */
  JsonNode tree(Object value) {
    try {
      return mapper.valueToTree(value);
    } catch (IllegalArgumentException e) {
      throw cannotWrite(value, e);
    } catch (StackOverflowError e) {
      throw selfReferencing(value);
    }
  }

  private ObjectNode objectTree(Object value) {
    JsonNode tree = value == null ? mapper.createObjectNode() : tree(value);
    if (!(tree instanceof ObjectNode object)) {
      throw new IllegalArgumentException(
          "a field can only be added to a JSON object; the body is a " + tree.getNodeType());
    }
    return object.deepCopy();
  }

  private static byte[] write(ObjectMapper mapper, Object value) {
    byte[] bytes;
    try {
      bytes = mapper.writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw cannotWrite(value, e);
    } catch (StackOverflowError e) {
      throw selfReferencing(value);
    }
    requireNoLoneSurrogates(bytes);
    return bytes;
  }

  private static IllegalArgumentException cannotWrite(Object value, Exception cause) {
    return new IllegalArgumentException(
        "request body of type " + value.getClass().getName() + " cannot be written as JSON", cause);
  }

  /** Refuses to add a field the caller's body already has: the caller's value is never replaced. */
  static void requireFieldFree(ObjectNode body, String fieldName, String fieldValue) {
    Objects.requireNonNull(fieldName, "fieldName");
    Objects.requireNonNull(fieldValue, "fieldValue");
    if (body.has(fieldName)) {
      throw fieldTaken(fieldName);
    }
  }

  /** The caller's body already has the field the SDK adds. */
  static IllegalArgumentException fieldTaken(String fieldName) {
    return new IllegalArgumentException(
        "the request body already has a field '" + fieldName + "'; it is set by the SDK");
  }

  /** Jackson recurses without limit into a value that contains itself. */
  static IllegalArgumentException selfReferencing(Object value) {
    return new IllegalArgumentException(
        "request body of type "
            + value.getClass().getName()
            + " refers to itself or nests too deeply to be written");
  }

  /**
   * Refuses JSON that holds an unpaired surrogate, escaped ({@code \}{@code uDC00}) or raw (bytes
   * {@code ED A0..BF}, invalid UTF-8). Backslashes outside escapes do not occur in JSON text.
   */
  static void requireNoLoneSurrogates(byte[] json) {
    boolean high = false;
    for (int i = 0; i < json.length; i++) {
      byte b = json[i];
      if (b == (byte) 0xED && i + 1 < json.length && (json[i + 1] & 0xE0) == 0xA0) {
        throw loneSurrogate();
      }
      if (b != '\\') {
        if (high) {
          throw loneSurrogate();
        }
        continue;
      }
      if (json[i + 1] != 'u') {
        if (high) {
          throw loneSurrogate();
        }
        i++;
        continue;
      }
      char unit = hexUnit(json, i + 2);
      i += 5;
      if (high) {
        if (!Character.isLowSurrogate(unit)) {
          throw loneSurrogate();
        }
        high = false;
      } else if (Character.isLowSurrogate(unit)) {
        throw loneSurrogate();
      } else {
        high = Character.isHighSurrogate(unit);
      }
    }
    if (high) {
      throw loneSurrogate();
    }
  }

  private static char hexUnit(byte[] json, int at) {
    int unit = 0;
    for (int k = at; k < at + 4; k++) {
      unit = (unit << 4) | Character.digit(json[k], 16);
    }
    return (char) unit;
  }

  private static IllegalArgumentException loneSurrogate() {
    return new IllegalArgumentException(
        "the request body contains text with an unpaired surrogate; it cannot be sent as UTF-8");
  }
}
