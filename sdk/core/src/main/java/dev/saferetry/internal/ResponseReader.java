package dev.saferetry.internal;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.saferetry.codec.TypeRef;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads JSON response bodies into the types callers name with {@link TypeRef}; the only place a ref
 * becomes a Jackson {@link JavaType}. One reader per client: readers are cached per type.
 */
public final class ResponseReader {
  private final ObjectMapper mapper;
  private final ConcurrentHashMap<TypeRef<?>, ObjectReader> readers = new ConcurrentHashMap<>();

  /** Reads with {@code mapper}, e.g. the client's lenient copy of its builder's mapper. */
  public ResponseReader(ObjectMapper mapper) {
    this.mapper = Objects.requireNonNull(mapper, "mapper");
  }

  /** Returns the Jackson type of a ref. */
  public JavaType javaType(TypeRef<?> ref) {
    return mapper.getTypeFactory().constructType(ref.type());
  }

  /**
   * Reads {@code body} as {@code ref}. An empty body reads as null.
   *
   * @throws IOException if the body is not JSON of that shape
   */
  public <T> T read(byte[] body, TypeRef<T> ref) throws IOException {
    Objects.requireNonNull(ref, "ref");
    if (body == null || body.length == 0) {
      return null;
    }
    ObjectReader reader = readers.computeIfAbsent(ref, r -> mapper.readerFor(javaType(r)));
    return reader.readValue(body);
  }
}
