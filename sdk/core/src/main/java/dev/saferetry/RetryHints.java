package dev.saferetry;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * Reads the server's retry hints. A hint that cannot be parsed is ignored (the computed backoff
 * applies); a date in the past means "now".
 */
final class RetryHints {
  private RetryHints() {}

  /** Returns the delay the server asked for, or null when it gave no usable hint. */
  static Duration retryAfter(RawResponse response, Instant now) {
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
      Duration d = Duration.between(now, at.toInstant());
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

  /**
   * Returns what the should-retry headers say: TRUE or FALSE, or null when they are absent or do
   * not agree. Every value of both headers counts (a header sent twice, or folded into one value
   * with commas), ignoring case, surrounding blanks and empty values; one value that is not a
   * boolean, or two that disagree, make the hint unreadable, and the status alone decides.
   */
  static Boolean shouldRetry(RawResponse response, List<String> headerNames) {
    Boolean said = null;
    for (String name : headerNames) {
      List<String> values = name == null ? null : response.headers().get(name);
      for (String value : values == null ? List.<String>of() : values) {
        for (String token : value.split(",", -1)) {
          String t = token.strip();
          if (t.isEmpty()) {
            continue;
          }
          Boolean b = t.equalsIgnoreCase("true") ? Boolean.TRUE : null;
          b = t.equalsIgnoreCase("false") ? Boolean.FALSE : b;
          if (b == null || (said != null && !said.equals(b))) {
            return null;
          }
          said = b;
        }
      }
    }
    return said;
  }
}
