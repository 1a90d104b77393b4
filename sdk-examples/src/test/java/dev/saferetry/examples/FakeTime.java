package dev.saferetry.examples;

import dev.saferetry.resilience.Sleeper;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

/** A clock that only moves when the sleeper is asked to wait: tests never really wait. */
final class FakeTime implements Sleeper {
  private final AtomicReference<Instant> now =
      new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
  private final List<Duration> sleeps = new CopyOnWriteArrayList<>();

  @Override
  public void sleep(Duration delay) {
    sleeps.add(delay);
    now.accumulateAndGet(null, (t, ignored) -> t.plus(delay));
  }

  List<Duration> sleeps() {
    return List.copyOf(sleeps);
  }

  Clock clock() {
    return new Clock() {
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
    };
  }
}
