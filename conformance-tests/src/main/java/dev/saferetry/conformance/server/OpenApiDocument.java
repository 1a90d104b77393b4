package dev.saferetry.conformance.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * The OpenAPI description the server serves at {@code /openapi.json}: the hand-written {@code
 * openapi.json} resource, which describes the default settings, with the key's place and limit
 * rewritten when the server was configured with another header, a body field or another maximum
 * length, so that the document always says where this server reads the key. Immutable and
 * thread-safe.
 */
final class OpenApiDocument {
  static final String PATH = "/openapi.json";
  static final String RESOURCE = "openapi.json";
  private static final String[] WRITE_BODIES = {"ChargeCreateParams", "RefundCreateParams"};
  private final String json;

  private OpenApiDocument(String json) {
    this.json = json;
  }

  String json() {
    return json;
  }

  static OpenApiDocument forSettings(ServerSettings settings) {
    ObjectNode doc = load();
    ObjectNode components = (ObjectNode) doc.get("components");
    ObjectNode key = (ObjectNode) components.get("parameters").get("IdempotencyKey");
    ((ObjectNode) key.get("schema")).put("maxLength", settings.maxKeyLength());
    if (settings.keyBodyField() == null) {
      key.put("name", settings.keyHeader());
      return new OpenApiDocument(Json.write(doc));
    }
    // The key travels in the body: the header parameter goes, each write body gains the field.
    ObjectNode field = key.get("schema").deepCopy();
    field.put("description", key.get("description").asText());
    ((ObjectNode) components.get("parameters")).remove("IdempotencyKey");
    if (components.get("parameters").isEmpty()) {
      components.remove("parameters");
    }
    for (String name : WRITE_BODIES) {
      ObjectNode schema = (ObjectNode) components.get("schemas").get(name);
      ((ObjectNode) schema.get("properties")).set(settings.keyBodyField(), field);
    }
    for (Route route : Route.values()) {
      if (route.write()) {
        ((ObjectNode) doc.get("paths").get(route.template()).get("post")).remove("parameters");
      }
    }
    return new OpenApiDocument(Json.write(doc));
  }

  private static ObjectNode load() {
    try (InputStream in = OpenApiDocument.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("resource missing: " + RESOURCE);
      }
      return (ObjectNode) Json.MAPPER.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
