package dev.saferetry.internal.codec;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.type.WritableTypeId;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.PriorityBlockingQueue;

/**
 * Writes a collection so that its bytes do not depend on the process: a {@link List}, a {@link
 * Deque} or a first-in-first-out {@link Queue} in its own order; a {@link Set} sorted by its
 * elements as written ({@link SetElement}), because its iteration order depends on hash codes,
 * capacity, insertion order and, for {@code Set.of}, a per-JVM random seed; any other collection (a
 * {@code map.values()} view, a priority queue), whose order is not defined, is refused. Equal sets
 * are written as equal bytes. Immutable.
 */
final class OrderedCollections extends Wrapping {
  OrderedCollections(JsonSerializer<Object> inner) {
    super(inner);
  }

  @Override
  Wrapping around(JsonSerializer<Object> other) {
    return new OrderedCollections(other);
  }

  @Override
  public void serialize(Object value, JsonGenerator gen, SerializerProvider provider)
      throws IOException {
    List<TokenBuffer> sorted = needsSorting(value, gen) ? sorted(value, gen, provider) : null;
    if (sorted == null) {
      inner.serialize(value, gen, provider);
      return;
    }
    gen.writeStartArray(value, sorted.size());
    for (TokenBuffer element : sorted) {
      element.serialize(gen);
    }
    gen.writeEndArray();
  }

  @Override
  public void serializeWithType(
      Object value, JsonGenerator gen, SerializerProvider provider, TypeSerializer typeSer)
      throws IOException {
    List<TokenBuffer> sorted = needsSorting(value, gen) ? sorted(value, gen, provider) : null;
    if (sorted == null) {
      inner.serializeWithType(value, gen, provider, typeSer);
      return;
    }
    WritableTypeId typeId =
        typeSer.writeTypePrefix(gen, typeSer.typeId(value, JsonToken.START_ARRAY));
    for (TokenBuffer element : sorted) {
      element.serialize(gen);
    }
    typeSer.writeTypeSuffix(gen, typeId);
  }

  // Whether the value is a set of two or more; refuses a collection without an order.
  private static boolean needsSorting(Object value, JsonGenerator gen) {
    if (!(value instanceof Collection<?> collection)
        || collection instanceof List
        || collection instanceof Deque) {
      return false;
    }
    if (collection instanceof Set) {
      return collection.size() > 1;
    }
    if (collection instanceof Queue
        && !(collection instanceof PriorityQueue)
        && !(collection instanceof PriorityBlockingQueue)) {
      return false;
    }
    throw new BodyRefusal(
        "value of "
            + Where.of(gen.getOutputContext())
            + " is a "
            + collection.getClass().getName()
            + ", a collection without a defined order: another process could send its elements in"
            + " another order. Pass a List (sent in its order) or a Set (sent sorted)");
  }

  // The elements as Jackson writes them, each in its own buffer, sorted; null if Jackson's
  // serializer did not write an array (a custom one): then it writes the value itself.
  private List<TokenBuffer> sorted(Object value, JsonGenerator gen, SerializerProvider provider)
      throws IOException {
    TokenBuffer all = new TokenBuffer(gen.getCodec(), false);
    inner.serialize(value, all, provider);
    Where where = () -> Where.of(gen.getOutputContext()) + "[]";
    List<SetElement> elements = new ArrayList<>();
    try (JsonParser p = all.asParser()) {
      if (p.nextToken() != JsonToken.START_ARRAY) {
        return null;
      }
      for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
        TokenBuffer element = new TokenBuffer(p);
        element.copyCurrentStructure(p);
        elements.add(SetElement.of(element, where));
      }
    }
    elements.sort(null);
    List<TokenBuffer> sorted = new ArrayList<>(elements.size());
    elements.forEach(e -> sorted.add(e.tokens()));
    return sorted;
  }
}
