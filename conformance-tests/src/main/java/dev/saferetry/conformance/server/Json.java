package dev.saferetry.conformance.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** JSON helpers of the reference server: parsing, error bodies and request hashing. Thread-safe. */
final class Json {
  static final ObjectMapper MAPPER = new ObjectMapper();
  private static final ObjectMapper CANONICAL =
      new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

  private Json() {}

  /** Parses a request body; null when it is not a JSON object. */
  static ObjectNode parseObject(byte[] body) {
    try {
      JsonNode node = MAPPER.readTree(body);
      return node instanceof ObjectNode object ? object : null;
    } catch (IOException e) {
      return null;
    }
  }

  static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  static String write(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  static String error(String type, String code, String message) {
    ObjectNode error = object();
    error.put("type", type);
    if (code != null) {
      error.put("code", code);
    }
    error.put("message", message);
    ObjectNode root = object();
    root.set("error", error);
    return write(root);
  }

  /** Sorted keys, no whitespace: two semantically equal objects give the same string. */
  static String canonical(JsonNode node) {
    try {
      Object plain = MAPPER.treeToValue(node, Object.class);
      return CANONICAL.writeValueAsString(plain);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** SHA-256 over method, path with query, and the canonical body: the stored request hash. */
  static String requestHash(String method, String pathAndQuery, JsonNode body) {
    String material = method + ' ' + pathAndQuery + '\n' + canonical(body);
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(digest.digest(material.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
