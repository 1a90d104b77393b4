package dev.saferetry.internal.codec;

import com.fasterxml.jackson.databind.BeanProperty;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsonFormatVisitors.JsonFormatVisitorWrapper;
import com.fasterxml.jackson.databind.ser.ContextualSerializer;
import com.fasterxml.jackson.databind.ser.ResolvableSerializer;

/**
 * A serializer that adds a rule around Jackson's own one and otherwise passes everything through,
 * contextualization (property annotations, element serializers) included. Immutable.
 */
abstract class Wrapping extends JsonSerializer<Object>
    implements ContextualSerializer, ResolvableSerializer {
  final JsonSerializer<Object> inner;

  Wrapping(JsonSerializer<Object> inner) {
    this.inner = inner;
  }

  /** The same rule around another serializer (the inner one after contextualization). */
  abstract Wrapping around(JsonSerializer<Object> other);

  @Override
  @SuppressWarnings("unchecked")
  public JsonSerializer<?> createContextual(SerializerProvider provider, BeanProperty property)
      throws JsonMappingException {
    if (!(inner instanceof ContextualSerializer contextual)) {
      return this;
    }
    JsonSerializer<?> resolved = contextual.createContextual(provider, property);
    return resolved == inner ? this : around((JsonSerializer<Object>) resolved);
  }

  @Override
  public void resolve(SerializerProvider provider) throws JsonMappingException {
    if (inner instanceof ResolvableSerializer resolvable) {
      resolvable.resolve(provider);
    }
  }

  @Override
  public boolean isEmpty(SerializerProvider provider, Object value) {
    return inner.isEmpty(provider, value);
  }

  @Override
  public Class<Object> handledType() {
    return inner.handledType();
  }

  @Override
  public boolean usesObjectId() {
    return inner.usesObjectId();
  }

  @Override
  public JsonSerializer<?> getDelegatee() {
    return inner;
  }

  @Override
  public void acceptJsonFormatVisitor(JsonFormatVisitorWrapper visitor, JavaType type)
      throws JsonMappingException {
    inner.acceptJsonFormatVisitor(visitor, type);
  }
}
