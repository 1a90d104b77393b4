package dev.saferetry.internal.codec;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import java.io.IOException;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Refuses a map that Jackson's key order ({@code ORDER_MAP_ENTRIES_BY_KEYS}, a {@link TreeMap} of
 * the entries) would silently shrink: keys that differ but compare as equal, such as {@code
 * BigDecimal} 1.0 and 1.00. The tree keeps one of them, chosen by the map's iteration order, so an
 * entry would vanish and which one would differ between processes. Text keys always compare
 * consistently with equality and are not checked. Immutable.
 */
final class MapKeys extends Wrapping {
  MapKeys(JsonSerializer<Object> inner) {
    super(inner);
  }

  @Override
  Wrapping around(JsonSerializer<Object> other) {
    return new MapKeys(other);
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
    if (!(value instanceof Map<?, ?> map) || map instanceof SortedMap || map.size() < 2) {
      return;
    }
    boolean onlyText = true;
    for (Object key : map.keySet()) {
      if (!(key instanceof String)) {
        onlyText = false;
        break;
      }
    }
    if (onlyText) {
      return;
    }
    int distinct;
    try {
      distinct = new TreeMap<Object, Object>(map).size();
    } catch (RuntimeException e) {
      return; // keys that cannot be sorted at all (null, not comparable): Jackson refuses them
    }
    if (distinct != map.size()) {
      throw new BodyRefusal(
          "the map at "
              + Where.of(gen.getOutputContext())
              + " has keys that differ but sort as equal (such as 1.0 and 1.00): only one of"
              + " them would be sent");
    }
  }
}
