package dev.saferetry.examples.support.stripe;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code /v1/charges} and {@code /v1/refunds}: create, list with cursors, retrieve, refund. */
final class Charges {
  private static final Set<String> CREATE =
      Set.of("amount", "currency", "customer", "description", "metadata", "capture", "expand");
  private static final Set<String> LIST =
      Set.of("limit", "starting_after", "ending_before", "expand");
  private static final Set<String> REFUND =
      Set.of("charge", "amount", "reason", "metadata", "expand");
  private static final Set<String> REASONS =
      Set.of("duplicate", "fraudulent", "requested_by_customer");

  private final StripeState state;

  Charges(StripeState state) {
    this.state = state;
  }

  Reply create(StripeRequest r) throws Params.Bad {
    Map<String, Object> p = r.params();
    Params.onlyKnown(p, CREATE);
    long amount = Params.positiveInteger(p, "amount", true);
    String currency = Params.string(p, "currency", true);
    if (!currency.matches("[A-Za-z]{3}")) {
      throw new Params.Bad(Reply.invalid("Invalid currency: " + currency, "currency", null));
    }
    String customer = Params.string(p, "customer", false);
    Boolean capture = Params.bool(p, "capture");
    Map<String, Object> metadata = Params.metadata(p);
    List<String> expand = Params.expand(p, Set.of("customer"));
    Ledger ledger = state.ledger(r.account());
    synchronized (ledger) {
      if (customer != null && !ledger.customers.containsKey(customer)) {
        return Reply.invalid(
            "No such customer: '" + customer + "'", "customer", "resource_missing");
      }
      Map<String, Object> charge = new LinkedHashMap<>();
      charge.put("id", Ledger.newId("ch"));
      charge.put("object", "charge");
      charge.put("amount", amount);
      charge.put("amount_refunded", 0L);
      charge.put("captured", capture == null || capture);
      charge.put("created", state.now());
      charge.put("currency", currency.toLowerCase(java.util.Locale.ROOT));
      charge.put("customer", customer);
      charge.put("description", Params.string(p, "description", false));
      charge.put("livemode", false);
      charge.put("metadata", metadata);
      charge.put("paid", true);
      charge.put("refunded", false);
      charge.put("status", "succeeded");
      ledger.charges.add(0, charge);
      ledger.chargesById.put((String) charge.get("id"), charge);
      state.chargesCreated.incrementAndGet();
      return Reply.ok(expanded(ledger, charge, expand, ""));
    }
  }

  Reply retrieve(StripeRequest r, String id) throws Params.Bad {
    Params.onlyKnown(r.params(), Set.of("expand"));
    List<String> expand = Params.expand(r.params(), Set.of("customer"));
    Ledger ledger = state.ledger(r.account());
    synchronized (ledger) {
      Map<String, Object> charge = ledger.chargesById.get(id);
      return charge == null
          ? Reply.missing("charge", id, "id")
          : Reply.ok(expanded(ledger, charge, expand, ""));
    }
  }

  Reply list(StripeRequest r) throws Params.Bad {
    Map<String, Object> p = r.params();
    Params.onlyKnown(p, LIST);
    Long limit = Params.positiveInteger(p, "limit", false);
    if (limit != null && limit > 100) {
      throw new Params.Bad(Reply.invalid("limit must be at most 100", "limit", null));
    }
    String after = Params.string(p, "starting_after", false);
    String before = Params.string(p, "ending_before", false);
    if (after != null && before != null) {
      throw new Params.Bad(
          Reply.invalid("Use starting_after or ending_before, not both", "starting_after", null));
    }
    List<String> expand = Params.expand(p, Set.of("data.customer"));
    Ledger ledger = state.ledger(r.account());
    synchronized (ledger) {
      int from = 0;
      int to = ledger.charges.size();
      String cursor = after != null ? after : before;
      if (cursor != null) {
        int at = ledger.charges.indexOf(ledger.chargesById.get(cursor));
        if (at < 0) {
          String param = after != null ? "starting_after" : "ending_before";
          return Reply.invalid("No such charge: '" + cursor + "'", param, "resource_missing");
        }
        from = after != null ? at + 1 : from;
        to = after != null ? to : at;
      }
      int size = (int) (limit == null ? 10 : limit);
      return Reply.ok(
          page(
              ledger,
              before != null ? Math.max(from, to - size) : from,
              to,
              size,
              before != null,
              expand));
    }
  }

  /** The list object of charges {@code [from, min(to, from + size))}. */
  private static Map<String, Object> page(
      Ledger ledger, int from, int to, int size, boolean backwards, List<String> expand) {
    int end = Math.min(to, from + size);
    List<Object> data = new ArrayList<>();
    for (Map<String, Object> charge : ledger.charges.subList(from, end)) {
      data.add(expanded(ledger, charge, expand, "data."));
    }
    Map<String, Object> page = new LinkedHashMap<>();
    page.put("object", "list");
    page.put("data", data);
    page.put("has_more", backwards ? from > 0 : end < to);
    page.put("url", "/v1/charges");
    return page;
  }

  Reply refund(StripeRequest r) throws Params.Bad {
    Map<String, Object> p = r.params();
    Params.onlyKnown(p, REFUND);
    String chargeId = Params.string(p, "charge", true);
    Long amount = Params.positiveInteger(p, "amount", false);
    String reason = Params.string(p, "reason", false);
    if (reason != null && !REASONS.contains(reason)) {
      throw new Params.Bad(Reply.invalid("Invalid reason: " + reason, "reason", null));
    }
    Map<String, Object> metadata = Params.metadata(p);
    Params.expand(p, Set.of());
    Ledger ledger = state.ledger(r.account());
    synchronized (ledger) {
      Map<String, Object> charge = ledger.chargesById.get(chargeId);
      if (charge == null) {
        return Reply.invalid("No such charge: '" + chargeId + "'", "charge", "resource_missing");
      }
      long remaining = (long) charge.get("amount") - (long) charge.get("amount_refunded");
      if (remaining == 0) {
        return Reply.invalid(
            "Charge " + chargeId + " has already been refunded.",
            "charge",
            "charge_already_refunded");
      }
      long refunded = amount == null ? remaining : amount;
      if (refunded > remaining) {
        return Reply.invalid(
            "Refund amount ("
                + refunded
                + ") is greater than unrefunded amount on charge ("
                + remaining
                + ")",
            "amount",
            "amount_too_large");
      }
      charge.put("amount_refunded", (long) charge.get("amount_refunded") + refunded);
      charge.put("refunded", refunded == remaining);
      Map<String, Object> refund = newRefund(charge, refunded, metadata, reason);
      ledger.refunds.put((String) refund.get("id"), refund);
      state.refundsCreated.incrementAndGet();
      return Reply.ok(refund);
    }
  }

  private Map<String, Object> newRefund(
      Map<String, Object> charge, long amount, Map<String, Object> metadata, String reason) {
    Map<String, Object> refund = new LinkedHashMap<>();
    refund.put("id", Ledger.newId("re"));
    refund.put("object", "refund");
    refund.put("amount", amount);
    refund.put("charge", charge.get("id"));
    refund.put("created", state.now());
    refund.put("currency", charge.get("currency"));
    refund.put("metadata", metadata);
    refund.put("reason", reason);
    refund.put("status", "succeeded");
    return refund;
  }

  /** A copy of the charge with its customer expanded when asked ({@code prefix} for lists). */
  private static Map<String, Object> expanded(
      Ledger ledger, Map<String, Object> charge, List<String> expand, String prefix) {
    Map<String, Object> copy = new LinkedHashMap<>(charge);
    Object customer = charge.get("customer");
    if (expand.contains(prefix + "customer") && customer != null) {
      Map<String, Object> object = ledger.customers.get((String) customer);
      copy.put("customer", object != null ? object : Customers.deleted((String) customer));
    }
    return copy;
  }
}
