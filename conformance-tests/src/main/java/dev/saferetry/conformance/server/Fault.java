package dev.saferetry.conformance.server;

import java.time.Duration;
import java.util.Objects;

/**
 * A one-shot misbehaviour the {@link ReferenceServer} applies to the next mutation it executes
 * (replays and rejected requests never consume a fault). Arm it through {@link Faults#next(Fault)}
 * or the {@code POST /_test/faults} hook.
 *
 * <pre>{@code
 * server.faults().next(Fault.failAfterCommit(503)); // commit, then answer 503
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param kind what goes wrong
 * @param delay how long {@link Kind#DELAY} sleeps inside the transaction; zero otherwise
 * @param status the status answered by the two {@code fail} kinds; zero otherwise
 */
public record Fault(Kind kind, Duration delay, int status) {

  /** The kinds of fault the reference server can inject. Thread-safe (an enum). */
  public enum Kind {
    /** Sleep inside the mutation's transaction, before commit; the key stays pending meanwhile. */
    DELAY,
    /** Roll the mutation back and answer {@code status}; nothing is stored, the key is released. */
    FAIL_BEFORE_COMMIT,
    /** Commit the mutation and its stored 2xx result, then answer {@code status} instead. */
    FAIL_AFTER_COMMIT,
    /** Commit everything, then close the connection without sending any response. */
    DROP_AFTER_COMMIT,
    /** Hold the pending key and never commit, until the server is closed. */
    HANG,
    /**
     * Throw an exception the handler does not handle, inside the mutation's transaction before
     * commit: the server's catch-all answers 500 and nothing is committed.
     */
    UNHANDLED_EXCEPTION
  }

  /**
   * Validates the combination of kind, delay and status; the factory methods build valid ones.
   *
   * @param kind what goes wrong
   * @param delay how long {@link Kind#DELAY} sleeps inside the transaction; zero otherwise
   * @param status the status answered by the two {@code fail} kinds (4xx or 5xx); zero otherwise
   * @throws IllegalArgumentException if {@code delay} is negative, or a {@code fail} kind has no
   *     4xx or 5xx status
   * @throws NullPointerException if {@code kind} or {@code delay} is null
   */
  public Fault {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(delay, "delay");
    if (delay.isNegative()) {
      throw new IllegalArgumentException("delay must not be negative: " + delay);
    }
    boolean fails = kind == Kind.FAIL_BEFORE_COMMIT || kind == Kind.FAIL_AFTER_COMMIT;
    if (fails && (status < 400 || status > 599)) {
      throw new IllegalArgumentException("status must be 4xx or 5xx: " + status);
    }
  }

  /**
   * {@return a fault that sleeps inside the mutation's transaction before commit, the key pending}
   *
   * @param delay how long; not negative
   * @throws IllegalArgumentException if {@code delay} is negative
   */
  public static Fault delay(Duration delay) {
    return new Fault(Kind.DELAY, delay, 0);
  }

  /**
   * {@return a fault that rolls the mutation back and answers an error; nothing is committed and
   * the key is released}
   *
   * @param status the status answered, 4xx or 5xx (e.g. 503)
   * @throws IllegalArgumentException if {@code status} is not 4xx or 5xx
   */
  public static Fault failBeforeCommit(int status) {
    return new Fault(Kind.FAIL_BEFORE_COMMIT, Duration.ZERO, status);
  }

  /**
   * {@return a fault that commits the mutation and its stored result, then answers an error
   * instead}
   *
   * @param status the status answered, 4xx or 5xx (e.g. 500)
   * @throws IllegalArgumentException if {@code status} is not 4xx or 5xx
   */
  public static Fault failAfterCommit(int status) {
    return new Fault(Kind.FAIL_AFTER_COMMIT, Duration.ZERO, status);
  }

  /**
   * {@return a fault that commits, then drops the connection without a response: a lost response}
   */
  public static Fault dropAfterCommit() {
    return new Fault(Kind.DROP_AFTER_COMMIT, Duration.ZERO, 0);
  }

  /**
   * {@return a fault that throws an unhandled exception before commit: the catch-all answers 500
   * and nothing commits}
   */
  public static Fault unhandledException() {
    return new Fault(Kind.UNHANDLED_EXCEPTION, Duration.ZERO, 0);
  }

  /**
   * {@return a fault that never finishes: it holds the pending key until the server closes, and
   * never commits}
   */
  public static Fault hang() {
    return new Fault(Kind.HANG, Duration.ZERO, 0);
  }
}
