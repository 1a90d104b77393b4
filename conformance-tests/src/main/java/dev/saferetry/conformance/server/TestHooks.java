package dev.saferetry.conformance.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

/**
 * The {@code /_test/...} endpoints: side-effect counter, fault hook, clock hook and a simulated
 * restart. Only served when the server was built with {@code testHooks(true)}. Package-private and
 * not final: the suite's server fixtures give the same hooks other shapes. Thread-safe.
 */
class TestHooks {
  final Database db;
  final Faults faults;
  final OffsetClock clock;
  final IdempotencyFlow flow;

  TestHooks(Database db, Faults faults, OffsetClock clock, IdempotencyFlow flow) {
    this.db = db;
    this.faults = faults;
    this.clock = clock;
    this.flow = flow;
  }

  Reply handle(String method, URI uri, byte[] body) throws SQLException {
    String path = uri.getPath();
    ObjectNode json = body.length == 0 ? Json.object() : Json.parseObject(body);
    if (json == null) {
      return Reply.invalid("Body must be a JSON object");
    }
    switch (method + " " + path) {
      case "GET /_test/side-effects":
        String description = param(uri, "description");
        ObjectNode counts = Json.object().put("total", count(db, description));
        return Reply.of(
            200, Json.write(description == null ? counts : counts.put("description", description)));
      case "POST /_test/faults":
        return armFault(json);
      case "DELETE /_test/faults":
        faults.clear();
        return Reply.of(200, "{}");
      case "POST /_test/clock":
        clock.advance(Duration.ofSeconds(json.path("advance_seconds").asLong()));
        return Reply.of(200, Json.write(Json.object().put("now", clock.instant().toString())));
      case "POST /_test/restart":
        flow.onRestart();
        return Reply.of(200, "{}");
      default:
        return Reply.of(404, Json.error("invalid_request_error", "not_found", "Unknown hook"));
    }
  }

  /** Copies the collaborators of another hooks object (for fixtures that reshape the hooks). */
  TestHooks(TestHooks other) {
    this(other.db, other.faults, other.clock, other.flow);
  }

  private Reply armFault(ObjectNode json) {
    Fault fault;
    try {
      fault = parseFault(json);
    } catch (IllegalArgumentException e) {
      return Reply.invalid(e.getMessage());
    }
    faults.nextN(fault, Math.max(1, json.path("count").asInt(1)));
    return Reply.of(200, Json.write(Json.object().put("armed", fault.kind().name())));
  }

  static Fault parseFault(JsonNode json) {
    int status = json.path("status").asInt(500);
    return switch (json.path("fault").asText()) {
      case "delay" -> Fault.delay(Duration.ofMillis(json.path("millis").asLong()));
      case "fail_before_commit" -> Fault.failBeforeCommit(status);
      case "fail_after_commit" -> Fault.failAfterCommit(status);
      case "drop_after_commit" -> Fault.dropAfterCommit();
      case "hang" -> Fault.hang();
      case "unhandled_exception" -> Fault.unhandledException();
      default -> throw new IllegalArgumentException("unknown fault: " + json.path("fault"));
    };
  }

  /** Mutations executed, optionally only those whose request had {@code description}. */
  static long count(Database db, String description) throws SQLException {
    String sql =
        "select count(*) from side_effects" + (description == null ? "" : " where description = ?");
    try (Tx tx = db.begin();
        PreparedStatement select = tx.connection().prepareStatement(sql)) {
      if (description != null) {
        select.setString(1, description);
      }
      try (ResultSet rs = select.executeQuery()) {
        rs.next();
        long count = rs.getLong(1);
        tx.commit();
        return count;
      }
    }
  }

  static String param(URI uri, String name) {
    String query = uri.getRawQuery();
    if (query == null) {
      return null;
    }
    for (String pair : query.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0 && pair.substring(0, eq).equals(name)) {
        return URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      }
    }
    return null;
  }
}
