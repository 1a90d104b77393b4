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

  private final Duration tolerance;
  private final Clock clock;

  Freshness(Duration tolerance, Clock clock) {
    this.tolerance = Objects.requireNonNull(tolerance, "tolerance");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  static Duration checkTolerance(Duration tolerance) {
    Objects.requireNonNull(tolerance, "tolerance");
    if (tolerance.isNegative() || tolerance.isZero()) {
      throw new IllegalArgumentException("tolerance must be positive");
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

  /** Rejects a signed time outside the tolerance around now. */
  void check(Instant signedAt, String header) {
    Instant now = clock.instant();
    if (signedAt.isBefore(now.minus(tolerance))) {
      throw HeaderLookup.fail(WebhookFailure.TIMESTAMP_TOO_OLD, header, "outside " + tolerance);
    }
    if (signedAt.isAfter(now.plus(tolerance))) {
      throw HeaderLookup.fail(WebhookFailure.TIMESTAMP_IN_FUTURE, header, "outside " + tolerance);
    }
  }

  @Override
  public String toString() {
    return "tolerance=" + tolerance;
  }
}
