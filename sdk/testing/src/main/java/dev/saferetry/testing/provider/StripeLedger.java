package dev.saferetry.testing.provider;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The objects of one account (the platform, or one {@code Stripe-Account}): customers, charges,
 * refunds and payment intents, each newest first, as JSON-ready maps. Guarded by its own monitor:
 * an endpoint holds it for its whole work.
 */
final class StripeLedger {
  /** References that {@code expand[]} can replace by the object, and where that object lives. */
  static final Map<String, String> REFERENCES =
      Map.of(
          "customer", "customer",
          "charge", "charge",
          "latest_charge", "charge",
          "payment_intent", "payment_intent");

  /** The objects of one type. */
  static final class Objects {
    final String type;
    final String url;
    final Map<String, Map<String, Object>> byId = new HashMap<>();
    final List<Map<String, Object>> newestFirst = new ArrayList<>();

    Objects(String type, String url) {
      this.type = type;
      this.url = url;
    }

    void add(Map<String, Object> object) {
      byId.put((String) object.get("id"), object);
      newestFirst.add(0, object);
    }

    Map<String, Object> get(String id) {
      return byId.get(id);
    }

    Map<String, Object> require(String id, String param) throws Refused {
      Map<String, Object> object = id == null ? null : byId.get(id);
      if (object == null) {
        throw StripeParams.bad(
            "No such " + type.replace('_', ' ') + ": '" + id + "'", param, "resource_missing");
      }
      return object;
    }

    /** The object a request's path names; Stripe answers 404 when there is none. */
    Map<String, Object> lookup(String id) throws Refused {
      Map<String, Object> object = byId.get(id);
      if (object == null) {
        throw new Refused(
            Answer.refused(
                404,
                StripeShape.error(
                    "invalid_request_error",
                    "resource_missing",
                    "No such " + type.replace('_', ' ') + ": '" + id + "'",
                    "id")));
      }
      return object;
    }

    void remove(String id) {
      newestFirst.remove(byId.remove(id));
    }
  }

  final Objects customers = new Objects("customer", "/v1/customers");
  final Objects charges = new Objects("charge", "/v1/charges");
  final Objects refunds = new Objects("refund", "/v1/refunds");
  final Objects paymentIntents = new Objects("payment_intent", "/v1/payment_intents");
  private final Set<String> deletedCustomers = new java.util.HashSet<>();

  Objects of(String type) {
    return switch (type) {
      case "customer" -> customers;
      case "charge" -> charges;
      case "refund" -> refunds;
      default -> paymentIntents;
    };
  }

  void deleteCustomer(String id) {
    customers.remove(id);
    deletedCustomers.add(id);
  }

  /** The expandable fields of an object of {@code type}. */
  static Set<String> expandable(String type) {
    return switch (type) {
      case "charge" -> Set.of("customer", "payment_intent");
      case "refund" -> Set.of("charge", "payment_intent");
      case "payment_intent" -> Set.of("customer", "latest_charge");
      default -> Set.of();
    };
  }

  /** The expand paths a request may give for an object (or, with {@code "data."}, a list). */
  static Set<String> expandPaths(String type, String prefix) {
    Set<String> paths = new java.util.HashSet<>();
    expandable(type).forEach(f -> paths.add(prefix + f));
    return paths;
  }

  /**
   * A copy of {@code object} with the fields named in {@code expand} (after {@code prefix})
   * expanded.
   */
  Map<String, Object> expanded(Map<String, Object> object, List<String> expand, String prefix) {
    Map<String, Object> copy = Values.copy(object);
    for (String path : expand) {
      if (!path.startsWith(prefix)) {
        continue;
      }
      String field = path.substring(prefix.length());
      if (copy.get(field) instanceof String id) {
        Map<String, Object> target = of(REFERENCES.get(field)).get(id);
        if (target != null) {
          copy.put(field, Values.copy(target));
        } else if (deletedCustomers.contains(id)) {
          copy.put(field, deletedCustomer(id));
        }
      }
    }
    return copy;
  }

  static Map<String, Object> deletedCustomer(String id) {
    Map<String, Object> gone = new LinkedHashMap<>();
    gone.put("id", id);
    gone.put("object", "customer");
    gone.put("deleted", true);
    return gone;
  }
}
