package dev.saferetry.conformance.server;

/**
 * What the HTTP layer sends back: a response, or a dropped connection.
 *
 * @param status HTTP status
 * @param body JSON body
 * @param location {@code Location} header or null
 * @param replayed whether this is a stored outcome being replayed
 * @param retryAfter {@code Retry-After} seconds, or 0 for none
 * @param drop close the connection without answering
 * @param contentType the {@code Content-Type} sent
 */
record Reply(
    int status,
    String body,
    String location,
    boolean replayed,
    int retryAfter,
    boolean drop,
    String contentType) {
  static final String JSON = "application/json";

  static Reply of(int status, String body) {
    return new Reply(status, body, null, false, 0, false, JSON);
  }

  static Reply of(Outcome outcome, boolean replayed) {
    return new Reply(
        outcome.status(), outcome.body(), outcome.location(), replayed, 0, false, JSON);
  }

  static Reply dropped() {
    return new Reply(0, "", null, false, 0, true, JSON);
  }

  /** This reply with another {@code Content-Type}. */
  Reply withContentType(String type) {
    return new Reply(status, body, location, replayed, retryAfter, drop, type);
  }

  static Reply inProgress() {
    String body =
        Json.error(
            "idempotency_error",
            "request_in_progress",
            "A request with this idempotency key is still being processed; retry later.");
    return new Reply(409, body, null, false, 1, false, JSON);
  }

  static Reply mismatch() {
    return of(
        422,
        Json.error(
            "idempotency_error",
            "idempotency_key_reused",
            "This idempotency key was used with a different request."));
  }

  static Reply invalid(String message) {
    return of(400, Json.error("invalid_request_error", null, message));
  }
}
