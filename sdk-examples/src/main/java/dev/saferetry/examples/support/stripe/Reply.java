package dev.saferetry.examples.support.stripe;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An answer of the Stripe-shaped server: status and JSON body. {@code executed} says whether the
 * endpoint began its work; like Stripe, only such answers are kept for an idempotency key, so a
 * request rejected by validation can be corrected and sent again with the same key.
 */
record Reply(int status, Map<String, Object> body, boolean executed) {

  /** A result of the endpoint's work. */
  static Reply ok(Map<String, Object> body) {
    return new Reply(200, body, true);
  }

  /** A parameter error found before any work began: not kept for the key. */
  static Reply invalid(String message, String param, String code) {
    return new Reply(400, error("invalid_request_error", code, message, param), false);
  }

  /** An unknown object. */
  static Reply missing(String what, String id, String param) {
    return new Reply(
        404,
        error(
            "invalid_request_error",
            "resource_missing",
            "No such " + what + ": '" + id + "'",
            param),
        false);
  }

  /** Any other error, in Stripe's {@code {"error": {...}}} shape. */
  static Reply error(int status, String type, String code, String message, boolean executed) {
    return new Reply(status, error(type, code, message, null), executed);
  }

  static Map<String, Object> error(String type, String code, String message, String param) {
    Map<String, Object> error = new LinkedHashMap<>();
    if (code != null) {
      error.put("code", code);
    }
    error.put("message", message);
    if (param != null) {
      error.put("param", param);
    }
    error.put("type", type);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("error", error);
    return body;
  }
}
