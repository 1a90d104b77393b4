package dev.saferetry.testing.provider;

import java.time.Duration;
import java.util.Map;

/**
 * What differs between the dialects on the wire: which headers are required, how parameters are
 * read, how keys are checked, and the shape of every answer the provider itself makes (errors, "key
 * reused", "in progress", injected faults). Implementations are stateless and thread-safe.
 */
interface Shape {
  /** A refusal of the request's headers (a missing API key), or null when they are fine. */
  Answer checkHeaders(Call call);

  /** The query and body parameters; throws the refusal of an unreadable body. */
  Map<String, Object> params(Call call) throws Refused;

  /** Whose keys the request uses: the credential (each has its own keys). */
  String credential(Call call);

  /** Whose objects the request concerns: the credential, and an account within it if any. */
  String account(Call call);

  /** The identity headers that are part of a keyed request's fingerprint, as text. */
  String identity(Call call);

  /** The key as the provider understands it, or throws the refusal of a malformed one. */
  String key(String raw) throws Refused;

  /** A parameter error before any work. */
  Answer invalid(String message, String param);

  /** The answer to a key reused with another request. */
  Answer keyReused();

  /** The answer to a key whose first request is still running. */
  Answer inProgress();

  /** The answer of a {@link Fault.Kind#RATE_LIMIT}. */
  Answer rateLimited(Duration retryAfter);

  /** The answer of a {@code FAIL} fault. */
  Answer failed(int status);

  /** The answer for a path no endpoint serves. */
  Answer unknownRoute(String method, String path);

  /** The answer for an endpoint that failed unexpectedly. */
  Answer internalError();

  /** The headers every answer carries (request id, version), added to {@code headers}. */
  void decorate(Call call, Map<String, String> headers, Ids ids);

  /** {@code Retry-After} in whole seconds, rounded up. */
  static String seconds(Duration d) {
    long s = d.getSeconds() + (d.getNano() > 0 ? 1 : 0);
    return Long.toString(s);
  }
}
