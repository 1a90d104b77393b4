package dev.saferetry.testing;

import dev.saferetry.resilience.Sleeper;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

/** A clock that only moves when told to, and a sleeper that advances it instead of waiting. */
public final class FakeTime extends Clock implements Sleeper {
  private final AtomicReference<Instant> now =
      new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
  private final List<Duration> sleeps = new CopyOnWriteArrayList<>();

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  @Override
  public Instant instant() {
    return now.get();
  }

  @Override
  public void sleep(Duration delay) {
    sleeps.add(delay);
    advance(delay);
  }

  /** Records the delay, moves the clock and completes at once: asynchronous calls never wait. */
  @Override
  public CompletableFuture<Void> after(Duration delay) {
    sleep(delay);
    return CompletableFuture.completedFuture(null);
  }

  /** Moves the clock forward. */
  public void advance(Duration d) {
    now.updateAndGet(t -> t.plus(d));
  }

  /** Returns every delay the client asked to sleep, in order. */
  public List<Duration> sleeps() {
    return List.copyOf(sleeps);
  }
}
