package dev.saferetry.soak;

import dev.saferetry.conformance.proxy.Fault;
import java.time.Duration;
import java.util.Map;

/** What the soak's fault proxy does to one request ({@link ChaosPlan}). Thread-safe (an enum). */
public enum FaultKind {
  /** Forwards the request and the answer unchanged. */
  PASS,
  /** Forwards the request, reads the whole answer (the server committed), then closes. */
  DROP_RESPONSE,
  /** Resets the client's connection without forwarding the request. */
  RESET_BEFORE_SEND,
  /** Forwards the request, then resets the client's connection instead of answering. */
  RESET_AFTER_SEND,
  /** Forwards the request and holds the answer back past the client's read timeout. */
  DELAY_PAST_TIMEOUT,
  /** Answers 409 (request in progress) itself, without forwarding. */
  SYNTHETIC_409,
  /** Answers 429 with a short {@code Retry-After-Ms} itself, without forwarding. */
  SYNTHETIC_429,
  /** Answers 503 itself, without forwarding. */
  SYNTHETIC_503;

  /** Returns the proxy's fault for this kind; a delayed answer is held for {@code holdBack}. */
  Fault fault(Duration holdBack) {
    return switch (this) {
      case PASS -> Fault.pass();
      case DROP_RESPONSE -> Fault.dropResponse();
      case RESET_BEFORE_SEND -> Fault.resetBeforeSend();
      case RESET_AFTER_SEND -> Fault.resetAfterSend();
      case DELAY_PAST_TIMEOUT -> Fault.delay(holdBack);
      case SYNTHETIC_409 -> synthetic(409, Map.of());
      case SYNTHETIC_429 -> synthetic(429, Map.of("Retry-After-Ms", "20"));
      case SYNTHETIC_503 -> synthetic(503, Map.of());
    };
  }

  private static Fault synthetic(int status, Map<String, String> headers) {
    return Fault.answer(
        status,
        headers,
        "{\"error\":{\"type\":\"api_error\",\"code\":\"chaos_"
            + status
            + "\",\"message\":\"injected by the chaos proxy\"}}");
  }

  /** Returns whether the kind is a fault (anything but {@link #PASS}). */
  public boolean isFault() {
    return this != PASS;
  }
}
