package dev.saferetry.testing.provider;

import java.math.BigInteger;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The reference payments API's endpoints: charges and refunds, one ledger per credential. Objects
 * are JSON-ready maps. Thread-safe (each ledger is guarded by its own monitor).
 */
final class JsonPayments {
  private static final class Ledger {
    final List<Map<String, Object>> charges = new ArrayList<>(); // newest first
    final Map<String, Map<String, Object>> chargesById = new LinkedHashMap<>();
    final Map<String, Map<String, Object>> refunds = new LinkedHashMap<>();
  }

  private final Clock clock;
  private final Ids ids = new Ids();
  private final Map<String, Ledger> ledgers = new ConcurrentHashMap<>();

  JsonPayments(Clock clock) {
    this.clock = clock;
  }

  List<Route> routes() {
    return List.of(
        Route.of("POST /v1/charges", this::createCharge),
        Route.of("GET /v1/charges", this::listCharges),
        Route.of("GET /v1/charges/{id}", this::retrieveCharge),
        Route.of("POST /v1/refunds", this::createRefund),
        Route.of("GET /v1/refunds/{id}", this::retrieveRefund));
  }

  void reset() {
    ledgers.clear();
    ids.reset();
  }

  private Ledger ledger(ApiRequest r) {
    return ledgers.computeIfAbsent(r.account(), a -> new Ledger());
  }

  private Answer createCharge(ApiRequest r) throws Refused {
    Map<String, Object> p = r.params();
    long amount = positive(p, "amount", true);
    Object currency = p.get("currency");
    if (!(currency instanceof String c) || !c.matches("[A-Za-z]{3}")) {
      throw new Refused(invalid("currency must be a three-letter code"));
    }
    Map<String, Object> charge = new LinkedHashMap<>();
    String id = ids.next("ch");
    charge.put("id", id);
    charge.put("object", "charge");
    charge.put("amount", amount);
    charge.put("amount_refunded", 0L);
    charge.put("currency", c.toLowerCase(Locale.ROOT));
    charge.put("status", "succeeded");
    charge.put("description", text(p, "description"));
    charge.put("customer", text(p, "customer"));
    charge.put("created", clock.instant().getEpochSecond());
    Ledger ledger = ledger(r);
    synchronized (ledger) {
      ledger.charges.add(0, charge);
      ledger.chargesById.put(id, charge);
      return Answer.done(201, charge, id).withHeader("Location", "/v1/charges/" + id);
    }
  }

  private Answer retrieveCharge(ApiRequest r) throws Refused {
    Ledger ledger = ledger(r);
    synchronized (ledger) {
      Map<String, Object> charge = ledger.chargesById.get(r.variable("id"));
      if (charge == null) {
        throw new Refused(missing("No such charge"));
      }
      return Answer.read(charge);
    }
  }

  private Answer listCharges(ApiRequest r) throws Refused {
    Object description = r.params().get("description");
    long limit = r.params().containsKey("limit") ? positive(r.params(), "limit", true) : 100;
    if (limit > 100) {
      throw new Refused(invalid("limit must be at most 100"));
    }
    Ledger ledger = ledger(r);
    synchronized (ledger) {
      List<Object> data = new ArrayList<>();
      for (Map<String, Object> charge : ledger.charges) {
        if (data.size() < limit
            && (description == null || description.equals(charge.get("description")))) {
          data.add(charge);
        }
      }
      Map<String, Object> list = new LinkedHashMap<>();
      list.put("object", "list");
      list.put("data", data);
      return Answer.read(list);
    }
  }

  private Answer createRefund(ApiRequest r) throws Refused {
    Map<String, Object> p = r.params();
    if (!(p.get("charge") instanceof String chargeId) || chargeId.isEmpty()) {
      throw new Refused(invalid("charge is required"));
    }
    Long requested = p.containsKey("amount") ? positive(p, "amount", true) : null;
    Ledger ledger = ledger(r);
    synchronized (ledger) {
      Map<String, Object> charge = ledger.chargesById.get(chargeId);
      if (charge == null) {
        throw new Refused(missing("No such charge: " + chargeId));
      }
      long remaining = (long) charge.get("amount") - (long) charge.get("amount_refunded");
      long amount = requested == null ? remaining : requested;
      if (amount <= 0 || amount > remaining) {
        throw new Refused(
            Answer.refused(
                400,
                JsonShape.error(
                    "invalid_request_error",
                    "amount_too_large",
                    "Refund amount exceeds the charge's remaining amount")));
      }
      charge.put("amount_refunded", (long) charge.get("amount_refunded") + amount);
      Map<String, Object> refund = new LinkedHashMap<>();
      String id = ids.next("re");
      refund.put("id", id);
      refund.put("object", "refund");
      refund.put("charge", chargeId);
      refund.put("amount", amount);
      refund.put("status", "succeeded");
      ledger.refunds.put(id, refund);
      return Answer.done(201, refund, id);
    }
  }

  private Answer retrieveRefund(ApiRequest r) throws Refused {
    Ledger ledger = ledger(r);
    synchronized (ledger) {
      Map<String, Object> refund = ledger.refunds.get(r.variable("id"));
      if (refund == null) {
        throw new Refused(missing("No such refund"));
      }
      return Answer.read(refund);
    }
  }

  /** A positive whole number, from JSON or from a query string. */
  private static long positive(Map<String, Object> p, String name, boolean required)
      throws Refused {
    Object v = p.get(name);
    Long n = null;
    if (v instanceof Integer || v instanceof Long) {
      n = ((Number) v).longValue();
    } else if (v instanceof BigInteger b && b.bitLength() < 63) {
      n = b.longValue();
    } else if (v instanceof String s && s.matches("[0-9]{1,12}")) {
      n = Long.parseLong(s);
    }
    if ((n == null && (required || v != null)) || (n != null && n <= 0)) {
      throw new Refused(invalid(name + " must be a positive integer in minor units"));
    }
    return n == null ? 0 : n;
  }

  private static String text(Map<String, Object> p, String name) {
    Object v = p.get(name);
    return v == null ? null : String.valueOf(v);
  }

  private static Answer invalid(String message) {
    return Answer.refused(400, JsonShape.error("invalid_request_error", null, message));
  }

  private static Answer missing(String message) {
    return Answer.refused(
        404, JsonShape.error("invalid_request_error", "resource_missing", message));
  }
}
