package dev.saferetry.internal.codec;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializationConfig;
import com.fasterxml.jackson.databind.ser.BeanSerializerModifier;
import com.fasterxml.jackson.databind.type.CollectionType;
import com.fasterxml.jackson.databind.type.MapType;
import java.io.File;
import java.nio.file.Path;

/**
 * Puts the codecs' ordering rules around Jackson's serializers of collections and maps: a set is
 * written sorted ({@link OrderedCollections}), a collection without an order is refused, a map
 * whose keys would collapse when sorted is refused ({@link MapKeys}); and refuses a relative file
 * path, which Jackson writes resolved against the process's working directory ({@link
 * RelativePaths}). Stateless.
 */
final class CanonicalOrder extends BeanSerializerModifier {
  private static final long serialVersionUID = 1L;

  @Override
  @SuppressWarnings("unchecked")
  public JsonSerializer<?> modifyCollectionSerializer(
      SerializationConfig config,
      CollectionType type,
      BeanDescription description,
      JsonSerializer<?> serializer) {
    return new OrderedCollections((JsonSerializer<Object>) serializer);
  }

  @Override
  @SuppressWarnings("unchecked")
  public JsonSerializer<?> modifySerializer(
      SerializationConfig config, BeanDescription description, JsonSerializer<?> serializer) {
    Class<?> type = description.getBeanClass();
    if (File.class.isAssignableFrom(type) || Path.class.isAssignableFrom(type)) {
      return new RelativePaths((JsonSerializer<Object>) serializer);
    }
    return serializer;
  }

  @Override
  @SuppressWarnings("unchecked")
  public JsonSerializer<?> modifyMapSerializer(
      SerializationConfig config,
      MapType type,
      BeanDescription description,
      JsonSerializer<?> serializer) {
    return new MapKeys((JsonSerializer<Object>) serializer);
  }
}
