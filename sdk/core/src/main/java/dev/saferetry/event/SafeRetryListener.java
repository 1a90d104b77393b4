package dev.saferetry.event;

/**
 * Observes what a client does — calls, attempts, scheduled retries — to feed logs, metrics or
 * traces without wrapping the client. Every method defaults to doing nothing. The circuit breaker's
 * state changes come from its own event publisher: {@code
 * client.circuitBreaker().getEventPublisher().onStateTransition(..)}.
 *
 * <p>For each call: one {@link #onCallStart}, then per attempt an {@link #onAttemptStart} and an
 * {@link #onAttemptEnd} (with an {@link #onRetryScheduled} between attempts), then one {@link
 * #onCallEnd}, all with the same {@code callId}. Events of one call never overlap.
 *
 * <pre>{@code
 * SafeRetryListener metrics = new SafeRetryListener() {
 *   @Override public void onCallEnd(CallFinished e) {
 *     timer(e.operation(), e.outcome()).record(e.duration());
 *   }
 *   @Override public void onRetryScheduled(RetryScheduled e) {
 *     retries.increment(e.operation());
 *   }
 * };
 * }</pre>
 *
 * <p>Implementations must be thread-safe and fast: they run inside the call — on the calling thread
 * for {@code execute}, on the client's I/O threads for {@code executeAsync}. An exception thrown by
 * a listener is logged and ignored.
 */
public interface SafeRetryListener {
  /**
   * A call started, after its request was validated.
   *
   * @param event the call
   */
  default void onCallStart(CallStarted event) {}

  /**
   * An attempt is about to be sent. For an intent with a durable key store, the intent's key is
   * already on stable storage when this is called. The event is also the attempt's OkHttp request
   * tag.
   *
   * @param event the attempt
   */
  default void onAttemptStart(AttemptStarted event) {}

  /**
   * An attempt ended with an answer or a transport failure. Called before the key store records a
   * definitive outcome.
   *
   * @param event the attempt and what happened on the wire
   */
  default void onAttemptEnd(AttemptFinished event) {}

  /**
   * A retry was scheduled and the client is about to wait {@link RetryScheduled#delay()}.
   *
   * @param event the retry
   */
  default void onRetryScheduled(RetryScheduled event) {}

  /**
   * A call ended, with a result or an exception; called before the result is returned or the
   * exception thrown.
   *
   * @param event the outcome, reason and total duration
   */
  default void onCallEnd(CallFinished event) {}

  /**
   * {@return a listener that forwards every event to each of {@code listeners}, in order} An
   * exception thrown by one is logged and does not keep the event from the others.
   *
   * @param listeners the listeners
   */
  static SafeRetryListener composite(SafeRetryListener... listeners) {
    return new CompositeListener(java.util.Arrays.asList(listeners));
  }
}
