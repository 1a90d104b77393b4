package dev.saferetry.conformance.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.saferetry.conformance.server.ServerSettings.EmptyKey;
import java.io.IOException;
import java.io.InputStream;
import java.sql.SQLException;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes {@code /v1/...} requests: authentication, key extraction and validation, body validation,
 * then the idempotency flow. Thread-safe (stateless apart from its collaborators).
 */
final class ApiHandler implements HttpHandler {
  private static final Logger LOG = LoggerFactory.getLogger(ApiHandler.class);
  private final ServerSettings settings;
  private final IdempotencyFlow flow;
  private final Database db;
  private final TestHooks hooks;
  private final OpenApiDocument document;

  ApiHandler(ServerSettings settings, IdempotencyFlow flow, Database db, TestHooks hooks) {
    this.settings = settings;
    this.flow = flow;
    this.db = db;
    this.hooks = hooks;
    this.document = OpenApiDocument.forSettings(settings);
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      exchange.getResponseHeaders().set("Request-Id", "req_" + ChargesApi.random());
      Reply reply;
      try {
        reply = route(exchange);
      } catch (SQLException | RuntimeException e) {
        LOG.debug("request failed: {}", e.toString());
        reply = Reply.of(500, Json.error("api_error", null, "Internal error"));
      }
      Http.send(exchange, reply);
    }
  }

  private Reply route(HttpExchange exchange) throws IOException, SQLException {
    String path = exchange.getRequestURI().getPath();
    String method = exchange.getRequestMethod();
    byte[] body = readAll(exchange.getRequestBody());
    if (path.startsWith("/_test/") && hooks != null) {
      return hooks.handle(method, exchange.getRequestURI(), body);
    }
    if ("GET".equals(method) && path.equals(OpenApiDocument.PATH)) {
      return Reply.of(200, document.json());
    }
    String tenant = tenant(exchange);
    if (tenant == null) {
      return Reply.of(401, Json.error("authentication_error", null, "Bearer token required"));
    }
    Route matched = Route.match(method, path);
    if (matched == null) {
      return Reply.of(404, Json.error("invalid_request_error", "not_found", "Unknown route"));
    }
    return switch (matched) {
      case RETRIEVE_CHARGE -> getCharge(tenant, path.substring("/v1/charges/".length()));
      case LIST_CHARGES ->
          listCharges(tenant, TestHooks.param(exchange.getRequestURI(), "description"));
      case CREATE_CHARGE ->
          mutate(
              exchange,
              tenant,
              ChargesApi.CHARGES,
              body,
              ChargesApi::validateCharge,
              (json) -> (c, now) -> ChargesApi.createCharge(c, tenant, json, now));
      case CREATE_REFUND ->
          mutate(
              exchange,
              tenant,
              ChargesApi.REFUNDS,
              body,
              ChargesApi::validateRefund,
              (json) -> (c, now) -> ChargesApi.createRefund(c, tenant, json, now));
    };
  }

  private Reply mutate(
      HttpExchange exchange,
      String tenant,
      String operation,
      byte[] raw,
      Function<ObjectNode, String> validator,
      Function<ObjectNode, Mutation> work)
      throws SQLException {
    ObjectNode json = Json.parseObject(raw);
    if (json == null) {
      return Reply.invalid("Body must be a JSON object");
    }
    String rawKey = rawKey(exchange, json);
    if (rawKey != null && rawKey.isBlank() && settings.emptyKey() == EmptyKey.NO_KEY) {
      rawKey = null;
    }
    if (rawKey == null && settings.requireKey()) {
      return Reply.invalid("Missing idempotency key (" + keySource() + ")");
    }
    String key;
    try {
      key =
          rawKey == null
              ? null
              : rawKey.isBlank() && settings.emptyKey() == EmptyKey.ONE_KEY
                  ? ""
                  : IdempotencyKeys.parse(rawKey, settings.maxKeyLength());
    } catch (IllegalArgumentException e) {
      return Reply.invalid(e.getMessage());
    }
    String invalid = validator.apply(json);
    if (invalid != null) {
      return Reply.invalid(invalid);
    }
    if (key == null) {
      return flow.executeWithoutKey(work.apply(json));
    }
    ObjectNode hashed = json.deepCopy();
    if (settings.keyBodyField() != null) {
      hashed.remove(settings.keyBodyField());
    }
    String path = exchange.getRequestURI().getRawPath();
    String hash = Json.requestHash("POST", route(path) + query(exchange), hashed);
    return flow.handle(
        new IdempotencyRequest(tenant, operation, path, key, hash), work.apply(json));
  }

  /** The route a path selects, as {@link Route#normalise(String)} defines it. */
  static String route(String path) {
    return Route.normalise(path);
  }

  private String rawKey(HttpExchange exchange, ObjectNode json) {
    if (settings.keyBodyField() == null) {
      return exchange.getRequestHeaders().getFirst(settings.keyHeader());
    }
    var field = json.get(settings.keyBodyField());
    return field == null || field.isNull() ? null : field.asText();
  }

  private String keySource() {
    return settings.keyBodyField() == null
        ? "header " + settings.keyHeader()
        : "body field " + settings.keyBodyField();
  }

  private Reply getCharge(String tenant, String id) throws SQLException {
    try (Tx tx = db.begin()) {
      String charge = ChargesApi.findCharge(tx.connection(), tenant, id);
      tx.commit();
      return charge == null
          ? Reply.of(404, Json.error("invalid_request_error", "resource_missing", "No such charge"))
          : Reply.of(200, charge);
    }
  }

  private Reply listCharges(String tenant, String description) throws SQLException {
    try (Tx tx = db.begin()) {
      String list = ChargesApi.listCharges(tx.connection(), tenant, description);
      tx.commit();
      return Reply.of(200, list);
    }
  }

  private static String tenant(HttpExchange exchange) {
    String auth = exchange.getRequestHeaders().getFirst("Authorization");
    if (auth == null || !auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return null;
    }
    String token = auth.substring(7).strip();
    return token.isEmpty() || token.length() > 200 ? null : token;
  }

  private static String query(HttpExchange exchange) {
    String query = exchange.getRequestURI().getRawQuery();
    return query == null ? "" : "?" + query;
  }

  static byte[] readAll(InputStream in) throws IOException {
    return in.readNBytes(1 << 20);
  }
}
