package dev.saferetry.testing.provider;

import java.time.Duration;
import java.util.Objects;

/**
 * One misbehaviour of a {@link FakeProvider}, armed with {@link FakeProvider#arm(Fault)} for the
 * next request that matches it. Faults are deterministic: a fault applies to exactly the requests
 * it is armed for, in the order they arrive, and nothing in it depends on timing.
 *
 * <pre>{@code
 * provider.arm(Fault.loseAnswer());                                   // the next request
 * provider.arm(Fault.failAfterCommit(503).on("POST /v1/refunds"));    // the next refund
 * provider.arm(Fault.rateLimit(Duration.ofSeconds(2)).times(3));      // the next three requests
 * }</pre>
 *
 * <p>The kinds that act "after commit" let the request do everything it would do (an effect, the
 * answer stored for its key, or a replay) and then spoil only the answer: the client cannot tell
 * whether anything happened, which is the case a retry with the same key must survive. The kinds
 * that act "before commit" answer without doing anything.
 *
 * <p>Immutable and thread-safe.
 *
 * @param kind what goes wrong
 * @param status the status answered by {@link Kind#FAIL_BEFORE_COMMIT} and {@link
 *     Kind#FAIL_AFTER_COMMIT} (4xx or 5xx), 429 for {@link Kind#RATE_LIMIT}, 0 for the others
 * @param retryAfter the {@code Retry-After} sent with the answer (whole seconds, rounded up), or
 *     null for none; only for the kinds that answer with a status
 * @param operation which requests it applies to: {@code "POST /v1/charges"}, a path alone ({@code
 *     "/v1/charges"}, any method), with {@code *} or {@code {name}} for one path segment ({@code
 *     "POST /v1/payment_intents/{id}/confirm"}); null for any request
 * @param times how many matching requests it applies to, at least 1
 */
public record Fault(Kind kind, int status, Duration retryAfter, String operation, int times) {

  /** What goes wrong. Thread-safe (an enum). */
  public enum Kind {
    /**
     * The request is carried out (or replayed), then the connection is closed without an answer: an
     * answer lost on its way back.
     */
    LOSE_ANSWER,
    /**
     * The request is carried out (or replayed) and its real answer stored for its key, then an
     * error status is answered instead: a proxy or the provider failing after commit.
     */
    FAIL_AFTER_COMMIT,
    /** An error status is answered and nothing is done: no effect, the key stays unused. */
    FAIL_BEFORE_COMMIT,
    /**
     * The request is carried out (or replayed) and its answer stored, then the answer is held back
     * until {@link FakeProvider#releaseHeld()} (or the provider is reset or closed, or 10 minutes
     * pass): the client's own timeout ends its wait. A retry meanwhile gets the stored answer.
     */
    HANG,
    /**
     * The request claims its key and is then held before doing anything, until {@link
     * FakeProvider#releaseHeld()} (or reset, close, 10 minutes); then it is carried out. A request
     * with the same key meanwhile gets 409, "in progress".
     */
    HANG_BEFORE_COMMIT,
    /** 429 Too Many Requests, with {@code Retry-After}; nothing is done. */
    RATE_LIMIT
  }

  /**
   * Checks the combination; the factory methods build valid faults.
   *
   * @param kind what goes wrong
   * @param status 4xx or 5xx for the two {@code FAIL} kinds, 429 for {@code RATE_LIMIT}, 0
   *     otherwise
   * @param retryAfter not negative, or null; only for the kinds that answer with a status
   * @param operation a request pattern, or null for any request
   * @param times at least 1
   * @throws IllegalArgumentException naming the bad component
   * @throws NullPointerException if {@code kind} is null
   */
  public Fault {
    Objects.requireNonNull(kind, "kind");
    boolean fails = kind == Kind.FAIL_AFTER_COMMIT || kind == Kind.FAIL_BEFORE_COMMIT;
    if (fails && (status < 400 || status > 599)) {
      throw new IllegalArgumentException("status must be 4xx or 5xx: " + status);
    }
    if (kind == Kind.RATE_LIMIT && status != 429) {
      throw new IllegalArgumentException("a rate limit answers 429, not " + status);
    }
    if (!fails && kind != Kind.RATE_LIMIT && status != 0) {
      throw new IllegalArgumentException(kind + " answers no status of its own: " + status);
    }
    if (retryAfter != null && (retryAfter.isNegative() || !(fails || kind == Kind.RATE_LIMIT))) {
      throw new IllegalArgumentException(
          "retryAfter must be positive or zero, and only for a fault that answers a status");
    }
    if (operation != null) {
      OperationPattern.parse(operation);
    }
    if (times < 1) {
      throw new IllegalArgumentException("times must be at least 1: " + times);
    }
  }

  /** {@return the next request is carried out, then its answer is lost (no response at all)} */
  public static Fault loseAnswer() {
    return new Fault(Kind.LOSE_ANSWER, 0, null, null, 1);
  }

  /**
   * {@return the next request is carried out and its answer stored, then {@code status} is answered
   * instead}
   *
   * @param status 4xx or 5xx, e.g. 500 or 503
   * @throws IllegalArgumentException if {@code status} is not 4xx or 5xx
   */
  public static Fault failAfterCommit(int status) {
    return new Fault(Kind.FAIL_AFTER_COMMIT, status, null, null, 1);
  }

  /**
   * {@return the next request is answered {@code status} and not carried out}
   *
   * @param status 4xx or 5xx, e.g. 503
   * @throws IllegalArgumentException if {@code status} is not 4xx or 5xx
   */
  public static Fault failBeforeCommit(int status) {
    return new Fault(Kind.FAIL_BEFORE_COMMIT, status, null, null, 1);
  }

  /** {@return the next request is carried out, then its answer is held back until released} */
  public static Fault hang() {
    return new Fault(Kind.HANG, 0, null, null, 1);
  }

  /** {@return the next request claims its key and is held before doing anything, until released} */
  public static Fault hangBeforeCommit() {
    return new Fault(Kind.HANG_BEFORE_COMMIT, 0, null, null, 1);
  }

  /**
   * {@return the next request is answered 429 with {@code Retry-After}, and not carried out}
   *
   * @param retryAfter the wait asked for; sent in whole seconds, rounded up
   * @throws IllegalArgumentException if {@code retryAfter} is negative
   */
  public static Fault rateLimit(Duration retryAfter) {
    return new Fault(
        Kind.RATE_LIMIT, 429, Objects.requireNonNull(retryAfter, "retryAfter"), null, 1);
  }

  /**
   * {@return this fault for the requests matching {@code operation} only}
   *
   * @param operation {@code "METHOD /path"} or {@code "/path"}; a segment {@code *} or {@code
   *     {name}} matches any one segment
   * @throws IllegalArgumentException if {@code operation} is not such a pattern
   */
  public Fault on(String operation) {
    return new Fault(
        kind, status, retryAfter, Objects.requireNonNull(operation, "operation"), times);
  }

  /**
   * {@return this fault for the next {@code n} matching requests instead of one}
   *
   * @param n at least 1
   * @throws IllegalArgumentException if {@code n} is less than 1
   */
  public Fault times(int n) {
    return new Fault(kind, status, retryAfter, operation, n);
  }

  /**
   * {@return this fault answering with {@code Retry-After}}
   *
   * @param delay the wait asked for; sent in whole seconds, rounded up
   * @throws IllegalArgumentException if the kind answers no status, or {@code delay} is negative
   */
  public Fault withRetryAfter(Duration delay) {
    return new Fault(kind, status, Objects.requireNonNull(delay, "delay"), operation, times);
  }
}
