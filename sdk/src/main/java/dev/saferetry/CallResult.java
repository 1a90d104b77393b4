package dev.saferetry;

import dev.saferetry.idempotency.IdempotencyKey;
import java.util.List;
import java.util.Objects;

/**
 * A successful call: the typed body together with what it took to get it.
 *
 * <p>Instances are immutable and thread-safe if {@code value} is.
 *
 * @param <T> the response type
 * @param value the parsed response body; {@code null} only when the server sent an empty body
 * @param status the final HTTP status (2xx)
 * @param key the idempotency key every attempt carried, or {@code null} for a GET
 * @param intentId the intent the call belonged to, or {@code null} when none was named
 * @param replayed whether the server said ({@code Idempotent-Replayed: true}) that it replayed a
 *     stored outcome instead of executing again
 * @param attempts every attempt, in order; the last one succeeded
 */
public record CallResult<T>(
    T value,
    int status,
    IdempotencyKey key,
    String intentId,
    boolean replayed,
    List<Attempt> attempts) {

  /**
   * Validates and copies.
   *
   * @param value the parsed response body; {@code null} only when the server sent an empty body
   * @param status the final HTTP status (2xx)
   * @param key the idempotency key every attempt carried, or {@code null} for a GET
   * @param intentId the intent the call belonged to, or {@code null} when none was named
   * @param replayed whether the server said ({@code Idempotent-Replayed: true}) that it replayed a
   *     stored outcome instead of executing again
   * @param attempts every attempt, in order; the last one succeeded
   */
  public CallResult {
    attempts = List.copyOf(Objects.requireNonNull(attempts, "attempts"));
    if (attempts.isEmpty()) {
      throw new IllegalArgumentException("a result has at least one attempt");
    }
  }

  /**
   * Returns the last attempt: the one that succeeded.
   *
   * @return the last attempt: the one that succeeded
   */
  public Attempt lastAttempt() {
    return attempts.get(attempts.size() - 1);
  }

  /**
   * Returns the server's request id of the successful attempt, or {@code null}.
   *
   * @return the server's request id of the successful attempt, or {@code null}
   */
  public String serverRequestId() {
    return lastAttempt().serverRequestId();
  }
}
