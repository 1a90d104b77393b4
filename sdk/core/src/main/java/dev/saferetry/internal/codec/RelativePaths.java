package dev.saferetry.internal.codec;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Refuses a relative {@link File} or {@link Path}: Jackson writes a file as its absolute path and a
 * path as its absolute URI, both resolved against the working directory, so one value would be
 * different bytes in processes started from different directories. Absolute ones pass. Immutable.
 */
final class RelativePaths extends Wrapping {
  RelativePaths(JsonSerializer<Object> inner) {
    super(inner);
  }

  @Override
  Wrapping around(JsonSerializer<Object> other) {
    return new RelativePaths(other);
  }

  @Override
  public void serialize(Object value, JsonGenerator gen, SerializerProvider provider)
      throws IOException {
    check(value, gen);
    inner.serialize(value, gen, provider);
  }

  @Override
  public void serializeWithType(
      Object value, JsonGenerator gen, SerializerProvider provider, TypeSerializer typeSer)
      throws IOException {
    check(value, gen);
    inner.serializeWithType(value, gen, provider, typeSer);
  }

  private static void check(Object value, JsonGenerator gen) {
    boolean relative =
        (value instanceof File file && !file.isAbsolute())
            || (value instanceof Path path && !path.isAbsolute());
    if (relative) {
      throw new BodyRefusal(
          "value of "
              + Where.of(gen.getOutputContext())
              + " is a relative file path, which would be sent resolved against the process's"
              + " working directory; send an absolute path or the text you mean");
    }
  }
}
