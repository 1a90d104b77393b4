package dev.saferetry.internal.codec;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * JSON bodies through Jackson. Object keys are written sorted at every level — map entries by key,
 * a class's properties alphabetically (unless it fixes an order with {@code @JsonPropertyOrder}),
 * tree nodes by name — so a value has the same bytes in every process ({@code Map.of} iterates in a
 * different order in every JVM) and whatever order a class declares its fields in; those bytes are
 * also its canonical form. Sets are written sorted, and everything else that could differ between
 * processes is fixed or refused as {@link CanonicalMappers} and {@link CheckedGenerator} describe:
 * numbers must be finite and at most {@value Numbers#MAX_DIGITS} digits long, in both codecs alike.
 * Jackson writes a lone surrogate as a {@code \}{@code uD83D} escape instead of failing; the output
 * is checked, so such text is refused rather than sent as something the server decodes differently.
 *
 * <p>A field the SDK adds (the idempotency key in the body) is written into the encoded bytes
 * before the closing brace: the body's own bytes are exactly those of {@link #encode(Object)},
 * never re-read and re-written, so no number or text changes form on the way.
 */
public final class JsonCodec implements Encoder {
  public static final String CONTENT_TYPE = "application/json; charset=utf-8";
  private static final JsonCodec DEFAULTS = new JsonCodec(new ObjectMapper());

  private final ObjectMapper mapper;
  private final ObjectWriter writer;

  private JsonCodec(ObjectMapper mapper) {
    ObjectMapper m = CanonicalMappers.configure(mapper.copy());
    m.configure(JsonNodeFeature.WRITE_PROPERTIES_SORTED, true);
    m.setConfig(
        m.getSerializationConfig()
            .with(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
            .without(MapperFeature.SORT_CREATOR_PROPERTIES_FIRST));
    this.mapper = m;
    this.writer = m.writer();
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
  public byte[] encode(Object value) {
    Objects.requireNonNull(value, "value");
    return write(value).bytes();
  }

  @Override
  public byte[] encode(Object value, String fieldName, String fieldValue) {
    Objects.requireNonNull(fieldName, "fieldName");
    Objects.requireNonNull(fieldValue, "fieldValue");
    Written body = write(value == null ? Map.of() : value);
    byte[] bytes = body.bytes();
    if (bytes.length == 0) {
      throw new IllegalArgumentException(
          "a field can only be added to a JSON object; the body is empty");
    }
    int close = lastNonBlank(bytes);
    if (bytes[firstNonBlank(bytes)] != '{' || bytes[close] != '}') {
      throw new IllegalArgumentException(
          "a field can only be added to a JSON object; the body is a " + kind(bytes));
    }
    if (body.topLevelNames().contains(fieldName)) {
      throw fieldTaken(fieldName);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length + 64);
    out.write(bytes, 0, close);
    if (!body.topLevelNames().isEmpty()) {
      out.write(',');
    }
    JsonStringEncoder quote = JsonStringEncoder.getInstance();
    out.write('"');
    out.writeBytes(quote.quoteAsUTF8(fieldName));
    out.writeBytes(new byte[] {'"', ':', '"'});
    out.writeBytes(quote.quoteAsUTF8(fieldValue));
    out.write('"');
    out.write(bytes, close, bytes.length - close);
    byte[] withField = out.toByteArray();
    requireNoLoneSurrogates(withField);
    return withField;
  }

  /** Returns the value as a tree, as it will be written. */
  JsonNode tree(Object value) {
    try {
      return mapper.valueToTree(value);
    } catch (IllegalArgumentException e) {
      BodyRefusal refusal = BodyRefusal.in(e);
      throw refusal != null ? refusal : cannotWrite(value, e);
    } catch (StackOverflowError e) {
      throw selfReferencing(value);
    }
  }

  // The bytes of a value, and the names of its top-level fields if it is an object.
  private record Written(byte[] bytes, Set<String> topLevelNames) {}

  private Written write(Object value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(128);
    CheckedGenerator checked;
    try (JsonGenerator g = writer.createGenerator(out, JsonEncoding.UTF8)) {
      checked = new CheckedGenerator(g);
      writer.writeValue(checked, value);
    } catch (IOException | IllegalArgumentException e) {
      BodyRefusal refusal = BodyRefusal.in(e);
      throw refusal != null ? refusal : cannotWrite(value, e);
    } catch (StackOverflowError e) {
      throw selfReferencing(value);
    }
    byte[] bytes = out.toByteArray();
    requireNoLoneSurrogates(bytes);
    return new Written(bytes, checked.topLevelNames());
  }

  private static int firstNonBlank(byte[] json) {
    int i = 0;
    while (i < json.length - 1 && isBlank(json[i])) {
      i++;
    }
    return i;
  }

  private static int lastNonBlank(byte[] json) {
    int i = json.length - 1;
    while (i > 0 && isBlank(json[i])) {
      i--;
    }
    return i;
  }

  private static boolean isBlank(byte b) {
    return b == ' ' || b == '\n' || b == '\r' || b == '\t';
  }

  // The kind of JSON value, named as Jackson's tree nodes name it.
  private static String kind(byte[] json) {
    switch (json[firstNonBlank(json)]) {
      case '[':
        return "ARRAY";
      case '"':
        return "STRING";
      case 't':
      case 'f':
        return "BOOLEAN";
      case 'n':
        return "NULL";
      default:
        return "NUMBER";
    }
  }

  private static IllegalArgumentException cannotWrite(Object value, Exception cause) {
    return new IllegalArgumentException(
        "request body of type " + value.getClass().getName() + " cannot be written as JSON", cause);
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
