package dev.saferetry.provider;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a provider tells a client about retrying, beyond the status and {@code Retry-After}: a
 * header that says whether to retry (Stripe's {@code Stripe-Should-Retry}) and error answers it
 * documents as safe to retry with the same key (Square's {@code TEMPORARY_ERROR}).
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param shouldRetryHeader a header whose value {@code true} or {@code false} decides whether an
 *     error answer is retried (never what it proves: a {@code false} on a 5xx, 408, 409 or 429 ends
 *     the call UNKNOWN), or null
 * @param retryable error answers documented as safe to retry with the same key
 */
public record RetryHints(String shouldRetryHeader, List<ErrorMatch> retryable) {
  private static final RetryHints NONE = new RetryHints(null, List.of());

  /**
   * Validates and copies.
   *
   * @param shouldRetryHeader a header whose value {@code true} or {@code false} decides whether an
   *     error answer is retried (never what it proves), or null
   * @param retryable error answers documented as safe to retry with the same key
   */
  public RetryHints {
    if (shouldRetryHeader != null) {
      Headers.checkName(shouldRetryHeader);
    }
    retryable = List.copyOf(Objects.requireNonNull(retryable, "retryable"));
  }

  /**
   * Returns no hints.
   *
   * @return no hints
   */
  public static RetryHints none() {
    return NONE;
  }

  /**
   * Returns the should-retry header, if the provider documents one.
   *
   * @return the should-retry header, if the provider documents one
   */
  public Optional<String> shouldRetry() {
    return Optional.ofNullable(shouldRetryHeader);
  }
}
