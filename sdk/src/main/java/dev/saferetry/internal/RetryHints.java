package dev.saferetry.internal;

import dev.saferetry.resilience.AttemptResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * Reads the server's retry hints. A hint that cannot be parsed is ignored (the computed backoff
 * applies); a date in the past means "now".
 */
final class RetryHints {
  private RetryHints() {}

  /** Returns the delay the server asked for, or null when it gave no usable hint. */
  static Duration retryAfter(AttemptResponse response, Clock clock) {
    Duration ms = millis(response.header("Retry-After-Ms"));
    if (ms != null) {
      return ms;
    }
    String value = response.header("Retry-After");
    if (value == null) {
      return null;
    }
    value = value.trim();
    if (!value.isEmpty() && value.chars().allMatch(Character::isDigit)) {
      if (value.length() > 12) {
        return Duration.ofSeconds(999_999_999_999L); // absurdly long: exceeds any ceiling
      }
      return Duration.ofSeconds(Long.parseLong(value));
    }
    try {
      ZonedDateTime at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME);
      Duration d = Duration.between(clock.instant(), at.toInstant());
      return d.isNegative() ? Duration.ZERO : d;
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private static Duration millis(String value) {
    if (value == null) {
      return null;
    }
    try {
      double v = Double.parseDouble(value.trim());
      if (!(v >= 0) || Double.isInfinite(v)) {
        return null;
      }
      return v > 1e15 ? Duration.ofSeconds(999_999_999_999L) : Duration.ofNanos((long) (v * 1e6));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Returns TRUE/FALSE for a should-retry header, or null when absent or not a boolean. */
  static Boolean shouldRetry(AttemptResponse response, String headerName) {
    if (headerName == null) {
      return null;
    }
    String v = response.header(headerName);
    if (v == null) {
      return null;
    }
    v = v.trim();
    if (v.equalsIgnoreCase("true")) {
      return Boolean.TRUE;
    }
    return v.equalsIgnoreCase("false") ? Boolean.FALSE : null;
  }
}
