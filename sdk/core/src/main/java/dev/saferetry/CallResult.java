package dev.saferetry;

import dev.saferetry.call.Attempt;
import dev.saferetry.call.ResponseView;
import dev.saferetry.idempotency.IdempotencyKey;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A successful call: the typed body together with what it took to get it and the answer itself.
 *
 * <p>Instances are immutable and thread-safe if {@code value} is.
 *
 * @param <T> the response type
 * @param value the parsed response body; {@code null} when the server sent an empty body, for
 *     {@code Void}, or when the provider answered with the id of an existing resource
 * @param status the final HTTP status (2xx, or the provider's "already created" conflict)
 * @param key the idempotency key every attempt carried, or {@code null} for an operation without
 *     one
 * @param intentId the intent the call belonged to, or {@code null} when none was named
 * @param replayed whether the server said (by the provider's replay marker, e.g. {@code
 *     Idempotent-Replayed: true}) that it replayed a stored outcome instead of executing again
 * @param attempts every attempt, in order; the last one succeeded
 * @param response the answer: status, headers, request id, replay flag, body bytes if kept
 * @param existingResourceId the id of the resource an earlier request of the intent created, when
 *     the provider answered a repeated creation with a conflict naming it (GoCardless); else null
 */
public record CallResult<T>(
    T value,
    int status,
    IdempotencyKey key,
    String intentId,
    boolean replayed,
    List<Attempt> attempts,
    ResponseView response,
    String existingResourceId) {

  /**
   * Validates and copies.
   *
   * @param value the parsed response body
   * @param status the final HTTP status
   * @param key the idempotency key every attempt carried, or {@code null}
   * @param intentId the intent the call belonged to, or {@code null}
   * @param replayed whether the server replayed a stored outcome
   * @param attempts every attempt, in order; the last one succeeded
   * @param response the answer
   * @param existingResourceId the id of an existing resource the provider named, or null
   */
  public CallResult {
    attempts = List.copyOf(Objects.requireNonNull(attempts, "attempts"));
    if (attempts.isEmpty()) {
      throw new IllegalArgumentException("a result has at least one attempt");
    }
    if (response == null) {
      response =
          new ResponseView(
              status,
              Map.of(),
              attempts.get(attempts.size() - 1).serverRequestId(),
              replayed,
              null);
    }
  }

  /**
   * A result without response headers or body.
   *
   * @param value the parsed response body
   * @param status the final HTTP status
   * @param key the idempotency key every attempt carried, or {@code null}
   * @param intentId the intent the call belonged to, or {@code null}
   * @param replayed whether the server replayed a stored outcome
   * @param attempts every attempt, in order; the last one succeeded
   */
  public CallResult(
      T value,
      int status,
      IdempotencyKey key,
      String intentId,
      boolean replayed,
      List<Attempt> attempts) {
    this(value, status, key, intentId, replayed, attempts, null, null);
  }

  /** {@return the last attempt: the one that succeeded} */
  public Attempt lastAttempt() {
    return attempts.get(attempts.size() - 1);
  }

  /** {@return the server's request id of the successful attempt, or {@code null}} */
  public String serverRequestId() {
    return lastAttempt().serverRequestId();
  }

  /**
   * {@return the id of the resource an earlier request of this intent created, when the provider
   * answered with a conflict naming it instead of a replay}
   */
  public Optional<String> existingResource() {
    return Optional.ofNullable(existingResourceId);
  }
}
