package dev.saferetry.examples.support.stripe;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Maps method and path to an endpoint; anything else is Stripe's "Unrecognized request URL". */
final class Router {
  private static final Pattern CHARGE = Pattern.compile("/v1/charges/([A-Za-z0-9_]+)");
  private static final Pattern CUSTOMER = Pattern.compile("/v1/customers/([A-Za-z0-9_]+)");

  private final Charges charges;
  private final Customers customers;

  Router(StripeState state) {
    this.charges = new Charges(state);
    this.customers = new Customers(state);
  }

  Reply route(StripeRequest r) {
    try {
      return dispatch(r);
    } catch (Params.Bad bad) {
      return bad.reply;
    }
  }

  private Reply dispatch(StripeRequest r) throws Params.Bad {
    String method = r.method();
    String path = r.path();
    if (path.equals("/v1/charges")) {
      if (method.equals("POST")) {
        return charges.create(r);
      }
      if (method.equals("GET")) {
        return charges.list(r);
      }
    }
    Matcher charge = CHARGE.matcher(path);
    if (charge.matches() && method.equals("GET")) {
      return charges.retrieve(r, charge.group(1));
    }
    if (path.equals("/v1/refunds") && method.equals("POST")) {
      return charges.refund(r);
    }
    if (path.equals("/v1/customers") && method.equals("POST")) {
      return customers.create(r);
    }
    Matcher customer = CUSTOMER.matcher(path);
    if (customer.matches() && method.equals("DELETE")) {
      return customers.delete(r, customer.group(1));
    }
    return unrecognized(method, path);
  }

  static Reply unrecognized(String method, String path) {
    String safe = path.replaceAll("[^A-Za-z0-9/_.%-]", "?");
    return new Reply(
        404,
        Reply.error(
            "invalid_request_error",
            null,
            "Unrecognized request URL (" + method + ": " + safe + ").",
            null),
        false);
  }
}
