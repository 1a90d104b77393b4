package dev.saferetry.testing.provider;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Stripe's payment intents: create ({@code confirm=true} confirms at once), confirm (a charge is
 * made; {@code capture_method=manual} leaves it to capture), capture, cancel, retrieve, list and
 * search. A step the intent's status does not allow is refused with 400 {@code
 * payment_intent_unexpected_state}. Called with the account's ledger held.
 */
final class StripePaymentIntents {
  private static final Set<String> CREATE =
      Set.of(
          "amount",
          "currency",
          "customer",
          "description",
          "metadata",
          "payment_method",
          "payment_method_types",
          "automatic_payment_methods",
          "capture_method",
          "confirm",
          "receipt_email",
          "return_url",
          "off_session",
          "setup_future_usage",
          "statement_descriptor",
          "expand");
  private static final Set<String> CONFIRM =
      Set.of("payment_method", "receipt_email", "return_url", "off_session", "expand");
  private static final Set<String> CANCEL = Set.of("cancellation_reason", "expand");
  private static final Set<String> REASONS =
      Set.of("duplicate", "fraudulent", "requested_by_customer", "abandoned");
  private static final Set<String> CANCELLABLE =
      Set.of(
          "requires_payment_method",
          "requires_confirmation",
          "requires_action",
          "requires_capture");
  private static final Set<String> SEARCH =
      Set.of("amount", "currency", "customer", "status", "created");

  private final StripeApi api;

  StripePaymentIntents(StripeApi api) {
    this.api = api;
  }

  List<Route> routes() {
    return List.of(
        Route.of("POST /v1/payment_intents", r -> api.locked(r, this::create)),
        Route.of("GET /v1/payment_intents", r -> api.locked(r, this::list)),
        Route.of("GET /v1/payment_intents/search", r -> api.locked(r, this::search)),
        Route.of("GET /v1/payment_intents/{id}", r -> api.locked(r, this::retrieve)),
        Route.of("POST /v1/payment_intents/{id}/confirm", r -> api.locked(r, this::confirm)),
        Route.of("POST /v1/payment_intents/{id}/capture", r -> api.locked(r, this::capture)),
        Route.of("POST /v1/payment_intents/{id}/cancel", r -> api.locked(r, this::cancel)));
  }

  private Answer create(ApiRequest r, StripeLedger ledger) throws Refused {
    Map<String, Object> p = r.params();
    StripeParams.onlyKnown(p, CREATE);
    long amount = StripeParams.positive(p, "amount", true);
    String currency = StripeParams.currency(p);
    String customer = StripeParams.string(p, "customer", false);
    String method = StripeParams.string(p, "payment_method", false);
    String captureMethod = StripeParams.oneOf(p, "capture_method", Set.of("automatic", "manual"));
    boolean confirm = Boolean.TRUE.equals(StripeParams.bool(p, "confirm"));
    List<String> expand = StripeParams.expand(p, StripeLedger.expandable("payment_intent"));
    if (customer != null) {
      ledger.customers.require(customer, "customer");
    }
    if (confirm && method == null) {
      throw unexpected(
          "You cannot confirm this PaymentIntent because it's missing a payment method.");
    }
    Map<String, Object> intent = api.newObject("pi", "payment_intent");
    intent.put("amount", amount);
    intent.put("amount_capturable", 0L);
    intent.put("amount_received", 0L);
    intent.put("canceled_at", null);
    intent.put("cancellation_reason", null);
    intent.put("capture_method", captureMethod == null ? "automatic" : captureMethod);
    intent.put(
        "client_secret", intent.get("id") + "_secret_" + api.ids.next("cs").substring(3, 15));
    intent.put("currency", currency);
    intent.put("customer", customer);
    intent.put("description", StripeParams.string(p, "description", false));
    intent.put("latest_charge", null);
    intent.put("metadata", StripeParams.metadata(p, Map.of()));
    intent.put("payment_method", method);
    intent.put("status", method == null ? "requires_payment_method" : "requires_confirmation");
    ledger.paymentIntents.add(intent);
    return confirm ? doConfirm(ledger, intent, expand) : done(ledger, intent, expand);
  }

  private Answer confirm(ApiRequest r, StripeLedger ledger) throws Refused {
    Map<String, Object> p = r.params();
    StripeParams.onlyKnown(p, CONFIRM);
    List<String> expand = StripeParams.expand(p, StripeLedger.expandable("payment_intent"));
    Map<String, Object> intent = ledger.paymentIntents.lookup(r.variable("id"));
    String status = (String) intent.get("status");
    if (!status.equals("requires_payment_method") && !status.equals("requires_confirmation")) {
      throw unexpected("This PaymentIntent's status is " + status + ", so it cannot be confirmed.");
    }
    String method = StripeParams.string(p, "payment_method", false);
    if (method != null) {
      intent.put("payment_method", method);
    }
    if (intent.get("payment_method") == null) {
      throw unexpected(
          "You cannot confirm this PaymentIntent because it's missing a payment method.");
    }
    return doConfirm(ledger, intent, expand);
  }

  /** Makes the charge: succeeded (or awaiting capture), or declined with 402. */
  private Answer doConfirm(StripeLedger ledger, Map<String, Object> intent, List<String> expand) {
    boolean manual = "manual".equals(intent.get("capture_method"));
    long amount = (long) intent.get("amount");
    Map<String, Object> charge =
        new StripeCharges(api)
            .newCharge(
                amount,
                (String) intent.get("currency"),
                (String) intent.get("customer"),
                (String) intent.get("id"),
                !manual,
                (String) intent.get("payment_method"));
    ledger.charges.add(charge);
    intent.put("latest_charge", charge.get("id"));
    if ("failed".equals(charge.get("status"))) {
      intent.put("status", "requires_payment_method");
      intent.put("payment_method", null);
      return StripeCharges.declined((String) charge.get("id"), Values.copy(intent));
    }
    intent.put("status", manual ? "requires_capture" : "succeeded");
    intent.put("amount_capturable", manual ? amount : 0L);
    intent.put("amount_received", manual ? 0L : amount);
    return done(ledger, intent, expand);
  }

  private Answer capture(ApiRequest r, StripeLedger ledger) throws Refused {
    Map<String, Object> p = r.params();
    StripeParams.onlyKnown(p, Set.of("amount_to_capture", "metadata", "expand"));
    List<String> expand = StripeParams.expand(p, StripeLedger.expandable("payment_intent"));
    Map<String, Object> intent = ledger.paymentIntents.lookup(r.variable("id"));
    if (!"requires_capture".equals(intent.get("status"))) {
      throw unexpected(
          "This PaymentIntent's status is " + intent.get("status") + ", so it cannot be captured.");
    }
    long capturable = (long) intent.get("amount_capturable");
    Long amount = StripeParams.positive(p, "amount_to_capture", false);
    if (amount != null && amount > capturable) {
      throw StripeParams.bad(
          "amount_to_capture is greater than the amount capturable.",
          "amount_to_capture",
          "amount_too_large");
    }
    long captured = amount == null ? capturable : amount;
    Map<String, Object> charge = ledger.charges.get((String) intent.get("latest_charge"));
    charge.put("captured", true);
    charge.put("amount_captured", captured);
    intent.put("metadata", StripeParams.metadata(p, metadataOf(intent)));
    intent.put("amount_capturable", 0L);
    intent.put("amount_received", captured);
    intent.put("status", "succeeded");
    return done(ledger, intent, expand);
  }

  private Answer cancel(ApiRequest r, StripeLedger ledger) throws Refused {
    Map<String, Object> p = r.params();
    StripeParams.onlyKnown(p, CANCEL);
    List<String> expand = StripeParams.expand(p, StripeLedger.expandable("payment_intent"));
    String reason = StripeParams.oneOf(p, "cancellation_reason", REASONS);
    Map<String, Object> intent = ledger.paymentIntents.lookup(r.variable("id"));
    if (!CANCELLABLE.contains((String) intent.get("status"))) {
      throw unexpected(
          "This PaymentIntent's status is " + intent.get("status") + ", so it cannot be canceled.");
    }
    intent.put("status", "canceled");
    intent.put("canceled_at", api.now());
    intent.put("cancellation_reason", reason);
    intent.put("amount_capturable", 0L);
    return done(ledger, intent, expand);
  }

  private Answer retrieve(ApiRequest r, StripeLedger ledger) throws Refused {
    StripeParams.onlyKnown(r.params(), Set.of("expand", "client_secret"));
    List<String> expand =
        StripeParams.expand(r.params(), StripeLedger.expandable("payment_intent"));
    return Answer.read(ledger.expanded(ledger.paymentIntents.lookup(r.variable("id")), expand, ""));
  }

  private Answer list(ApiRequest r, StripeLedger ledger) throws Refused {
    Object customer = r.params().get("customer");
    return StripeLists.list(
        ledger,
        ledger.paymentIntents,
        r.params(),
        Set.of("customer"),
        o -> customer == null || Objects.equals(customer, o.get("customer")));
  }

  private Answer search(ApiRequest r, StripeLedger ledger) throws Refused {
    return StripeLists.search(ledger, ledger.paymentIntents, r.params(), SEARCH);
  }

  private static Answer done(StripeLedger ledger, Map<String, Object> intent, List<String> expand) {
    return Answer.done(200, ledger.expanded(intent, expand, ""), (String) intent.get("id"));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> metadataOf(Map<String, Object> intent) {
    return (Map<String, Object>) intent.get("metadata");
  }

  private static Refused unexpected(String message) {
    return StripeParams.bad(message, null, "payment_intent_unexpected_state");
  }
}
