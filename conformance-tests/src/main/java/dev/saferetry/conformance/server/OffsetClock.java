package dev.saferetry.conformance.server;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that can be moved forward by the {@code /_test/clock} hook. Thread-safe. */
final class OffsetClock extends Clock {
  private final Clock base;
  private final AtomicLong offsetMillis;

  OffsetClock(Clock base) {
    this(base, new AtomicLong());
  }

  private OffsetClock(Clock base, AtomicLong offsetMillis) {
    this.base = base;
    this.offsetMillis = offsetMillis;
  }

  void advance(Duration by) {
    offsetMillis.addAndGet(by.toMillis());
  }

  @Override
  public ZoneId getZone() {
    return base.getZone();
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return new OffsetClock(base.withZone(zone), offsetMillis);
  }

  @Override
  public Instant instant() {
    return base.instant().plusMillis(offsetMillis.get());
  }
}
