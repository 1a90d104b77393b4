package dev.saferetry;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How a client reads what a provider says beyond the status: the replay marker, "key reused with
 * another payload", "still in progress", "already created, here is the id", a should-retry header
 * and retryable error bodies, and where the server's request id is. From a {@link ProviderPreset},
 * or the SDK's common contract when none is set.
 *
 * @param replay the replay marker, or null when the provider has none
 * @param keyReused answers that mean the key was used with another payload
 * @param inProgress answers that mean a request with this key is still running
 * @param existing a conflict naming the resource an earlier request created, or null
 * @param shouldRetryHeaders headers whose true/false decides whether to retry (never what an answer
 *     proves); when several are sent, their values must agree
 * @param retryable error answers documented as safe to retry
 * @param requestIdHeaders headers carrying the server's request id, in order of preference
 * @param errorRequestIdField a JSON pointer to the request id in an error body, or null
 */
record ResponseRules(
    ReplayMarker replay,
    List<ErrorMatch> keyReused,
    List<ErrorMatch> inProgress,
    ExistingResource existing,
    List<String> shouldRetryHeaders,
    List<ErrorMatch> retryable,
    List<String> requestIdHeaders,
    String errorRequestIdField) {

  private static final List<String> COMMON_REQUEST_IDS = List.of("Request-Id", "X-Request-Id");

  /** The should-retry header read unless the client names others. */
  public static final List<String> COMMON_SHOULD_RETRY = List.of("X-Should-Retry");

  /** The common contract: {@code Idempotent-Replayed: true}, 422 or Stripe's 400, 409. */
  public static final ResponseRules COMMON =
      new ResponseRules(
          new ReplayMarker("Idempotent-Replayed", "true"),
          List.of(
              ErrorMatch.status(422), ErrorMatch.of(400, "/error", "/type", "idempotency_error")),
          List.of(ErrorMatch.status(409)),
          null,
          COMMON_SHOULD_RETRY,
          List.of(),
          COMMON_REQUEST_IDS,
          null);

  /** Copies the lists. */
  public ResponseRules {
    keyReused = List.copyOf(keyReused);
    inProgress = List.copyOf(inProgress);
    retryable = List.copyOf(retryable);
    shouldRetryHeaders = List.copyOf(shouldRetryHeaders);
    requestIdHeaders = withCommonRequestIds(requestIdHeaders);
  }

  // The request id headers in order of preference; the common ones are looked at last.
  private static List<String> withCommonRequestIds(List<String> preferred) {
    List<String> ids = new ArrayList<>(preferred);
    for (String common : COMMON_REQUEST_IDS) {
      if (ids.stream().noneMatch(common::equalsIgnoreCase)) {
        ids.add(common);
      }
    }
    return List.copyOf(ids);
  }

  /**
   * Whether the provider marked the answer as a replay of the key's stored result. Any value of the
   * marker header counts (sent twice, or folded with commas): a replay taken for a fresh answer
   * would spend retries on an answer that cannot change, and tell the caller to retry it.
   */
  boolean isReplay(RawResponse response) {
    if (replay == null) {
      return false;
    }
    List<String> values = response.headers().get(replay.header());
    if (values == null) {
      return false;
    }
    for (String value : values) {
      if (replay.isReplay(value)) {
        return true;
      }
      for (String token : value.split(",", -1)) {
        if (replay.isReplay(token)) {
          return true;
        }
      }
    }
    return false;
  }

  boolean isKeyReused(RawResponse response) {
    return matchesAny(keyReused, response);
  }

  boolean isInProgress(RawResponse response) {
    return matchesAny(inProgress, response);
  }

  boolean isRetryableError(RawResponse response) {
    return matchesAny(retryable, response);
  }

  /** The id of the resource an earlier request of the intent created, if this is that conflict. */
  Optional<String> existingResourceId(RawResponse response) {
    return existing == null
        ? Optional.empty()
        : existing.resourceId(response.status(), response.errorBody());
  }

  /** Whether this is the provider's "already created" conflict, whatever id it names. */
  boolean isExistingResourceConflict(RawResponse response) {
    return existing != null && existing.conflict().matches(response.status(), response.errorBody());
  }

  private static boolean matchesAny(List<ErrorMatch> matches, RawResponse response) {
    for (ErrorMatch m : matches) {
      if (m.matches(response.status(), response.errorBody())) {
        return true;
      }
    }
    return false;
  }
}
