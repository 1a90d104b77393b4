package dev.saferetry.examples.support.stripe;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** {@code POST /v1/customers} and {@code DELETE /v1/customers/{id}}. */
final class Customers {
  private static final Set<String> CREATE = Set.of("email", "name", "description", "metadata");

  private final StripeState state;

  Customers(StripeState state) {
    this.state = state;
  }

  Reply create(StripeRequest r) throws Params.Bad {
    Map<String, Object> p = r.params();
    Params.onlyKnown(p, CREATE);
    Map<String, Object> customer = new LinkedHashMap<>();
    customer.put("id", Ledger.newId("cus"));
    customer.put("object", "customer");
    customer.put("created", state.now());
    customer.put("description", Params.string(p, "description", false));
    customer.put("email", Params.string(p, "email", false));
    customer.put("livemode", false);
    customer.put("metadata", Params.metadata(p));
    customer.put("name", Params.string(p, "name", false));
    Ledger ledger = state.ledger(r.account());
    synchronized (ledger) {
      ledger.customers.put((String) customer.get("id"), customer);
    }
    state.customersCreated.incrementAndGet();
    return Reply.ok(customer);
  }

  /** Deletes a customer; a DELETE takes no parameters and no body. */
  Reply delete(StripeRequest r, String id) throws Params.Bad {
    if (r.hasBody()) {
      throw new Params.Bad(Reply.invalid("A DELETE request takes no body.", null, null));
    }
    Params.onlyKnown(r.params(), Set.of());
    Ledger ledger = state.ledger(r.account());
    synchronized (ledger) {
      if (ledger.customers.remove(id) == null) {
        return Reply.missing("customer", id, "id");
      }
    }
    state.customersDeleted.incrementAndGet();
    return Reply.ok(deleted(id));
  }

  /** Stripe's answer for a deleted customer. */
  static Map<String, Object> deleted(String id) {
    Map<String, Object> gone = new LinkedHashMap<>();
    gone.put("id", id);
    gone.put("object", "customer");
    gone.put("deleted", true);
    return gone;
  }
}
