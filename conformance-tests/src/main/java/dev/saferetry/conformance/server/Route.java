package dev.saferetry.conformance.server;

import java.util.Locale;

/**
 * Every route of the reference server's API: the one list the handler dispatches on and the OpenAPI
 * document ({@code /openapi.json}) is checked against. Immutable and thread-safe.
 */
enum Route {
  CREATE_CHARGE("POST", "/v1/charges"),
  LIST_CHARGES("GET", "/v1/charges"),
  RETRIEVE_CHARGE("GET", "/v1/charges/{id}"),
  CREATE_REFUND("POST", "/v1/refunds");

  private final String method;
  private final String template;

  Route(String method, String template) {
    this.method = method;
    this.template = template;
  }

  String method() {
    return method;
  }

  /** The path as the OpenAPI document writes it, e.g. {@code /v1/charges/{id}}. */
  String template() {
    return template;
  }

  /** True for the writes, which take an idempotency key. */
  boolean write() {
    return method.equals("POST");
  }

  /**
   * The route a request selects, or null. A charge id is the raw rest of the path; otherwise letter
   * case and trailing slashes do not matter (as with most routers), so a path variant is the same
   * operation, and the same key on it replays.
   */
  static Route match(String method, String path) {
    if ("GET".equals(method) && path.startsWith("/v1/charges/")) {
      return RETRIEVE_CHARGE;
    }
    String route = normalise(path);
    for (Route candidate : values()) {
      if (candidate != RETRIEVE_CHARGE
          && candidate.method.equals(method)
          && candidate.template.equals(route)) {
        return candidate;
      }
    }
    return null;
  }

  static String normalise(String path) {
    String route = path.toLowerCase(Locale.ROOT);
    while (route.length() > 1 && route.endsWith("/")) {
      route = route.substring(0, route.length() - 1);
    }
    return route;
  }
}
