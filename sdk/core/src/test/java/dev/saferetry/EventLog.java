package dev.saferetry;

import dev.saferetry.event.AttemptFinished;
import dev.saferetry.event.AttemptStarted;
import dev.saferetry.event.CallFinished;
import dev.saferetry.event.CallStarted;
import dev.saferetry.event.RetryScheduled;
import dev.saferetry.event.SafeRetryListener;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A listener that keeps every event it gets, in order. Thread-safe. */
final class EventLog implements SafeRetryListener {
  private final List<Object> events = new CopyOnWriteArrayList<>();

  /** Returns the events so far. */
  List<Object> events() {
    return events;
  }

  /** Returns the events' class names, in order. */
  List<String> names() {
    return events.stream().map(e -> e.getClass().getSimpleName()).toList();
  }

  @Override
  public void onCallStart(CallStarted e) {
    events.add(e);
  }

  @Override
  public void onAttemptStart(AttemptStarted e) {
    events.add(e);
  }

  @Override
  public void onAttemptEnd(AttemptFinished e) {
    events.add(e);
  }

  @Override
  public void onRetryScheduled(RetryScheduled e) {
    events.add(e);
  }

  @Override
  public void onCallEnd(CallFinished e) {
    events.add(e);
  }
}
