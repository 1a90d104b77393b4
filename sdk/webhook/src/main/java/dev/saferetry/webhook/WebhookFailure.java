package dev.saferetry.webhook;

/**
 * Which check rejected a webhook delivery. Each value names a check, never the secret or the
 * signature involved.
 *
 * <p>Thread-safe (an enum).
 */
public enum WebhookFailure {
  /** A required header was absent or empty. */
  MISSING_HEADER,
  /** A header that must appear once was sent more than once. */
  DUPLICATE_HEADER,
  /**
   * A header could not be parsed: wrong syntax, a repeated parameter, a value that is too long or
   * not plain ASCII, a malformed id or timestamp.
   */
  MALFORMED_HEADER,
  /** The signature header holds no signature of the scheme this verifier accepts. */
  NO_SIGNATURE,
  /** No signature matches the payload under any configured secret. */
  SIGNATURE_MISMATCH,
  /** The signed timestamp is older than the tolerance allows (a replay or a late delivery). */
  TIMESTAMP_TOO_OLD,
  /** The signed timestamp is further in the future than the tolerance allows. */
  TIMESTAMP_IN_FUTURE,
  /** The signature is valid but the payload carries no usable event id. */
  MALFORMED_PAYLOAD
}
