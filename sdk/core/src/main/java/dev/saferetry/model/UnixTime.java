package dev.saferetry.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.time.Instant;
import java.util.Objects;

/**
 * A point in time written as whole seconds since the Unix epoch, as payment APIs write {@code
 * created} and {@code expires_at} (an OpenAPI {@code integer} of format {@code unix-time}). In JSON
 * and forms it is the number; in Java, {@link #instant()}.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class UnixTime implements Comparable<UnixTime> {
  private final long epochSecond;

  private UnixTime(long epochSecond) {
    this.epochSecond = epochSecond;
  }

  /**
   * {@return the time {@code epochSecond} seconds after 1970-01-01T00:00:00Z}
   *
   * @param epochSecond the seconds, negative before the epoch
   */
  @JsonCreator
  public static UnixTime ofEpochSecond(long epochSecond) {
    return new UnixTime(epochSecond);
  }

  /**
   * {@return the time of {@code instant}, its fraction of a second dropped (towards the past)}
   *
   * @param instant the instant
   */
  public static UnixTime of(Instant instant) {
    return new UnixTime(Objects.requireNonNull(instant, "instant").getEpochSecond());
  }

  /** {@return the seconds since the epoch: what is written} */
  @JsonValue
  public long epochSecond() {
    return epochSecond;
  }

  /** {@return the instant} */
  public Instant instant() {
    return Instant.ofEpochSecond(epochSecond);
  }

  @Override
  public int compareTo(UnixTime other) {
    return Long.compare(epochSecond, other.epochSecond);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof UnixTime t && t.epochSecond == epochSecond;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(epochSecond);
  }

  /** {@return the instant in ISO-8601, e.g. {@code 2026-12-01T10:00:00Z}} */
  @Override
  public String toString() {
    return instant().toString();
  }
}
