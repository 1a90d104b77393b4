package dev.saferetry.examples.chaos;

/** What the {@link FaultProxy} does to one request. Thread-safe (an enum). */
public enum FaultKind {
  /** Forwards the request and the answer unchanged. */
  PASS,
  /** Forwards the request, reads the whole answer (the server committed), then closes. */
  DROP_RESPONSE,
  /** Resets the client's connection without forwarding the request. */
  RESET_BEFORE_SEND,
  /** Forwards the request, then resets the client's connection before any answer. */
  RESET_AFTER_SEND,
  /** Forwards the request and holds the answer back past the client's read timeout. */
  DELAY_PAST_TIMEOUT,
  /** Answers 409 (request in progress) itself, without forwarding. */
  SYNTHETIC_409,
  /** Answers 429 with a short {@code Retry-After-Ms} itself, without forwarding. */
  SYNTHETIC_429,
  /** Answers 503 itself, without forwarding. */
  SYNTHETIC_503;

  /** Returns whether the kind is a fault (anything but {@link #PASS}). */
  public boolean isFault() {
    return this != PASS;
  }
}
