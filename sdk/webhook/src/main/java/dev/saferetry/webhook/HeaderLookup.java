package dev.saferetry.webhook;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Reads one header from untrusted request headers: exactly one value, bounded length, printable
 * ASCII only. Every rejection is typed and never quotes the value. Stateless; thread-safe.
 */
final class HeaderLookup {
  /** Longer header values are rejected before any parsing: no provider sends more. */
  static final int MAX_VALUE_LENGTH = 8192;

  private HeaderLookup() {}

  /** Returns the single value of {@code name}, checked to be non-empty visible ASCII. */
  static String single(Map<String, ? extends List<String>> headers, String name) {
    Objects.requireNonNull(headers, "headers");
    String found = null;
    int count = 0;
    for (Map.Entry<String, ? extends List<String>> e : headers.entrySet()) {
      if (e.getKey() == null || !e.getKey().equalsIgnoreCase(name) || e.getValue() == null) {
        continue;
      }
      for (String value : e.getValue()) {
        if (value != null) {
          found = value;
          count++;
        }
      }
    }
    if (count > 1) {
      throw fail(WebhookFailure.DUPLICATE_HEADER, name, "sent " + count + " times");
    }
    return check(found, name);
  }

  /** Returns {@code value} stripped, checked to be non-empty printable ASCII of bounded length. */
  static String check(String value, String name) {
    if (value == null || value.isBlank()) {
      throw fail(WebhookFailure.MISSING_HEADER, name, null);
    }
    if (value.length() > MAX_VALUE_LENGTH) {
      throw fail(WebhookFailure.MALFORMED_HEADER, name, "longer than " + MAX_VALUE_LENGTH);
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c > 0x7e) {
        throw fail(WebhookFailure.MALFORMED_HEADER, name, "not printable ASCII");
      }
    }
    return value.strip();
  }

  /**
   * Returns whether {@code id} is usable as a dedup key: 1..255 visible ASCII characters, the rule
   * of every server-supplied id ({@link EventIds}).
   */
  static boolean isValidId(String id) {
    return EventIds.isUsable(id);
  }

  static WebhookVerificationException fail(WebhookFailure failure, String header, String detail) {
    return new WebhookVerificationException(failure, header, detail);
  }
}
