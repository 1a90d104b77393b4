package dev.saferetry.event;

/**
 * Observes what a client does — attempts, scheduled retries, giving up, breaker changes — to feed
 * logs or metrics without wrapping the client. Every method defaults to doing nothing.
 *
 * <pre>{@code
 * SafeRetryListener metrics = new SafeRetryListener() {
 *   @Override public void onRetryScheduled(RetryScheduled e) {
 *     retries.increment(e.operation());
 *   }
 * };
 * }</pre>
 *
 * <p>Implementations must be thread-safe and fast: they run on the calling thread, inside the call.
 * An exception thrown by a listener is logged and ignored.
 */
public interface SafeRetryListener {
  /**
   * An attempt is about to be sent. For an intent with a durable key store, the intent's key is
   * already on stable storage when this is called.
   */
  default void onAttemptStart(AttemptStarted event) {}

  /**
   * An attempt ended with an answer or a transport failure. Called before the key store records a
   * definitive outcome.
   */
  default void onAttemptEnd(AttemptFinished event) {}

  /** A retry was scheduled and the client is about to wait {@link RetryScheduled#delay()}. */
  default void onRetryScheduled(RetryScheduled event) {}

  /** The call ended without success. */
  default void onGiveUp(GaveUp event) {}

  /** The client's circuit breaker changed state. */
  default void onBreakerStateChange(BreakerStateChanged event) {}

  /**
   * Returns a listener that forwards every event to each of {@code listeners}, in order. An
   * exception thrown by one is logged and does not keep the event from the others.
   */
  static SafeRetryListener composite(SafeRetryListener... listeners) {
    return new CompositeListener(java.util.Arrays.asList(listeners));
  }
}
