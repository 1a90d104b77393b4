package dev.saferetry.testing.provider;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Stripe dialect's endpoints and data: one {@link StripeLedger} per account, customers here,
 * charges and refunds in {@link StripeCharges}, payment intents in {@link StripePaymentIntents}.
 * Thread-safe: an endpoint holds its account's ledger for its whole work.
 */
final class StripeApi {
  private static final Set<String> CUSTOMER =
      Set.of("email", "name", "description", "phone", "metadata", "expand");
  private static final Set<String> CUSTOMER_SEARCH = Set.of("email", "name", "phone", "created");

  final Clock clock;
  final Ids ids = new Ids();
  private final Map<String, StripeLedger> ledgers = new ConcurrentHashMap<>();
  private final StripeCharges charges = new StripeCharges(this);
  private final StripePaymentIntents intents = new StripePaymentIntents(this);

  StripeApi(Clock clock) {
    this.clock = clock;
  }

  List<Route> routes() {
    List<Route> routes = new ArrayList<>();
    routes.add(Route.of("POST /v1/customers", r -> locked(r, this::createCustomer)));
    routes.add(Route.of("GET /v1/customers", r -> locked(r, this::listCustomers)));
    routes.add(Route.of("GET /v1/customers/search", r -> locked(r, this::searchCustomers)));
    routes.add(Route.of("GET /v1/customers/{id}", r -> locked(r, this::retrieveCustomer)));
    routes.add(Route.of("POST /v1/customers/{id}", r -> locked(r, this::updateCustomer)));
    routes.add(Route.of("DELETE /v1/customers/{id}", r -> locked(r, this::deleteCustomer)));
    routes.addAll(charges.routes());
    routes.addAll(intents.routes());
    return routes;
  }

  void reset() {
    ledgers.clear();
    ids.reset();
  }

  /** What an endpoint does while it holds its account's ledger. */
  @FunctionalInterface
  interface Work {
    Answer run(ApiRequest request, StripeLedger ledger) throws Refused;
  }

  Answer locked(ApiRequest request, Work work) throws Refused {
    StripeLedger ledger = ledgers.computeIfAbsent(request.account(), a -> new StripeLedger());
    synchronized (ledger) {
      return work.run(request, ledger);
    }
  }

  long now() {
    return clock.instant().getEpochSecond();
  }

  /** A new object with Stripe's common fields. */
  Map<String, Object> newObject(String prefix, String type) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("id", ids.next(prefix));
    o.put("object", type);
    o.put("created", now());
    o.put("livemode", false);
    return o;
  }

  private Answer createCustomer(ApiRequest r, StripeLedger ledger) throws Refused {
    StripeParams.onlyKnown(r.params(), CUSTOMER);
    StripeParams.expand(r.params(), Set.of());
    Map<String, Object> customer = newObject("cus", "customer");
    setCustomerFields(customer, r.params());
    ledger.customers.add(customer);
    return Answer.done(200, customer, (String) customer.get("id"));
  }

  private Answer updateCustomer(ApiRequest r, StripeLedger ledger) throws Refused {
    StripeParams.onlyKnown(r.params(), CUSTOMER);
    StripeParams.expand(r.params(), Set.of());
    Map<String, Object> customer = ledger.customers.lookup(r.variable("id"));
    setCustomerFields(customer, r.params());
    return Answer.done(200, customer, (String) customer.get("id"));
  }

  private static void setCustomerFields(Map<String, Object> customer, Map<String, Object> p)
      throws Refused {
    for (String field : List.of("description", "email", "name", "phone")) {
      String value = StripeParams.string(p, field, false);
      if (value != null || !customer.containsKey(field)) {
        customer.put(field, value);
      }
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> current = (Map<String, Object>) customer.getOrDefault("metadata", Map.of());
    customer.put("metadata", StripeParams.metadata(p, current));
  }

  private Answer retrieveCustomer(ApiRequest r, StripeLedger ledger) throws Refused {
    StripeParams.onlyKnown(r.params(), Set.of("expand"));
    StripeParams.expand(r.params(), Set.of());
    return Answer.read(ledger.customers.lookup(r.variable("id")));
  }

  /** A DELETE takes no parameters and no body. */
  private Answer deleteCustomer(ApiRequest r, StripeLedger ledger) throws Refused {
    if (r.hasBody()) {
      throw StripeParams.bad("A DELETE request takes no body.", null, null);
    }
    StripeParams.onlyKnown(r.params(), Set.of());
    String id = ledger.customers.lookup(r.variable("id")).get("id").toString();
    ledger.deleteCustomer(id);
    return Answer.done(200, StripeLedger.deletedCustomer(id), id);
  }

  private Answer listCustomers(ApiRequest r, StripeLedger ledger) throws Refused {
    Object email = r.params().get("email");
    return StripeLists.list(
        ledger,
        ledger.customers,
        r.params(),
        Set.of("email"),
        c -> email == null || Objects.equals(email, c.get("email")));
  }

  private Answer searchCustomers(ApiRequest r, StripeLedger ledger) throws Refused {
    return StripeLists.search(ledger, ledger.customers, r.params(), CUSTOMER_SEARCH);
  }
}
