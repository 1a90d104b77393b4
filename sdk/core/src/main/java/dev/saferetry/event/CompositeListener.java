package dev.saferetry.event;

import java.util.List;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Forwards every event to several listeners; one listener's exception does not starve the rest. */
final class CompositeListener implements SafeRetryListener {
  private static final Logger LOG = LoggerFactory.getLogger("dev.saferetry");

  private final List<SafeRetryListener> listeners;

  CompositeListener(List<SafeRetryListener> listeners) {
    this.listeners = List.copyOf(listeners);
  }

  private <E> void each(BiConsumer<SafeRetryListener, E> call, E event) {
    for (SafeRetryListener l : listeners) {
      try {
        call.accept(l, event);
      } catch (RuntimeException e) {
        LOG.warn(
            "listener threw {} on {}; ignored",
            e.getClass().getName(),
            event.getClass().getSimpleName());
      }
    }
  }

  @Override
  public void onCallStart(CallStarted event) {
    each(SafeRetryListener::onCallStart, event);
  }

  @Override
  public void onAttemptStart(AttemptStarted event) {
    each(SafeRetryListener::onAttemptStart, event);
  }

  @Override
  public void onAttemptEnd(AttemptFinished event) {
    each(SafeRetryListener::onAttemptEnd, event);
  }

  @Override
  public void onRetryScheduled(RetryScheduled event) {
    each(SafeRetryListener::onRetryScheduled, event);
  }

  @Override
  public void onCallEnd(CallFinished event) {
    each(SafeRetryListener::onCallEnd, event);
  }
}
