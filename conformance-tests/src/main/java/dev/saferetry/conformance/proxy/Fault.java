package dev.saferetry.conformance.proxy;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * What a {@link FaultProxy} does to one request. Build one with the factory methods.
 *
 * <p>Immutable and thread-safe.
 *
 * @param kind what happens
 * @param hold how long a {@link Kind#DELAY delayed} answer is held back, else zero
 * @param status the status of a {@link Kind#ANSWER synthetic answer}, else 0
 * @param headers the headers of a synthetic answer, else empty
 * @param body the JSON body of a synthetic answer, else empty
 */
public record Fault(
    Kind kind, Duration hold, int status, Map<String, String> headers, String body) {
  private static final Fault PASS = new Fault(Kind.PASS, Duration.ZERO, 0, Map.of(), "");

  /** The kinds of fault. Thread-safe (an enum). */
  public enum Kind {
    /** Forward the request and relay the answer. */
    PASS,
    /** Forward the request, read the whole answer (the server committed), close without a byte. */
    DROP_RESPONSE,
    /** Reset the client's connection (RST) without forwarding anything. */
    RESET_BEFORE_SEND,
    /** Forward the request, read the whole answer, then reset the client's connection (RST). */
    RESET_AFTER_SEND,
    /** Forward the request, then hold the answer back before relaying it. */
    DELAY,
    /** Answer without forwarding anything. */
    ANSWER
  }

  /**
   * Validates the fault; the factory methods build valid ones.
   *
   * @param kind what happens
   * @param hold how long a {@link Kind#DELAY delayed} answer is held back, else zero
   * @param status the status of a {@link Kind#ANSWER synthetic answer} (100-599), else 0
   * @param headers the headers of a synthetic answer, else empty
   * @param body the JSON body of a synthetic answer, else empty
   * @throws IllegalArgumentException if {@code hold} is negative, or a status is given to anything
   *     but a synthetic answer or missing from one
   * @throws NullPointerException if an argument is null
   */
  public Fault {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(hold, "hold");
    headers = Map.copyOf(headers);
    Objects.requireNonNull(body, "body");
    if (hold.isNegative()) {
      throw new IllegalArgumentException("hold must not be negative");
    }
    if ((kind == Kind.ANSWER) != (status >= 100 && status <= 599)) {
      throw new IllegalArgumentException("a synthetic answer, and only one, has a status 100-599");
    }
  }

  /** {@return a fault that forwards the request and relays the answer unchanged} */
  public static Fault pass() {
    return PASS;
  }

  /**
   * {@return a fault where the server answers and the client never hears it: a response lost after
   * commit, recorded in {@link FaultProxy#lostAnswers()}}
   */
  public static Fault dropResponse() {
    return new Fault(Kind.DROP_RESPONSE, Duration.ZERO, 0, Map.of(), "");
  }

  /** {@return a fault that resets the connection before the request reaches the server} */
  public static Fault resetBeforeSend() {
    return new Fault(Kind.RESET_BEFORE_SEND, Duration.ZERO, 0, Map.of(), "");
  }

  /** {@return a fault where the server answers and the client's connection is reset instead} */
  public static Fault resetAfterSend() {
    return new Fault(Kind.RESET_AFTER_SEND, Duration.ZERO, 0, Map.of(), "");
  }

  /**
   * {@return a fault that holds the server's answer back before relaying it} The answer is released
   * early when the proxy closes.
   *
   * @param hold how long, e.g. longer than the client's timeout; not negative
   * @throws IllegalArgumentException if {@code hold} is negative
   */
  public static Fault delay(Duration hold) {
    return new Fault(Kind.DELAY, hold, 0, Map.of(), "");
  }

  /**
   * {@return a fault where the proxy answers itself and the server never sees the request}
   *
   * @param status the status, 100-599 (e.g. 409, 429 or 503)
   * @param headers extra headers (e.g. {@code Retry-After}); {@code Content-Type} is JSON
   * @param body the JSON body
   * @throws IllegalArgumentException if {@code status} is outside 100-599
   */
  public static Fault answer(int status, Map<String, String> headers, String body) {
    return new Fault(Kind.ANSWER, Duration.ZERO, status, headers, body);
  }
}
