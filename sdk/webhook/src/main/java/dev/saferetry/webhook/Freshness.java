package dev.saferetry.webhook;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The timestamp rule shared by the schemes that sign one: a Unix time in seconds, within a
 * tolerance of the clock in both directions. Immutable; thread-safe.
 */
final class Freshness {
  /** Stripe's libraries and the Standard Webhooks specification both use five minutes. */
  static final Duration DEFAULT_TOLERANCE = Duration.ofMinutes(5);

  /**
   * The largest tolerance accepted. A wider window only lengthens the time a captured delivery can
   * be replayed; no provider asks for more than minutes.
   */
  static final Duration MAX_TOLERANCE = Duration.ofDays(1);

  /** The default tolerance, judged by {@link Clock#systemUTC()}. */
  static final Freshness DEFAULT = new Freshness(DEFAULT_TOLERANCE, Clock.systemUTC());

  private final Duration tolerance;
  private final Clock clock;

  Freshness(Duration tolerance, Clock clock) {
    this.tolerance = Objects.requireNonNull(tolerance, "tolerance");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** This rule with another tolerance; refuses one that is not positive or longer than 1 day. */
  Freshness withTolerance(Duration tolerance) {
    return new Freshness(checkTolerance(tolerance), clock);
  }

  /** This rule judged by another clock. */
  Freshness withClock(Clock clock) {
    return new Freshness(tolerance, Objects.requireNonNull(clock, "clock"));
  }

  static Duration checkTolerance(Duration tolerance) {
    Objects.requireNonNull(tolerance, "tolerance");
    if (tolerance.isNegative() || tolerance.isZero() || tolerance.compareTo(MAX_TOLERANCE) > 0) {
      throw new IllegalArgumentException("tolerance must be positive and at most 1 day");
    }
    return tolerance;
  }

  /** Parses 1 to 12 decimal digits as Unix seconds; anything else is a malformed header. */
  static Instant parseSeconds(String digits, String header) {
    if (digits.isEmpty() || digits.length() > 12) {
      throw HeaderLookup.fail(WebhookFailure.MALFORMED_HEADER, header, "bad timestamp");
    }
    long seconds = 0;
    for (int i = 0; i < digits.length(); i++) {
      char c = digits.charAt(i);
      if (c < '0' || c > '9') {
        throw HeaderLookup.fail(WebhookFailure.MALFORMED_HEADER, header, "bad timestamp");
      }
      seconds = seconds * 10 + (c - '0');
    }
    return Instant.ofEpochSecond(seconds);
  }

  /**
   * Rejects a signed time outside the tolerance around now. Judged by the distance between the two
   * instants, which never overflows (any two instants are less than 2^63 seconds apart), where
   * {@code now ± tolerance} would throw for a clock near either end of time.
   */
  void check(Instant signedAt, String header) {
    Instant now = Objects.requireNonNull(clock.instant(), "clock.instant()");
    Duration ahead = Duration.between(now, signedAt);
    if (ahead.compareTo(tolerance.negated()) < 0) {
      throw HeaderLookup.fail(WebhookFailure.TIMESTAMP_TOO_OLD, header, "outside " + tolerance);
    }
    if (ahead.compareTo(tolerance) > 0) {
      throw HeaderLookup.fail(WebhookFailure.TIMESTAMP_IN_FUTURE, header, "outside " + tolerance);
    }
  }

  @Override
  public String toString() {
    return "tolerance=" + tolerance;
  }
}
