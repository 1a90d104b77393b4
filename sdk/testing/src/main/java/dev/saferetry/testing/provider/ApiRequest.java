package dev.saferetry.testing.provider;

import java.util.Map;

/**
 * A request as an endpoint sees it, after the headers, the body and the key were checked.
 *
 * @param method the method
 * @param path the path
 * @param variables the path variables of the endpoint's pattern ({@code {id}})
 * @param params query and body parameters, without the key
 * @param hasBody whether a body was sent
 * @param account whose objects it concerns: the credential, and for Stripe the {@code
 *     Stripe-Account} too
 * @param key the idempotency key, or null
 */
record ApiRequest(
    String method,
    String path,
    Map<String, String> variables,
    Map<String, Object> params,
    boolean hasBody,
    String account,
    String key) {

  String variable(String name) {
    return variables.get(name);
  }
}
