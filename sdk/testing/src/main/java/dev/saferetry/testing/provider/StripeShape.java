package dev.saferetry.testing.provider;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Stripe's wire format: an API key required (Bearer or Basic), form-encoded bodies with bracket
 * nesting, {@code Stripe-Account} (its own objects) and {@code Stripe-Version} (echoed) as part of
 * a keyed request's identity, keys of 1 to 255 visible ASCII characters, {@code {"error": {"code",
 * "message", "param", "type"}}}, 400 {@code idempotency_error} for a reused key, 409 with {@code
 * Stripe-Should-Retry: true} while in progress. Stateless.
 */
final class StripeShape implements Shape {
  static final String DEFAULT_VERSION = "2024-06-20";

  @Override
  public Answer checkHeaders(Call call) {
    if (apiKey(call.header("Authorization")) == null) {
      return Answer.refused(
          401,
          error(
              "invalid_request_error",
              null,
              "You did not provide an API key. Provide it as a Bearer token or with Basic auth.",
              null));
    }
    String version = call.header("Stripe-Version");
    if (version != null && !validVersion(version)) {
      return invalid("Invalid Stripe API version: " + version, null);
    }
    String account = call.header("Stripe-Account");
    if (account != null && !account.matches("acct_[A-Za-z0-9]{1,64}")) {
      return invalid("Invalid Stripe-Account header.", null);
    }
    return null;
  }

  @Override
  public Map<String, Object> params(Call call) throws Refused {
    String type = call.header("Content-Type");
    if (call.body().length > 0
        && (type == null
            || !type.toLowerCase(Locale.ROOT).startsWith("application/x-www-form-urlencoded"))) {
      throw new Refused(invalid("Request bodies must be application/x-www-form-urlencoded.", null));
    }
    try {
      Map<String, Object> params = FormParser.parse(call.rawQuery());
      params.putAll(FormParser.parse(new String(call.body(), StandardCharsets.ISO_8859_1)));
      return params;
    } catch (FormParser.FormException e) {
      throw new Refused(invalid("Invalid request parameters: " + e.getMessage(), null));
    }
  }

  @Override
  public String credential(Call call) {
    return apiKey(call.header("Authorization"));
  }

  @Override
  public String account(Call call) {
    String account = call.header("Stripe-Account");
    return credential(call) + '/' + (account == null ? "" : account);
  }

  @Override
  public String identity(Call call) {
    return "Stripe-Account: "
        + call.header("Stripe-Account")
        + "\nStripe-Version: "
        + call.header("Stripe-Version");
  }

  @Override
  public String key(String raw) throws Refused {
    if (!raw.matches("[\\x21-\\x7E]{1,255}")) {
      throw new Refused(
          invalid("Invalid idempotency key: 1 to 255 visible ASCII characters.", null));
    }
    return raw;
  }

  @Override
  public Answer invalid(String message, String param) {
    return Answer.refused(400, error("invalid_request_error", null, message, param));
  }

  /** A parameter error with Stripe's error code. */
  static Answer invalid(String message, String param, String code) {
    return Answer.refused(400, error("invalid_request_error", code, message, param));
  }

  @Override
  public Answer keyReused() {
    return Answer.refused(
            400,
            error(
                "idempotency_error",
                null,
                "Keys for idempotent requests can only be used with the same parameters they were"
                    + " first used with.",
                null))
        .withHeader("Stripe-Should-Retry", "false");
  }

  @Override
  public Answer inProgress() {
    return Answer.refused(
            409,
            error(
                "idempotency_error",
                "idempotency_key_in_use",
                "There is currently another in-progress request using this idempotency key.",
                null))
        .withHeader("Stripe-Should-Retry", "true");
  }

  @Override
  public Answer rateLimited(Duration retryAfter) {
    return Answer.refused(
            429,
            error("invalid_request_error", "rate_limit", "Too many requests; retry later.", null))
        .withHeader("Stripe-Should-Retry", "true");
  }

  @Override
  public Answer failed(int status) {
    return Answer.refused(status, error("api_error", null, "Injected test fault.", null));
  }

  @Override
  public Answer unknownRoute(String method, String path) {
    String safe = path.replaceAll("[^A-Za-z0-9/_.%-]", "?");
    return Answer.refused(
        404,
        error(
            "invalid_request_error",
            null,
            "Unrecognized request URL (" + method + ": " + safe + ").",
            null));
  }

  @Override
  public Answer internalError() {
    return Answer.refused(500, error("api_error", null, "An unexpected error occurred.", null));
  }

  @Override
  public void decorate(Call call, Map<String, String> headers, Ids ids) {
    headers.put("Request-Id", ids.next("req"));
    String version = call.header("Stripe-Version");
    headers.put("Stripe-Version", validVersion(version) ? version : DEFAULT_VERSION);
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
    return Map.of("error", error);
  }

  private static boolean validVersion(String version) {
    return version != null && version.matches("\\d{4}-\\d{2}-\\d{2}(\\.[a-z]+)?");
  }

  static String apiKey(String authorization) {
    if (authorization == null) {
      return null;
    }
    String key = null;
    if (authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      key = authorization.substring(7).strip();
    } else if (authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
      try {
        String user =
            new String(
                Base64.getDecoder().decode(authorization.substring(6).strip()),
                StandardCharsets.UTF_8);
        key = user.contains(":") ? user.substring(0, user.indexOf(':')) : user;
      } catch (IllegalArgumentException e) {
        return null;
      }
    }
    return key == null || key.isEmpty() ? null : key;
  }
}
