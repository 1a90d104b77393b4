package dev.saferetry.testing.provider;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The reference payments API's wire format: JSON bodies, {@code {"error": {"type", "code",
 * "message"}}}, 422 for a reused key, 409 with {@code Retry-After: 1} while in progress. Keys are
 * bare tokens or Structured Field strings ({@code "abc"} is {@code abc}), 1 to 255 characters
 * without control characters. Stateless.
 */
final class JsonShape implements Shape {
  static final int MAX_KEY = 255;

  @Override
  public Answer checkHeaders(Call call) {
    return null; // any credential, or none
  }

  @Override
  public Map<String, Object> params(Call call) throws Refused {
    Map<String, Object> params;
    try {
      params = FormParser.parse(call.rawQuery());
    } catch (FormParser.FormException e) {
      throw new Refused(invalid("Invalid query: " + e.getMessage(), null));
    }
    if (call.body().length > 0) {
      Map<String, Object> body = Values.readObject(call.body());
      if (body == null) {
        throw new Refused(invalid("Body must be a JSON object", null));
      }
      params.putAll(body);
    }
    return params;
  }

  @Override
  public String credential(Call call) {
    String auth = call.header("Authorization");
    return auth == null ? "" : auth;
  }

  @Override
  public String account(Call call) {
    return credential(call);
  }

  @Override
  public String identity(Call call) {
    return "";
  }

  @Override
  public String key(String raw) throws Refused {
    String value = raw.strip();
    if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
      value = value.substring(1, value.length() - 1).replace("\\\"", "\"").replace("\\\\", "\\");
    }
    if (value.isEmpty()
        || value.length() > MAX_KEY
        || value.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
      throw new Refused(
          invalid(
              "Invalid idempotency key: 1 to " + MAX_KEY + " characters, no control characters",
              null));
    }
    return value;
  }

  @Override
  public Answer invalid(String message, String param) {
    return Answer.refused(400, error("invalid_request_error", null, message));
  }

  @Override
  public Answer keyReused() {
    return Answer.refused(
        422,
        error(
            "idempotency_error",
            "idempotency_key_reused",
            "This idempotency key was used with a different request."));
  }

  @Override
  public Answer inProgress() {
    return Answer.refused(
            409,
            error(
                "idempotency_error",
                "request_in_progress",
                "A request with this idempotency key is still being processed; retry later."))
        .withHeader("Retry-After", "1");
  }

  @Override
  public Answer rateLimited(Duration retryAfter) {
    return Answer.refused(429, error("rate_limit_error", "rate_limited", "Too many requests."));
  }

  @Override
  public Answer failed(int status) {
    return Answer.refused(status, error("api_error", "injected_fault", "Injected test fault."));
  }

  @Override
  public Answer unknownRoute(String method, String path) {
    return Answer.refused(404, error("invalid_request_error", "not_found", "Unknown route."));
  }

  @Override
  public Answer internalError() {
    return Answer.refused(500, error("api_error", null, "Internal error."));
  }

  @Override
  public void decorate(Call call, Map<String, String> headers, Ids ids) {
    headers.put("Request-Id", ids.next("req"));
  }

  static Map<String, Object> error(String type, String code, String message) {
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("type", type);
    if (code != null) {
      error.put("code", code);
    }
    error.put("message", message);
    return Map.of("error", error);
  }
}
