package dev.saferetry.internal;

import dev.saferetry.event.AttemptFinished;
import dev.saferetry.event.AttemptStarted;
import dev.saferetry.event.BreakerStateChanged;
import dev.saferetry.event.GaveUp;
import dev.saferetry.event.RetryScheduled;
import dev.saferetry.event.SafeRetryListener;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Delivers events to the caller's listener; a listener's exception never breaks a call. */
final class Events {
  private static final Logger LOG = LoggerFactory.getLogger("dev.saferetry");

  private final SafeRetryListener listener;

  Events(SafeRetryListener listener) {
    this.listener = listener;
  }

  void attemptStart(AttemptStarted e) {
    deliver(listener::onAttemptStart, e);
  }

  void attemptEnd(AttemptFinished e) {
    deliver(listener::onAttemptEnd, e);
  }

  void retryScheduled(RetryScheduled e) {
    deliver(listener::onRetryScheduled, e);
  }

  void gaveUp(GaveUp e) {
    deliver(listener::onGiveUp, e);
  }

  void breakerChanged(BreakerStateChanged e) {
    deliver(listener::onBreakerStateChange, e);
  }

  private static <E> void deliver(Consumer<E> target, E event) {
    try {
      target.accept(event);
    } catch (RuntimeException e) {
      LOG.warn(
          "listener threw {} on {}; ignored",
          e.getClass().getName(),
          event.getClass().getSimpleName());
    }
  }
}
