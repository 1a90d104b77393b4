package dev.saferetry.conformance.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.UUID;

/**
 * The Stripe-like business logic: charges and refunds. Every mutation also records one row in
 * {@code side_effects}, in the same transaction, which is what the side-effect counter reports.
 * Stateless and thread-safe; callers own the transaction.
 */
final class ChargesApi {
  static final String CHARGES = "POST /v1/charges";
  static final String REFUNDS = "POST /v1/refunds";

  private ChargesApi() {}

  /** Returns a validation message for a charge body, or null when it is valid. */
  static String validateCharge(ObjectNode body) {
    JsonNode amount = body.get("amount");
    if (amount == null
        || !amount.canConvertToLong()
        || !amount.isIntegralNumber()
        || amount.asLong() <= 0) {
      return "amount must be a positive integer in minor units";
    }
    JsonNode currency = body.get("currency");
    if (currency == null || !currency.isTextual() || !currency.asText().matches("[A-Za-z]{3}")) {
      return "currency must be a three-letter code";
    }
    return null;
  }

  /** Returns a validation message for a refund body, or null when it is valid. */
  static String validateRefund(ObjectNode body) {
    JsonNode charge = body.get("charge");
    if (charge == null || !charge.isTextual() || charge.asText().isEmpty()) {
      return "charge is required";
    }
    JsonNode amount = body.get("amount");
    if (amount != null && (!amount.isIntegralNumber() || amount.asLong() <= 0)) {
      return "amount must be a positive integer in minor units";
    }
    return null;
  }

  static Outcome createCharge(Connection c, String tenant, ObjectNode body, Instant now)
      throws SQLException {
    String id = "ch_" + random();
    String sql =
        "insert into charges (id, tenant_id, amount, amount_refunded, currency, status,"
            + " description, customer, created) values (?, ?, ?, 0, ?, 'succeeded', ?, ?, ?)";
    try (PreparedStatement insert = c.prepareStatement(sql)) {
      insert.setString(1, id);
      insert.setString(2, tenant);
      insert.setLong(3, body.get("amount").asLong());
      insert.setString(4, body.get("currency").asText().toLowerCase(java.util.Locale.ROOT));
      insert.setString(5, text(body, "description"));
      insert.setString(6, text(body, "customer"));
      insert.setLong(7, now.getEpochSecond());
      insert.executeUpdate();
    }
    recordSideEffect(c, tenant, CHARGES, text(body, "description"), now);
    return new Outcome(201, findCharge(c, tenant, id), "charge", id);
  }

  static Outcome createRefund(Connection c, String tenant, ObjectNode body, Instant now)
      throws SQLException {
    String chargeId = body.get("charge").asText();
    String sql =
        "select amount, amount_refunded from charges where id = ? and tenant_id = ?"
            + " for update";
    long amount;
    long refunded;
    try (PreparedStatement select = c.prepareStatement(sql)) {
      select.setString(1, chargeId);
      select.setString(2, tenant);
      try (ResultSet rs = select.executeQuery()) {
        if (!rs.next()) {
          return new Outcome(
              404,
              Json.error(
                  "invalid_request_error", "resource_missing", "No such charge: " + chargeId),
              null,
              null);
        }
        amount = rs.getLong(1);
        refunded = rs.getLong(2);
      }
    }
    long requested = body.has("amount") ? body.get("amount").asLong() : amount - refunded;
    if (requested <= 0 || refunded + requested > amount) {
      return new Outcome(
          400,
          Json.error(
              "invalid_request_error",
              "amount_too_large",
              "Refund amount exceeds the charge's remaining amount"),
          null,
          null);
    }
    return insertRefund(c, tenant, chargeId, requested, body, now);
  }

  private static Outcome insertRefund(
      Connection c, String tenant, String chargeId, long amount, ObjectNode body, Instant now)
      throws SQLException {
    String id = "re_" + random();
    try (PreparedStatement insert =
        c.prepareStatement(
            "insert into refunds (id, tenant_id,"
                + " charge_id, amount, status) values (?, ?, ?, ?, 'succeeded')")) {
      insert.setString(1, id);
      insert.setString(2, tenant);
      insert.setString(3, chargeId);
      insert.setLong(4, amount);
      insert.executeUpdate();
    }
    try (PreparedStatement update =
        c.prepareStatement(
            "update charges set amount_refunded = amount_refunded + ? where id = ?")) {
      update.setLong(1, amount);
      update.setString(2, chargeId);
      update.executeUpdate();
    }
    recordSideEffect(c, tenant, REFUNDS, text(body, "description"), now);
    ObjectNode refund =
        Json.object()
            .put("id", id)
            .put("object", "refund")
            .put("charge", chargeId)
            .put("amount", amount)
            .put("status", "succeeded");
    return new Outcome(201, Json.write(refund), "refund", id);
  }

  /** The tenant's newest charges (at most 100), optionally only those with {@code description}. */
  static String listCharges(Connection c, String tenant, String description) throws SQLException {
    String sql =
        "select id from charges where tenant_id = ?"
            + (description == null ? "" : " and description = ?")
            + " order by created desc, id limit 100";
    com.fasterxml.jackson.databind.node.ArrayNode data = Json.MAPPER.createArrayNode();
    try (PreparedStatement select = c.prepareStatement(sql)) {
      select.setString(1, tenant);
      if (description != null) {
        select.setString(2, description);
      }
      try (ResultSet rs = select.executeQuery()) {
        while (rs.next()) {
          data.add(
              Json.parseObject(
                  findCharge(c, tenant, rs.getString(1))
                      .getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        }
      }
    }
    ObjectNode list = Json.object().put("object", "list");
    list.set("data", data);
    return Json.write(list);
  }

  /** The current charge as JSON, or null when the tenant has no such charge. */
  static String findCharge(Connection c, String tenant, String id) throws SQLException {
    try (PreparedStatement select =
        c.prepareStatement(
            "select id, amount, amount_refunded,"
                + " currency, status, description, customer, created from charges"
                + " where id = ? and tenant_id = ?")) {
      select.setString(1, id);
      select.setString(2, tenant);
      try (ResultSet rs = select.executeQuery()) {
        if (!rs.next()) {
          return null;
        }
        ObjectNode charge =
            Json.object()
                .put("id", rs.getString(1))
                .put("object", "charge")
                .put("amount", rs.getLong(2))
                .put("amount_refunded", rs.getLong(3))
                .put("currency", rs.getString(4))
                .put("status", rs.getString(5))
                .put("description", rs.getString(6))
                .put("customer", rs.getString(7))
                .put("created", rs.getLong(8));
        return Json.write(charge);
      }
    }
  }

  private static void recordSideEffect(
      Connection c, String tenant, String operation, String description, Instant now)
      throws SQLException {
    try (PreparedStatement insert =
        c.prepareStatement(
            "insert into side_effects (id, tenant_id,"
                + " operation, description, created_at) values (?, ?, ?, ?, ?)")) {
      insert.setString(1, random());
      insert.setString(2, tenant);
      insert.setString(3, operation);
      insert.setString(4, description);
      insert.setObject(5, now.atOffset(ZoneOffset.UTC));
      insert.executeUpdate();
    }
  }

  private static String text(ObjectNode body, String field) {
    JsonNode node = body.get(field);
    return node == null || node.isNull() ? null : node.asText();
  }

  static String random() {
    return UUID.randomUUID().toString().replace("-", "").substring(0, 24);
  }
}
