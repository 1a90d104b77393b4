package dev.saferetry.testing.provider;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/** Stripe's charges and refunds. Called with the account's ledger held. */
final class StripeCharges {
  private static final Set<String> CREATE =
      Set.of(
          "amount",
          "currency",
          "customer",
          "description",
          "metadata",
          "capture",
          "source",
          "receipt_email",
          "statement_descriptor",
          "expand");
  private static final Set<String> SEARCH =
      Set.of("amount", "currency", "customer", "status", "created", "payment_intent", "refunded");
  private static final Set<String> REFUND =
      Set.of("charge", "payment_intent", "amount", "reason", "metadata", "expand");
  private static final Set<String> REASONS =
      Set.of("duplicate", "fraudulent", "requested_by_customer");

  private final StripeApi api;

  StripeCharges(StripeApi api) {
    this.api = api;
  }

  List<Route> routes() {
    return List.of(
        Route.of("POST /v1/charges", r -> api.locked(r, this::create)),
        Route.of("GET /v1/charges", r -> api.locked(r, this::list)),
        Route.of("GET /v1/charges/search", r -> api.locked(r, this::search)),
        Route.of("GET /v1/charges/{id}", r -> api.locked(r, this::retrieve)),
        Route.of("POST /v1/charges/{id}/capture", r -> api.locked(r, this::capture)),
        Route.of("POST /v1/refunds", r -> api.locked(r, this::refund)),
        Route.of("GET /v1/refunds", r -> api.locked(r, this::listRefunds)),
        Route.of("GET /v1/refunds/{id}", r -> api.locked(r, this::retrieveRefund)));
  }

  private Answer create(ApiRequest r, StripeLedger ledger) throws Refused {
    Map<String, Object> p = r.params();
    StripeParams.onlyKnown(p, CREATE);
    long amount = StripeParams.positive(p, "amount", true);
    String currency = StripeParams.currency(p);
    String customer = StripeParams.string(p, "customer", false);
    Boolean capture = StripeParams.bool(p, "capture");
    Map<String, Object> metadata = StripeParams.metadata(p, Map.of());
    List<String> expand = StripeParams.expand(p, StripeLedger.expandable("charge"));
    String source = StripeParams.string(p, "source", false);
    if (customer != null) {
      ledger.customers.require(customer, "customer");
    }
    Map<String, Object> charge =
        newCharge(amount, currency, customer, null, capture == null || capture, source);
    charge.put("description", StripeParams.string(p, "description", false));
    charge.put("metadata", metadata);
    ledger.charges.add(charge);
    String id = (String) charge.get("id");
    if ("failed".equals(charge.get("status"))) {
      return declined(id, null);
    }
    return Answer.done(200, ledger.expanded(charge, expand, ""), id);
  }

  /** A charge object; {@code method} containing {@code chargeDeclined} makes it a failed one. */
  Map<String, Object> newCharge(
      long amount,
      String currency,
      String customer,
      String intent,
      boolean capture,
      String method) {
    boolean declined = method != null && method.contains("chargeDeclined");
    Map<String, Object> charge = api.newObject("ch", "charge");
    charge.put("amount", amount);
    charge.put("amount_captured", declined || !capture ? 0L : amount);
    charge.put("amount_refunded", 0L);
    charge.put("captured", !declined && capture);
    charge.put("currency", currency);
    charge.put("customer", customer);
    charge.put("description", null);
    charge.put("failure_code", declined ? "card_declined" : null);
    charge.put("metadata", new LinkedHashMap<>());
    charge.put("paid", !declined);
    charge.put("payment_intent", intent);
    charge.put("payment_method", method);
    charge.put("refunded", false);
    charge.put("status", declined ? "failed" : "succeeded");
    return charge;
  }

  /** Stripe's 402 for a declined card: carried out (the failed charge exists), so stored. */
  static Answer declined(String chargeId, Map<String, Object> intent) {
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("charge", chargeId);
    error.put("code", "card_declined");
    error.put("decline_code", "generic_decline");
    error.put("message", "Your card was declined.");
    if (intent != null) {
      error.put("payment_intent", intent);
    }
    error.put("type", "card_error");
    Object objectId = intent != null ? intent.get("id") : chargeId;
    return Answer.done(402, Map.of("error", error), (String) objectId);
  }

  private Answer retrieve(ApiRequest r, StripeLedger ledger) throws Refused {
    StripeParams.onlyKnown(r.params(), Set.of("expand"));
    List<String> expand = StripeParams.expand(r.params(), StripeLedger.expandable("charge"));
    return Answer.read(ledger.expanded(ledger.charges.lookup(r.variable("id")), expand, ""));
  }

  private Answer capture(ApiRequest r, StripeLedger ledger) throws Refused {
    Map<String, Object> p = r.params();
    StripeParams.onlyKnown(p, Set.of("amount", "expand"));
    List<String> expand = StripeParams.expand(p, StripeLedger.expandable("charge"));
    Map<String, Object> charge = ledger.charges.lookup(r.variable("id"));
    if (Boolean.TRUE.equals(charge.get("captured")) || !"succeeded".equals(charge.get("status"))) {
      throw StripeParams.bad(
          "Charge " + charge.get("id") + " has already been captured.",
          null,
          "charge_already_captured");
    }
    Long amount = StripeParams.positive(p, "amount", false);
    long total = (long) charge.get("amount");
    if (amount != null && amount > total) {
      throw StripeParams.bad(
          "Amount to capture exceeds the charge's amount.", "amount", "amount_too_large");
    }
    charge.put("captured", true);
    charge.put("amount_captured", amount == null ? total : amount);
    return Answer.done(200, ledger.expanded(charge, expand, ""), (String) charge.get("id"));
  }

  private Answer list(ApiRequest r, StripeLedger ledger) throws Refused {
    Object customer = r.params().get("customer");
    Object intent = r.params().get("payment_intent");
    return StripeLists.list(
        ledger,
        ledger.charges,
        r.params(),
        Set.of("customer", "payment_intent"),
        c ->
            (customer == null || Objects.equals(customer, c.get("customer")))
                && (intent == null || Objects.equals(intent, c.get("payment_intent"))));
  }

  private Answer search(ApiRequest r, StripeLedger ledger) throws Refused {
    return StripeLists.search(ledger, ledger.charges, r.params(), SEARCH);
  }

  private Answer refund(ApiRequest r, StripeLedger ledger) throws Refused {
    Map<String, Object> p = r.params();
    StripeParams.onlyKnown(p, REFUND);
    String chargeId = StripeParams.string(p, "charge", false);
    String intentId = StripeParams.string(p, "payment_intent", false);
    if ((chargeId == null) == (intentId == null)) {
      throw StripeParams.bad(
          "Give one of charge or payment_intent.", "charge", "parameter_missing");
    }
    Long requested = StripeParams.positive(p, "amount", false);
    String reason = StripeParams.oneOf(p, "reason", REASONS);
    Map<String, Object> metadata = StripeParams.metadata(p, Map.of());
    List<String> expand = StripeParams.expand(p, StripeLedger.expandable("refund"));
    if (intentId != null) {
      Map<String, Object> intent = ledger.paymentIntents.require(intentId, "payment_intent");
      chargeId = (String) intent.get("latest_charge");
      if (chargeId == null) {
        throw StripeParams.bad(
            "PaymentIntent " + intentId + " has no successful charge to refund.",
            "payment_intent",
            "charge_not_refundable");
      }
    }
    Map<String, Object> charge = ledger.charges.require(chargeId, "charge");
    long remaining = (long) charge.get("amount_captured") - (long) charge.get("amount_refunded");
    if (!Boolean.TRUE.equals(charge.get("captured")) || remaining == 0) {
      throw StripeParams.bad(
          "Charge " + chargeId + " has no captured amount left to refund.",
          "charge",
          "charge_already_refunded");
    }
    long amount = requested == null ? remaining : requested;
    if (amount > remaining) {
      throw StripeParams.bad(
          "Refund amount ("
              + amount
              + ") is greater than unrefunded amount on charge ("
              + remaining
              + ")",
          "amount",
          "amount_too_large");
    }
    charge.put("amount_refunded", (long) charge.get("amount_refunded") + amount);
    charge.put("refunded", amount == remaining);
    Map<String, Object> refund = api.newObject("re", "refund");
    refund.put("amount", amount);
    refund.put("charge", chargeId);
    refund.put("currency", charge.get("currency"));
    refund.put("metadata", metadata);
    refund.put("payment_intent", charge.get("payment_intent"));
    refund.put("reason", reason);
    refund.put("status", "succeeded");
    ledger.refunds.add(refund);
    return Answer.done(200, ledger.expanded(refund, expand, ""), (String) refund.get("id"));
  }

  private Answer retrieveRefund(ApiRequest r, StripeLedger ledger) throws Refused {
    StripeParams.onlyKnown(r.params(), Set.of("expand"));
    List<String> expand = StripeParams.expand(r.params(), StripeLedger.expandable("refund"));
    return Answer.read(ledger.expanded(ledger.refunds.lookup(r.variable("id")), expand, ""));
  }

  private Answer listRefunds(ApiRequest r, StripeLedger ledger) throws Refused {
    Object charge = r.params().get("charge");
    Object intent = r.params().get("payment_intent");
    return StripeLists.list(
        ledger,
        ledger.refunds,
        r.params(),
        Set.of("charge", "payment_intent"),
        o ->
            (charge == null || Objects.equals(charge, o.get("charge")))
                && (intent == null || Objects.equals(intent, o.get("payment_intent"))));
  }
}
