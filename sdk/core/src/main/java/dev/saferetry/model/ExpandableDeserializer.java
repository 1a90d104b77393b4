package dev.saferetry.model;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.BeanProperty;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.deser.ContextualDeserializer;
import java.io.IOException;

/**
 * Reads an {@link Expandable}: a string is the id, an object is read as the type argument. Jackson
 * makes one per declared type ({@code Expandable<Customer>}), so the object's type is known.
 */
final class ExpandableDeserializer extends JsonDeserializer<Expandable<?>>
    implements ContextualDeserializer {
  private final JavaType objectType;

  ExpandableDeserializer() {
    this(null);
  }

  private ExpandableDeserializer(JavaType objectType) {
    this.objectType = objectType;
  }

  @Override
  public JsonDeserializer<?> createContextual(DeserializationContext ctxt, BeanProperty property) {
    JavaType declared = ctxt.getContextualType();
    if (declared == null && property != null) {
      declared = property.getType();
    }
    JavaType object =
        declared != null && declared.containedTypeCount() == 1
            ? declared.containedType(0)
            : ctxt.constructType(Object.class);
    return new ExpandableDeserializer(object);
  }

  @Override
  public Expandable<?> deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
    JsonNode node = ctxt.readTree(p);
    if (node.isTextual()) {
      return Expandable.ofId(node.textValue());
    }
    if (node.isObject()) {
      JsonNode id = node.get("id");
      JavaType type = objectType != null ? objectType : ctxt.constructType(Object.class);
      Object object = ctxt.readTreeAsValue(node, type);
      return Expandable.ofObject(id != null && id.isTextual() ? id.textValue() : null, object);
    }
    return (Expandable<?>)
        ctxt.handleUnexpectedToken(
            Expandable.class, p.currentToken(), p, "expected an id or an object");
  }
}
