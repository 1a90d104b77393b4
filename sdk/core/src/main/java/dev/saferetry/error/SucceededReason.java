package dev.saferetry.error;

import dev.saferetry.Outcome;

/**
 * Why a call that {@link Outcome#SUCCEEDED} still threw: the server answered 2xx, so the effect
 * exists, but the answer could not be turned into the response type. Do not retry it as a failure:
 * calling the same intent again makes the server replay the stored response.
 *
 * <p>Immutable and thread-safe.
 */
public enum SucceededReason implements Reason {
  /** The body is not JSON, is truncated, or does not fit the response type. */
  BODY_UNREADABLE,
  /** The body is larger than the client's {@code maxResponseBytes}; it was not read. */
  BODY_TOO_LARGE;

  @Override
  public Outcome outcome() {
    return Outcome.SUCCEEDED;
  }
}
